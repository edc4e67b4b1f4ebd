import { expect, test } from "../test";
import { SITE_PAGES } from "../../lib/auth/routes";
import { demoMember } from "../platform";
import { submitLogin } from "../site-pages";

/** Well-formed, and no action of this build: what a page loaded before a deploy names. */
const ACTION_OF_AN_EARLIER_BUILD = "40" + "ab".repeat(20);

test("a form sent from a page loaded before a deploy gets the page-updated page with 409, and a link back", async ({ page }) => {
  await page.goto(SITE_PAGES.login);
  // The login form as this build renders it for a browser without JavaScript, with its action's id
  // swapped for one the build does not have, as on a page loaded before a deploy.
  const reference = page.locator('form:has(input[name=email]) input[name^="$ACTION_"][name$=":0"]');
  const encoded = JSON.parse((await reference.getAttribute("value"))!) as { id: string; bound: unknown };
  await reference.evaluate((input, value) => ((input as HTMLInputElement).value = value), JSON.stringify({ ...encoded, id: ACTION_OF_AN_EARLIER_BUILD }));

  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === "POST"),
    submitLogin(page, demoMember.email, demoMember.password),
  ]);
  expect(answer.status()).toBe(409);
  expect(answer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(answer.headers()["x-content-type-options"]).toBe("nosniff");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This page was updated");
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.locator("main")).not.toContainText(/error|at \S+ \(/i);
  // Nobody was signed in: the action never ran.
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("wms_session");

  const back = page.getByRole("link", { name: "Back to the page" });
  await expect(back).toHaveAttribute("href", SITE_PAGES.login);
  await back.click();
  await expect(page).toHaveURL(SITE_PAGES.login);
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
});
