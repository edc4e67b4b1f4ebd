import { expect, test } from "../test";
import { SITE_PAGES } from "../../lib/auth/routes";
import { e2e } from "../../playwright.config";
import { latestMail, mails } from "../platform";
import { backToCodePage, newEmail, registerWithEmailCodes } from "../two-step";

test("without script: 'Send a new code' comes back to the page at its answer, and the new code logs in", async ({ page }) => {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  await backToCodePage(page, email);
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}#code-sending`);
  await expect(page.locator("#code-sending").getByRole("status")).toHaveText(/^We sent a new code by e-mail to t•••@ridgeline\.example\./);
  expect(await mails(email, "login-code")).toHaveLength(2);
  await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});
