import { expect, test } from "./test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { latestMail } from "./platform";
import { screenshot } from "./screenshots";
import { logInWithPassword, newEmail, registerAndLand, submitWithPassword } from "./two-step";

test("a remembered browser logs in without the code until the member forgets it on the account page", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  const devices = page.getByRole("region", { name: "Remembered devices" });
  await expect(devices).toContainText("No device is remembered");
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  const codeForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Log in", exact: true }) });
  await codeForm.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await codeForm.getByLabel("Remember this device for 30 days").check();
  await screenshot(page, "two-step-remember-device", codeForm);
  await codeForm.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);

  // Listed by the browser's name, with the date.
  await expect(devices.getByRole("listitem")).toHaveCount(1);
  await expect(devices.getByRole("listitem")).toContainText(/Chrome on Linux, remembered on \d{1,2} \w+ \d{4}/);
  await screenshot(page, "two-step-remembered-devices", devices);

  // Logged out and in again: the password alone, no code asked and none sent.
  await logOut(page);
  const codesBefore = (await latestMail(email, "login-code")).id;
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  expect((await latestMail(email, "login-code")).id).toBe(codesBefore);

  // Forgotten on the account page: the next login asks for the code again.
  await devices.getByRole("button", { name: "Forget Chrome on Linux" }).click();
  await expect(devices.getByRole("status")).toHaveText("That device is forgotten.");
  await expect(devices).toContainText("No device is remembered");
  await logOut(page);
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
});
