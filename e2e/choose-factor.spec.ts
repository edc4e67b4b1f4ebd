import { expect, test } from "./test";
import { e2e } from "../playwright.config";
import { latestMail } from "./platform";
import { backToCodePage, newEmail, newPhone, registerAndLand, turnOnEmailAndSmsCodes } from "./two-step";

test("a member with e-mail and text-message codes has the login code sent by text message instead, and logs in with it", async ({ page }) => {
  const email = newEmail();
  const phone = newPhone();
  await registerAndLand(page, email);
  await turnOnEmailAndSmsCodes(page, email, phone);
  await backToCodePage(page, email);
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
