import { expect, test } from "./test";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { latestMail, mails } from "./platform";
import { screenshot } from "./screenshots";
import {
  backToCodePage,
  logInOnHostedPage,
  newEmail,
  newPhone,
  platformPage,
  registerAndLand,
  registerWithEmailCodes,
  setUpApp,
  submitWithPassword,
  turnOnEmailAndSmsCodes,
} from "./two-step";

// The login's second step: a new code, or the code by another way, answered in place with the focus; the true wait past the hour's codes.

test("'Send a new code' says where it went and takes the focus; past the hour's codes it says the wait; no recovery form without codes", async ({ page }) => {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  await backToCodePage(page, email);
  // This member was never given recovery codes (they come with an app or a passkey): none are asked for.
  await expect(page.getByText("Send a new code")).toBeVisible();
  await expect(page.getByLabel("Recovery code")).toHaveCount(0);
  await expect(page.getByText("Lost your phone or passkey?")).toHaveCount(0);

  const send = page.getByRole("button", { name: "Send a new code" });
  const sent = page.getByRole("status").filter({ hasText: "We sent a new code by e-mail to t•••@ridgeline.example" });
  // The login's code and four new ones: the platform's five an hour.
  for (let count = 2; count <= 5; count++) {
    await send.click();
    await expect.poll(async () => (await mails(email, "login-code")).length).toBe(count);
    await expect(sent).toBeVisible();
    await expect(sent.locator("xpath=..")).toBeFocused();
  }
  await screenshot(page, "login-new-code-sent", page.getByRole("heading", { name: "Enter your login code" }));
  // The newest code works: the page kept the new challenge.
  const newest = await latestMail(email, "login-code");
  await send.click();
  const refused = page.getByRole("alert").filter({ hasText: "No new code was sent" });
  await expect(refused).toContainText(/Ask again in (\d+ minutes|1 hour)\./);
  await expect(refused.locator("xpath=..")).toBeFocused();
  expect(await mails(email, "login-code")).toHaveLength(5);
  await screenshot(page, "login-new-code-wait", page.getByRole("heading", { name: "Enter your login code" }));
  await page.getByLabel("Login code").fill(newest.code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});

test("'Send the code by text message instead' says where the code went and takes the focus; the texted code logs in", async ({ page }) => {
  const email = newEmail();
  const phone = newPhone();
  await registerAndLand(page, email);
  await turnOnEmailAndSmsCodes(page, email, phone);
  await backToCodePage(page, email);
  await page.getByRole("button", { name: "Send the code by text message instead" }).click();
  const sent = page.getByRole("status").filter({ hasText: `We sent a new code by text message to •••• ${phone.slice(-4)}` });
  await expect(sent).toBeVisible();
  await expect(sent.locator("xpath=..")).toBeFocused();
  await expect(page.getByRole("button", { name: "Send the code by e-mail instead" })).toBeVisible();
  await page.getByLabel("Login code").fill((await latestMail(phone, "sms")).code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});

test("the hosted code page sends a new code and says where; its other ways are set apart in small type, as on the site", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  await setUpApp(page);
  await logOut(page);

  await logInOnHostedPage(page, email);
  await expect(page).toHaveURL(platformPage);
  // The app, set up last, is asked first; the code comes by e-mail when asked for.
  await page.getByRole("button", { name: "Send the code by e-mail instead" }).click();
  await expect(page.getByRole("status")).toHaveText(/^We sent a new code by e-mail to/);
  const first = await latestMail(email, "login-code");
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect(page.getByRole("status")).toHaveText(/^We sent a new code by e-mail to t•••@ridgeline\.example\./);
  const mail = await latestMail(email, "login-code");
  expect(mail.id).not.toBe(first.id);
  // The app's and the recovery code's paragraphs read as the site's: 14 px, under "Use another way", set apart by a rule.
  await page.getByText("Use another way", { exact: true }).click();
  for (const text of ["Use your authenticator app instead", "Lost your phone or passkey?"]) {
    const paragraph = page.getByText(text);
    expect(await paragraph.evaluate((element) => getComputedStyle(element).fontSize)).toBe("14px");
    expect(await paragraph.evaluate((element) => getComputedStyle(element.closest(".recovery, details")!).borderTopStyle)).toBe("solid");
  }
  await page.getByLabel("Login code").fill(mail.code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}`));
});
