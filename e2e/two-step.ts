import { expect, type CDPSession, type Locator, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { latestMail, mails } from "./platform";
import { screenshot } from "./screenshots";

/** What the two-step sign-in specs share: a new member, and a login up to its second step. */

export const newEmail = () => `two-step-${Date.now()}-${Math.floor(Math.random() * 1e6)}@ridgeline.example`;
export const password = "granite-two-step-42";
export const platformPage = new RegExp(`^${e2e.platformUrl.replace("127.0.0.1", "(127\\.0\\.0\\.1|localhost)")}`);

export async function registerAndLand(page: Page, email: string) {
  await page.goto(`${SITE_PAGES.register}?returnTo=%2Faccount`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Nickname").fill("Robin Two");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
}

export async function logInWithPassword(page: Page, email: string, typed = password) {
  await page.goto(`${SITE_PAGES.login}?returnTo=%2Faccount`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(typed);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Logs in with the password on the platform's hosted page, reached from the site's login page; up to whatever comes next. */
export async function logInOnHostedPage(page: Page, email: string) {
  await page.goto(SITE_PAGES.login);
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await expect(page).toHaveURL(platformPage);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

export const wrongCodeFor = (code: string) => (code === "000000" ? "111111" : "000000");

/** Opens the folded disclosures around `target` (a way's form in two-step sign-in), outermost first, as a member clicks their summaries. */
export async function unfold(target: Locator) {
  await target.first().waitFor({ state: "attached" });
  const closed = target.first().locator("xpath=ancestor::details[not(@open)]/summary");
  while ((await closed.count()) > 0) await closed.first().click();
}

/** Submits one of the account page's two-step forms, which take the member's password besides the session; unfolds it first. */
export async function submitWithPassword(page: Page, button: string, typed = password) {
  await unfold(page.getByRole("button", { name: button, exact: true, includeHidden: true }));
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: button, exact: true }) });
  await form.getByLabel("Your password").fill(typed);
  await form.getByRole("button", { name: button, exact: true }).click();
}

/** What the member's authenticator app shows for the key on the set-up page, `steps` time steps from now. */
export const appCode = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

/** Waits out the end of a time step, so the platform's "now" is the step the test computes codes for. */
export async function awayFromStepEdge() {
  const left = TOTP.remaining({ period: 30 });
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/**
 * On the recovery codes' page, where making codes leads: reads them, as the member saves them, and goes back to the
 * account with "I have saved them".
 */
export async function saveRecoveryCodes(page: Page, screenshotName?: string, atCodesPage?: (page: Page) => Promise<void>): Promise<string[]> {
  await expect(page).toHaveURL(`${e2e.siteUrl}/account/recovery-codes#your-recovery-codes`);
  await expect(page.getByRole("heading", { name: "Your recovery codes", level: 1 })).toBeVisible();
  const items = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(items).toHaveCount(10);
  if (screenshotName) await screenshot(page, screenshotName);
  const codes = await items.allInnerTexts();
  await atCodesPage?.(page);
  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account#two-step`);
  return codes;
}

/**
 * Sets an authenticator app up from the account page, as a member with the app on their phone would; answers its key, the
 * code that turned it on, and the recovery codes that came with it (none when the member had some already).
 */
export async function setUpApp(
  page: Page,
  typed = password,
  atCodesPage?: (page: Page) => Promise<void>,
): Promise<{ secret: string; firstCode: string; codes: string[] }> {
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await submitWithPassword(page, "Set up an authenticator app", typed);
  const qr = twoStep.getByRole("img", { name: "QR code for adding this site to an authenticator app" });
  await expect(qr).toBeVisible();
  // Drawn on the server into the page: no request leaves for an image service.
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await screenshot(page, "two-step-app-setup", page.getByRole("heading", { name: "Set up your authenticator app" }));
  const secret = (await twoStep.locator("code").innerText()).replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  // Not on yet: a wrong code is refused next to the field.
  await twoStep.getByLabel("Code from the app").fill(wrongCodeFor(appCode(secret)));
  await twoStep.getByRole("button", { name: "Turn on the authenticator app" }).click();
  await expect(twoStep.getByText("That code is not right")).toBeVisible();
  await awayFromStepEdge();
  const firstCode = appCode(secret);
  await twoStep.getByLabel("Code from the app").fill(firstCode);
  await twoStep.getByRole("button", { name: "Turn on the authenticator app" }).click();
  // The first app comes with recovery codes, shown this once on a page of their own.
  await expect(page.getByRole("heading", { name: "Your recovery codes", level: 1 }).or(twoStep.getByText("Codes from an authenticator app"))).toBeVisible();
  const codes = page.url().includes("/account/recovery-codes") ? await saveRecoveryCodes(page, "two-step-recovery-codes", atCodesPage) : [];
  await expect(twoStep).toContainText("Codes from an authenticator app");
  await expect(twoStep.getByRole("button", { name: "Turn off the authenticator app", includeHidden: true })).toBeAttached();
  // The key is shown only while setting up.
  await expect(twoStep.locator("code")).toHaveCount(0);
  return { secret, firstCode, codes };
}

/** A platform authenticator on the page's browser that holds passkeys and checks the person (as a phone's screen lock would). */
export async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/**
 * Adds a passkey on the account page (made by the page's virtual authenticator), as the member named it. The first one brings
 * recovery codes, on their own page: answered, after going back.
 */
export async function addPasskey(page: Page, name: string): Promise<string[]> {
  const passkeys = page.getByRole("region", { name: "Passkeys" });
  await unfold(passkeys.getByLabel("Name of the passkey"));
  await passkeys.getByLabel("Name of the passkey").fill(name);
  await submitWithPassword(page, "Add a passkey");
  const added = page.getByRole("status").filter({ hasText: "Your passkey is added" });
  await expect(added).toBeVisible();
  if (!page.url().includes("/account/recovery-codes")) return [];
  const codes = await saveRecoveryCodes(page);
  await expect(passkeys.getByRole("list", { name: "Your passkeys" }).getByText(name, { exact: true })).toBeVisible();
  return codes;
}

/** Turns on e-mail codes, then codes by text message to `phone` (proved by the code texted to it), on the account page. */
export async function turnOnEmailAndSmsCodes(page: Page, email: string, phone: string) {
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(twoStep).toContainText(`Codes by e-mail to ${email}`);
  await unfold(twoStep.getByLabel("Mobile number"));
  await twoStep.getByLabel("Mobile number").fill(phone);
  await submitWithPassword(page, "Turn on codes by text message");
  const smsCode = twoStep.getByLabel("Code from the text message");
  await expect(smsCode).toBeVisible();
  await smsCode.fill((await latestMail(phone, "sms")).code!);
  await twoStep.getByRole("button", { name: "Turn on text-message codes" }).click();
  await expect(twoStep).toContainText(`Codes by text message to ${phone}`);
}

export const newPhone = () => `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, "0")}`;

/** A new member with e-mail codes turned on, on the account page. */
export async function registerWithEmailCodes(page: Page, email: string) {
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(page.getByRole("button", { name: "Turn off e-mail codes", includeHidden: true })).toBeAttached();
}

/** Logs out, and in again with the password as far as the login code page. */
export async function backToCodePage(page: Page, email: string) {
  await logOut(page);
  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
}

/**
 * The hosted code page's first way and its one form (docs/two-step-sign-in.md, "The hosted login page"), with or
 * without JavaScript: a member who turned on e-mail codes, then the app, is asked for the app's code first and
 * mailed nothing; one "Remember this device" box, the recovery code under "Use another way"; the e-mailed code a
 * button away, and once it has finished a login there, this browser's next hosted login asks for it first.
 */
export async function hostedLoginAsksTheNewestWayThenTheLastUsed(page: Page, atCodePage?: (page: Page) => Promise<void>) {
  const email = newEmail();
  await registerWithEmailCodes(page, email);
  const { secret } = await setUpApp(page);
  await logOut(page);
  const mailed = (await mails(email, "login-code")).length;

  await logInOnHostedPage(page, email);
  await expect(page).toHaveURL(platformPage);
  await expect(page.getByText("Open your authenticator app and enter the 6-digit code it shows for this site.")).toBeVisible();
  await expect(page.getByText("We ask for this way first because you set it up most recently")).toBeVisible();
  expect(await mails(email, "login-code")).toHaveLength(mailed);
  await expect(page.getByLabel("Remember this device for 30 days")).toHaveCount(1);
  await expect(page.getByLabel("Recovery code")).toBeHidden();
  await atCodePage?.(page);
  // A recovery code's wrong try comes back with "Use another way" open at its field; the box stays one.
  await page.getByText("Use another way", { exact: true }).click();
  await page.getByLabel("Recovery code").fill("not-a-code");
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page.getByRole("alert")).toHaveText("That recovery code is not right, or it was already used.");
  await expect(page.getByLabel("Recovery code")).toBeVisible();
  await expect(page.getByLabel("Remember this device for 30 days")).toHaveCount(1);

  await page.getByRole("button", { name: "Send the code by e-mail instead" }).click();
  await expect(page.getByRole("status")).toHaveText(/^We sent a new code by e-mail to t•••@ridgeline\.example\./);
  await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}/`));
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
  await logOut(page);

  await logInOnHostedPage(page, email);
  await expect(page.getByText("We sent a 6-digit code by e-mail to")).toBeVisible();
  await expect(page.getByText("We ask for this way first because you last logged in with it on this browser")).toBeVisible();
  await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
  return { email, secret };
}
