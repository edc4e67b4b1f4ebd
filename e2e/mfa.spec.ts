import { expect, test } from "./test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { latestMail, mails } from "./platform";
import { screenshot } from "./screenshots";
import {
  backToCodePage,
  logInOnHostedPage,
  logInWithPassword,
  newEmail,
  password,
  registerAndLand,
  registerWithEmailCodes,
  submitWithPassword,
  unfold,
  wrongCodeFor,
} from "./two-step";

test("a member turns on e-mail codes; the next login asks for the code, refuses a wrong one and signs in with the right one", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await expect(twoStep).toContainText("Two-step sign-in is off");
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(twoStep).toContainText(`Codes by e-mail to ${email}`);
  await expect(twoStep.getByRole("button", { name: "Turn off e-mail codes", includeHidden: true })).toBeAttached();
  // The form pressed is gone (the factor is listed instead): its confirmation stands above and has the focus.
  await expect(twoStep.getByRole("status")).toHaveText("Two-step sign-in is on for codes by e-mail. Your logins ask first for a code we e-mail you.");
  await expect(twoStep.getByRole("status")).toBeFocused();
  await screenshot(page, "two-step-turned-on", twoStep);
  await logOut(page);

  // A wrong password is refused as before: no code is sent, and the form says so at the password.
  await logInWithPassword(page, email, "not-the-password");
  await expect(page.getByText("That e-mail address and password do not match")).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByText("t•••@ridgeline.example")).toBeVisible();
  const code = page.getByLabel("Login code");

  // Checked in the browser before anything is sent.
  await code.fill("12");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("Enter the 6 digits of the code")).toBeVisible();

  // A new code (loginV2 with the state token): the first one stops working.
  const first = await latestMail(email, "login-code");
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect.poll(async () => (await latestMail(email, "login-code")).id).not.toBe(first.id);
  const mail = await latestMail(email, "login-code");
  // The page shows again for the new code once the request is done.
  await expect(page.locator('form[aria-busy="true"]')).toHaveCount(0);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await code.fill(first.code === mail.code ? wrongCodeFor(mail.code!) : first.code!);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("That code is not right")).toBeVisible();
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await expect(code).toBeFocused();

  await code.fill(mail.code!);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");

  // Turned off, the password alone logs in again.
  // The signed-in session alone does not turn it off: a wrong password is refused at the field.
  await submitWithPassword(page, "Turn off e-mail codes", "not-the-password");
  await expect(page.getByText("That is not your password.")).toBeVisible();
  await submitWithPassword(page, "Turn off e-mail codes");
  await expect(twoStep).toContainText("Two-step sign-in is off");
  // The confirmation names the way that is off.
  await expect(twoStep.getByRole("status")).toHaveText("Codes by e-mail are off: logins no longer e-mail you a code.");
  await expect(twoStep.getByRole("status")).toBeFocused();
  await logOut(page);
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});

test("too many wrong codes end the login's code, with a message saying to log in again; a new login sends a new one", async ({ page }) => {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  await backToCodePage(page, email);
  const mail = await latestMail(email, "login-code");
  const code = page.getByLabel("Login code");
  for (let attempt = 1; attempt < 5; attempt++) {
    await code.fill(wrongCodeFor(mail.code!));
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("That code is not right")).toBeVisible();
  }
  await code.fill(wrongCodeFor(mail.code!));
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("Too many wrong codes")).toBeVisible();
  await expect(code).toBeFocused();
  // Now even the right code no longer works: the member logs in again for a new one.
  await code.fill(mail.code!);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("Too many wrong codes")).toBeVisible();
  // Nor can this login get a new one: it starts again with the password.
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expect(page.getByText("That code has expired. Log in again")).toBeVisible();
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});

test("an SMS factor: the code goes to the phone in the local outbox, on the hosted login page too", async ({ page }) => {
  const email = newEmail();
  const phone = `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`;
  await registerAndLand(page, email);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await unfold(twoStep.getByLabel("Mobile number"));
  await twoStep.getByLabel("Mobile number").fill("07700 900123");
  await submitWithPassword(page, "Turn on codes by text message");
  await expect(page.getByText("Enter the number in international form")).toBeVisible();
  await twoStep.getByLabel("Mobile number").fill(phone);
  await submitWithPassword(page, "Turn on codes by text message");
  // Not on until the code texted to the number is entered: a mistyped number locks no one out.
  await expect(twoStep).toContainText(`We texted a 6-digit code to ${phone}`);
  const enrolment = await latestMail(phone, "sms");
  await twoStep.getByLabel("Code from the text message").fill(wrongCodeFor(enrolment.code!));
  await twoStep.getByRole("button", { name: "Turn on text-message codes" }).click();
  await expect(twoStep.getByText("That code is not right")).toBeVisible();
  await twoStep.getByLabel("Code from the text message").fill(enrolment.code!);
  await twoStep.getByRole("button", { name: "Turn on text-message codes" }).click();
  await expect(twoStep).toContainText(`Codes by text message to ${phone}`);
  await logOut(page);

  // The hosted page asks for the code after the password.
  await logInOnHostedPage(page, email);
  await expect(page.getByRole("heading", { name: "Enter your login code" })).toBeVisible();
  await expect(page.getByText(`•••• ${phone.slice(-4)}`)).toBeVisible();
  const text = await latestMail(phone, "sms");
  await page.getByLabel("Login code").fill(wrongCodeFor(text.code!));
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("That code is not right")).toBeVisible();
  await expect(page.getByLabel("Login code")).toBeFocused();
  await page.getByLabel("Login code").fill(text.code!);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}/`));
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
});

/** A call to the platform's login API as anyone could make it, with no token. */
async function platformCall(path: string, body: unknown): Promise<{ stateToken?: string }> {
  const response = await fetch(`${e2e.platformUrl}/_api/iam/authentication/v2/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { stateToken?: string };
}

