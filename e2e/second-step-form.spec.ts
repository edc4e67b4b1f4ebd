import { expect, test } from "./test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { latestMail } from "./platform";
import { screenshot } from "./screenshots";
import { appCode, awayFromStepEdge, logInWithPassword, newEmail, registerAndLand, setUpApp, submitWithPassword } from "./two-step";

test("the code page asks once whether to remember the device; the other ways wait under 'Use another way' and the one choice counts for them", async ({
  page,
}) => {
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  const { secret } = await setUpApp(page);
  await logOut(page);

  await page.setViewportSize({ width: 320, height: 800 });
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByLabel("Login code")).toBeVisible();
  // One box for every way, and the app's and recovery code's fields folded away.
  await expect(page.getByLabel("Remember this device for 30 days")).toHaveCount(1);
  await expect(page.getByLabel("Code from your app")).toBeHidden();
  await expect(page.getByLabel("Recovery code")).toBeHidden();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  console.log(`code page at 320 px with e-mail codes, an app and recovery codes: ${height} px tall`);
  expect(height).toBeLessThan(1300);
  await screenshot(page, "login-code-one-choice", page.getByRole("heading", { name: "Enter your login code" }));

  // Ticked once, then answered by another way: this browser is remembered all the same.
  await page.getByLabel("Remember this device for 30 days").check();
  await page.getByText("Use another way").click();
  await awayFromStepEdge();
  await page.getByLabel("Code from your app").fill(appCode(secret, 1));
  await page.getByRole("button", { name: "Use the app's code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await logOut(page);
  const codesBefore = (await latestMail(email, "login-code")).id;
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  expect((await latestMail(email, "login-code")).id).toBe(codesBefore);
});
