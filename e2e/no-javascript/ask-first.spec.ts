import { expect, test } from "../test";
import { SITE_PAGES } from "../../lib/auth/routes";
import { e2e } from "../../playwright.config";
import { logOut } from "../header-menus";
import { appCode, awayFromStepEdge, logInWithPassword, newEmail, registerAndLand, setUpApp, submitWithPassword } from "../two-step";

test("without script: “Ask first for” is saved by a form post that comes back to it, and the next login leads with the app", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(twoStep).toContainText(`Codes by e-mail to ${email}`);
  const { secret } = await setUpApp(page);

  await twoStep.getByLabel("Ask first for").selectOption("TOTP");
  await twoStep.getByRole("button", { name: "Save for this browser" }).click();
  // The page comes back at the form, with the answer there.
  await expect(page).toHaveURL(`${e2e.siteUrl}/account#ask-first-reply`);
  await expect(
    page.locator("#ask-first-reply").getByText("Saved for this browser. On this browser your logins ask first for your authenticator app's code"),
  ).toBeVisible();
  await expect(twoStep.getByLabel("Ask first for")).toHaveValue("TOTP");
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await awayFromStepEdge();
  await page.getByLabel("Code from your app").fill(appCode(secret, 1));
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});