test("with two-step sign-in on, the password changes on the account page without a login code, after others' failed logins too", async ({ page }) => {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  // Someone else tries passwords for this account on the platform until it asks them for a robot check.
  for (let failure = 0; failure < 8; failure++) await platformCall("login", { loginId: { email }, password: "someone-guessing-1" });
  const codesBefore = (await mails(email, "login-code")).length;

  const section = page.getByRole("region", { name: "Password" });
  await section.getByLabel("Current password").fill(password);
  await section.getByLabel("New password", { exact: true }).fill("granite-new-step-43");
  await section.getByLabel("New password again").fill("granite-new-step-43");
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByRole("status")).toContainText("Your password is changed");
  await screenshot(page, "two-step-password-change", section);
  expect(await mails(email, "login-code")).toHaveLength(codesBefore);

  // Logins go on as ever: a code each, the new password first.
  await logOut(page);
  for (let login = 0; login < 2; login++) {
    await logInWithPassword(page, email, "granite-new-step-43");
    await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
    await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
    if (login === 0) await logOut(page);
  }
});

test("a password change on the account page ends the member's other browsers, and the new password cannot take two-step sign-in off there", async ({
  page,
  browser,
}) => {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  const other = await browser.newPage();
  await logInWithPassword(other, email);
  await expect(other).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await other.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await other.getByRole("button", { name: "Log in" }).click();
  await expect(other).toHaveURL(`${e2e.siteUrl}/account`);

  const section = page.getByRole("region", { name: "Password" });
  await section.getByLabel("Current password").fill(password);
  await section.getByLabel("New password", { exact: true }).fill("granite-new-step-44");
  await section.getByLabel("New password again").fill("granite-new-step-44");
  await section.getByRole("button", { name: "Change password" }).click();
  await expect(section.getByRole("status")).toContainText("Your password is changed");
  expect((await mails(email, "password-changed")).length).toBe(1);

  // The other browser's session ended with the change: its next page view finds it so, and the members' page sends it to log in, saying why.
  await other.goto("/account");
  await expect(other).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.login}?returnTo=%2Faccount&sessionEnded=1`);
  await expect(other.getByRole("main").getByRole("status")).toContainText("Your session has ended");
  await expect(other.getByTestId("member-name")).toHaveCount(0);
  await other.close();

  // Whoever changed the password knows the new one: it proves nothing here until a new login with its second step.
  await submitWithPassword(page, "Turn off e-mail codes", "granite-new-step-44");
  await expect(page.getByText("You changed your password since you logged in.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn off e-mail codes", includeHidden: true })).toBeAttached();
});

test("past a day's wrong login codes, the login form says how long to wait, and the member has a mail saying what to do", async ({ page }) => {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  await logOut(page);
  // A guesser who has the password, straight at the platform: four logins, five wrong codes each.
  for (let login = 0; login < 4; login++) {
    const { stateToken } = await platformCall("login", { loginId: { email }, password });
    const wrong = wrongCodeFor((await latestMail(email, "login-code")).code!);
    for (let tried = 0; tried < 5; tried++) await platformCall("email/verify", { stateToken, emailData: { code: wrong } });
  }
  expect((await mails(email, "code-ceiling"))[0].text).toContain("Set a new password");

  await logInWithPassword(page, email);
  const alert = page.getByRole("alert").filter({ hasText: "Too many attempts" });
  await expect(alert).toHaveText("Too many attempts. Please wait 24 hours, then try again.");
  await screenshot(page, "two-step-wait", page.getByRole("main"));
});

test("two-step sign-in is compact: each way folded under its name, and a new refusal takes the last confirmation away", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await registerAndLand(page, newEmail());
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  // No password field shows until the member opens the way they want.
  await expect(twoStep.getByLabel("Your password").filter({ visible: true })).toHaveCount(0);
  const height = (await twoStep.boundingBox())!.height;
  console.log(`two-step section at 1280 px: ${Math.round(height)} px`);
  expect(height).toBeLessThan(1200);

  await submitWithPassword(page, "Turn on codes by e-mail");
  const turnedOn = twoStep.getByRole("status").filter({ hasText: "Two-step sign-in is on" });
  await expect(turnedOn).toBeFocused();
  await submitWithPassword(page, "Turn off e-mail codes", "not-the-password");
  const refused = twoStep.getByText("That is not your password.");
  await expect(refused).toBeVisible();
  // The refusal is the news now: the earlier confirmation no longer stands above it.
  await expect(turnedOn).toHaveCount(0);
  await expect(twoStep.getByLabel("Your password").filter({ visible: true })).toBeFocused();
  await screenshot(page, "two-step-compact-refusal", twoStep);
});
