import { expect, test } from "../test";
import { SITE_PAGES } from "../../lib/auth/routes";
import { e2e } from "../../playwright.config";
import { logOut } from "../header-menus";
import { latestMail, mails } from "../platform";
import { logInWithPassword, newEmail, registerAndLand, submitWithPassword } from "../two-step";

test("without script: 'Send a new code' comes back to the page at its answer, and the new code logs in", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}#code-sending`);
  await expect(page.locator("#code-sending").getByRole("status")).toHaveText(/^We sent a new code by e-mail to t•••@ridgeline\.example\./);
  expect(await mails(email, "login-code")).toHaveLength(2);
  await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});
