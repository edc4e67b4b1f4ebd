import { expect, test } from "./test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { screenshot } from "./screenshots";
import {
  appCode,
  awayFromStepEdge,
  logInOnHostedPage,
  logInWithPassword,
  newEmail,
  registerAndLand,
  saveRecoveryCodes,
  setUpApp,
  submitWithPassword,
} from "./two-step";

test("a member sets up an authenticator app from the account page, then logs in with its code on the site's form", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const { secret, firstCode } = await setUpApp(page);
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByText("Open your authenticator app")).toBeVisible();
  await screenshot(page, "login-app-code");
  // Nothing was sent, so there is nothing to send again.
  await expect(page.getByRole("button", { name: "Send a new code" })).toHaveCount(0);
  const code = page.getByLabel("Login code");
  await awayFromStepEdge();
  // The code that turned the app on was used: it does not log in.
  await code.fill(firstCode);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("That code is not right, or it was already used")).toBeVisible();
  await expect(code).toBeFocused();
  // The next step's code, as a phone a little ahead would show it.
  await code.fill(appCode(secret, 1));
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
});

test("the hosted login page asks for the authenticator app's code too", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const { secret } = await setUpApp(page);
  await logOut(page);

  await logInOnHostedPage(page, email);
  await expect(page.getByRole("heading", { name: "Enter your login code" })).toBeVisible();
  await expect(page.getByText("Open your authenticator app")).toBeVisible();
  await awayFromStepEdge();
  await page.getByLabel("Login code").fill(appCode(secret, 1));
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${e2e.siteUrl}/`));
  await expect(page.getByTestId("member-name")).toHaveText("Robin Two");
});

test("a member who lost their phone logs in with a recovery code, once; new codes need the password", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const { codes } = await setUpApp(page);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  // Gone once saved: their page does not show them again.
  await page.goto("/account/recovery-codes");
  await expect(page.getByText("There are no new recovery codes to show")).toBeVisible();
  await expect(page.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
  await page.goto("/account");
  await expect(twoStep).toContainText("Recovery codes: 10 left");
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await page.getByText("Use another way").click();
  await page.getByLabel("Recovery code").fill("AAAAA-AAAAA");
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page.getByText("That recovery code is not right")).toBeVisible();
  await page.getByLabel("Recovery code").fill(codes[0].toLowerCase());
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(twoStep).toContainText("Recovery codes: 9 left");
  await logOut(page);

  // A used code does not work again.
  await logInWithPassword(page, email);
  await page.getByText("Use another way").click();
  await page.getByLabel("Recovery code").fill(codes[0]);
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page.getByText("That recovery code is not right, or it was already used")).toBeVisible();
  await page.getByLabel("Recovery code").fill(codes[1]);
  await page.getByRole("button", { name: "Use the recovery code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);

  // New codes: the signed-in session alone is not enough.
  await submitWithPassword(page, "Make new recovery codes", "not-the-password");
  await expect(twoStep.getByText("That is not your password.")).toBeVisible();
  await submitWithPassword(page, "Make new recovery codes");
  await expect(page.getByRole("status").filter({ hasText: "New recovery codes are ready. The earlier ones no longer work." })).toBeVisible();
  expect(await saveRecoveryCodes(page)).not.toContain(codes[2]);
});

test("a member with e-mail codes and an app chooses the app at login, though the code went by e-mail", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(page.getByRole("region", { name: "Two-step sign-in" })).toContainText(`Codes by e-mail to ${email}`);
  const { secret } = await setUpApp(page);
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByText("We sent a 6-digit code by e-mail")).toBeVisible();
  await awayFromStepEdge();
  await page.getByText("Use another way").click();
  await page.getByLabel("Code from your app").fill(appCode(secret, 1));
  await page.getByRole("button", { name: "Use the app's code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});

test("turning the app on moves the focus to its confirmation, which replaces the set-up's", async ({ page }) => {
  await registerAndLand(page, newEmail());
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  // The first app: its recovery codes' page says it is on, with the focus.
  await setUpApp(page, undefined, async (codesPage) => {
    await expect(codesPage.getByRole("status").first()).toHaveText(
      "Two-step sign-in is on for your authenticator app. Your logins ask first for your authenticator app's code.",
    );
    await expect(codesPage.getByRole("status").first()).toBeFocused();
    // With script, the codes also copy to the clipboard, and print.
    await codesPage.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await codesPage.getByRole("button", { name: "Copy the codes" }).click();
    await expect(codesPage.getByText("Copied: paste them into your password manager.")).toBeVisible();
    const first = await codesPage.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").first().innerText();
    expect(await codesPage.evaluate(() => navigator.clipboard.readText())).toContain(first);
    await expect(codesPage.getByRole("button", { name: "Print" })).toBeVisible();
  });
  // Off, then on again: the member has recovery codes, so the answer comes in place.
  await submitWithPassword(page, "Turn off the authenticator app");
  await expect(twoStep.getByRole("status")).toHaveText("The authenticator app is off: logins no longer ask for its code.");
  await submitWithPassword(page, "Set up an authenticator app");
  await expect(twoStep.getByRole("status")).toHaveText("Scan the QR code with your authenticator app, then enter the code it shows.");
  const secret = (await twoStep.locator("code").innerText()).replace(/\s/g, "");
  // A key that is typed breaks between its groups of four, never inside one; a phone can open the app from the link.
  await expect(twoStep.getByRole("link", { name: "Add it to an authenticator app here" })).toHaveAttribute("href", /^otpauth:\/\/totp\//);
  await awayFromStepEdge();
  await twoStep.getByLabel("Code from the app").fill(appCode(secret));
  await twoStep.getByRole("button", { name: "Turn on the authenticator app" }).click();
  const turnedOn = twoStep.getByRole("status");
  await expect(turnedOn).toHaveText("Two-step sign-in is on for your authenticator app. Your logins ask first for your authenticator app's code.");
  await expect(turnedOn).toBeFocused();
  await expect(twoStep.getByText("Scan the QR code")).toHaveCount(0);
  await screenshot(page, "two-step-app-turned-on", twoStep);
});

test("the app's key wraps between its groups of four at 320 px", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  await registerAndLand(page, newEmail());
  await submitWithPassword(page, "Set up an authenticator app");
  const groups = page.getByRole("region", { name: "Two-step sign-in" }).locator("code > span > span");
  await expect(groups).toHaveCount(8);
  // Each group on one line: as tall as one line of its text.
  for (const box of await groups.evaluateAll((spans) => spans.map((span) => span.getClientRects().length))) expect(box).toBe(1);
});
