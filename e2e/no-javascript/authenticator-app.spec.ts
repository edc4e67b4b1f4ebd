import { expect, test } from "../test";
import { SITE_PAGES } from "../../lib/auth/routes";
import { e2e } from "../../playwright.config";
import { logOut } from "../header-menus";
import { appCode, awayFromStepEdge, logInWithPassword, newEmail, registerAndLand, setUpApp } from "../two-step";

// The authenticator app with JavaScript off: every step is a form post answered by the server,
// the recovery codes included, which must survive the set-up form's going away.

test("without script: an app is set up with its recovery codes shown once, then logs in by its code and by a recovery code", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const { secret, codes } = await setUpApp(page);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await awayFromStepEdge();
  await page.getByLabel("Login code").fill(appCode(secret, 1));
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await logOut(page);

  await logInWithPassword(page, email);
  await page.getByText("Use another way").click();
  await page.getByLabel("Recovery code").fill(codes[4]);
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(twoStep).toContainText("Recovery codes: 9 left");
});
