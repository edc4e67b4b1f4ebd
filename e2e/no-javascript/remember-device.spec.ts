import { expect, test } from "../test";
import { e2e } from "../../playwright.config";
import { logOut } from "../header-menus";
import { latestMail } from "../platform";
import { backToCodePage, logInWithPassword, newEmail, registerWithEmailCodes } from "../two-step";

// "Remember this device" with JavaScript off: the box posts with the code form, and forgetting is a form post too.

test("without script: a ticked box remembers the browser, and 'Forget all devices' asks for the code again", async ({ page }) => {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  await backToCodePage(page, email);
  const codeForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Log in", exact: true }) });
  await codeForm.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await codeForm.getByLabel("Remember this device for 30 days").check();
  await codeForm.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  const devices = page.getByRole("region", { name: "Remembered devices" });
  await devices.getByRole("button", { name: "Forget all devices" }).click();
  await expect(devices).toContainText("No device is remembered");
  await backToCodePage(page, email);
});
