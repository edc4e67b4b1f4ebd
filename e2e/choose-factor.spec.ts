import { expect, test } from "./test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { latestMail } from "./platform";
import { logInWithPassword, newEmail, registerAndLand, submitWithPassword, unfold } from "./two-step";

test("a member with e-mail and text-message codes has the login code sent by text message instead, and logs in with it", async ({ page }) => {
  const email = newEmail();
  const phone = `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`;
  await registerAndLand(page, email);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(twoStep).toContainText(`Codes by e-mail to ${email}`);
  await unfold(twoStep.getByLabel("Mobile number"));
  await twoStep.getByLabel("Mobile number").fill(phone);
  await submitWithPassword(page, "Turn on codes by text message");
  // The code is texted once the form's answer is in: its field shows then.
  const smsCode = twoStep.getByLabel("Code from the text message");
  await expect(smsCode).toBeVisible();
  await smsCode.fill((await latestMail(phone, "sms")).code!);
  await twoStep.getByRole("button", { name: "Turn on text-message codes" }).click();
  await expect(twoStep).toContainText(`Codes by text message to ${phone}`);
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  // Challenged by the oldest factor, e-mail; the member chooses the phone.
  await expect(page.getByText("by e-mail to")).toBeVisible();
  const mailed = await latestMail(email, "login-code");
  await page.getByRole("button", { name: "Send the code by text message instead" }).click();
  await expect(page.getByText(`•••• ${phone.slice(-4)}`, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send the code by e-mail instead" })).toBeVisible();
  // The e-mailed code no longer works; the texted one does.
  const code = page.getByLabel("Login code");
  await code.fill(mailed.code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page.getByText("That code is not right")).toBeVisible();
  await code.fill((await latestMail(phone, "sms")).code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});
