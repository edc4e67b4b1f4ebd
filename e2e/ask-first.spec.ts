import { expect, test } from "./test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { latestMail, mails } from "./platform";
import { screenshot } from "./screenshots";
import {
  appCode,
  awayFromStepEdge,
  logInWithPassword,
  newEmail,
  newPhone,
  registerAndLand,
  setUpApp,
  submitWithPassword,
  turnOnEmailAndSmsCodes,
  addPasskey,
  virtualAuthenticator,
} from "./two-step";

// "Ask first for" (lib/auth/ask-first.ts): the platform challenges a login by the member's oldest
// way; the site leads, on this browser, with the one the member chose, and says so when it confirms.

test("a member with e-mail codes, then an app, is told what the next login asks; chosen, the app's code leads the next login", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(twoStep).toContainText(`Codes by e-mail to ${email}`);
  // E-mail codes are older: the login still asks for them first, and the confirmation (above the recovery codes) says so.
  const { secret } = await setUpApp(page, undefined, async (codesPage) => {
    await expect(
      codesPage.getByText(
        "Two-step sign-in is on for your authenticator app. Your logins ask first for a code we e-mail you; " +
          "to be asked for your authenticator app's code first on this browser, choose it under “Ask first for”.",
      ),
    ).toBeVisible();
  });

  const askFirst = twoStep.getByLabel("Ask first for");
  await expect(askFirst).toHaveValue("");
  // Only the ways that are on, and the default that names the one a login offers first.
  await expect(askFirst.locator("option")).toHaveText([
    "Whichever the login offers first (a code we e-mail you)",
    "A code we e-mail you",
    "Your authenticator app's code",
  ]);
  await askFirst.selectOption("TOTP");
  await twoStep.getByRole("button", { name: "Save for this browser" }).click();
  const saved = twoStep.getByRole("status").filter({ hasText: "Saved for this browser." });
  await expect(saved).toHaveText(
    "Saved for this browser. On this browser your logins ask first for your authenticator app's code, as you chose under “Ask first for” " +
      "(a code we e-mail you is still sent, and works too).",
  );
  // The answer takes the focus, where the form is.
  await expect(page.locator(":focus")).toContainText("Saved for this browser.");
  await screenshot(page, "ask-first-saved", twoStep.getByRole("heading", { name: "Which way logins ask first" }));
  await page.reload();
  await expect(askFirst).toHaveValue("TOTP");
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByText("Open your authenticator app and enter the 6-digit code it shows")).toBeVisible();
  await expect(page.getByText("we also sent a code by e-mail to")).toBeVisible();
  // The app's field leads; the e-mailed code waits under "Use another way", still closed.
  const appField = page.getByLabel("Code from your app");
  await expect(appField).toBeVisible();
  await expect(page.getByLabel("Login code")).toBeHidden();
  await screenshot(page, "login-app-first");
  await awayFromStepEdge();
  await appField.fill(appCode(secret, 1));
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await logOut(page);

  // The code e-mailed at the same time works too, from "Use another way".
  await logInWithPassword(page, email);
  await expect(page.getByLabel("Code from your app")).toBeVisible();
  await page.getByText("Use another way", { exact: true }).click();
  await expect(page.getByText(`we also sent a 6-digit code by e-mail to`)).toBeVisible();
  await page.getByLabel("Login code").fill((await latestMail(email, "login-code")).code!);
  await page.getByRole("button", { name: "Use this code" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);

  // Back to the default: the login leads with the e-mailed code again.
  await askFirst.selectOption("");
  await twoStep.getByRole("button", { name: "Save for this browser" }).click();
  await expect(twoStep.getByRole("status").filter({ hasText: "Saved for this browser." })).toHaveText(
    "Saved for this browser. Your logins ask first for a code we e-mail you.",
  );
  await logOut(page);
  await logInWithPassword(page, email);
  await expect(page.getByLabel("Login code")).toBeVisible();
  await expect(page.getByLabel("Code from your app")).toBeHidden();
});

test("text messages chosen first: the login e-mailed its code, sends no second one by itself, and offers the text message first", async ({ page }) => {
  const email = newEmail();
  const phone = newPhone();
  await registerAndLand(page, email);
  await turnOnEmailAndSmsCodes(page, email, phone);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await twoStep.getByLabel("Ask first for").selectOption("SMS");
  await twoStep.getByRole("button", { name: "Save for this browser" }).click();
  await expect(twoStep.getByRole("status").filter({ hasText: "Saved for this browser." })).toHaveText(
    "Saved for this browser. Your logins ask first for a code we e-mail you; on this browser the login page first offers to send " +
      "a code we text you instead, as you chose under “Ask first for”.",
  );
  const texts = (await mails(phone, "sms")).length;
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByText("by e-mail to")).toBeVisible();
  expect((await mails(phone, "sms")).length).toBe(texts);
  // The chosen way's button comes first, above the code field, and says why.
  await expect(page.getByText("You chose a code we text you first on this browser")).toBeVisible();
  const byText = page.getByRole("button", { name: "Send the code by text message instead" });
  expect((await byText.boundingBox())!.y).toBeLessThan((await page.getByLabel("Login code").boundingBox())!.y);
  await byText.click();
  await expect(page.getByText(`•••• ${phone.slice(-4)}`, { exact: true })).toBeVisible();
  await page.getByLabel("Login code").fill((await latestMail(phone, "sms")).code!);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});

test("a passkey chosen first leads a login challenged by e-mail, and logs in; the e-mailed code waits under 'Use another way'", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  await virtualAuthenticator(page);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await submitWithPassword(page, "Turn on codes by e-mail");
  await expect(twoStep).toContainText(`Codes by e-mail to ${email}`);
  await addPasskey(page, "Phone");
  await twoStep.getByLabel("Ask first for").selectOption("WEBAUTHN");
  await twoStep.getByRole("button", { name: "Save for this browser" }).click();
  await expect(twoStep.getByRole("status").filter({ hasText: "Saved for this browser." })).toContainText(
    "On this browser your logins ask first for a passkey, as you chose under “Ask first for” (a code we e-mail you is still sent, and works too).",
  );
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page.getByRole("heading", { name: "Use your passkey" })).toBeVisible();
  await expect(page.getByText("we also sent a code by e-mail to")).toBeVisible();
  await expect(page.getByLabel("Login code")).toBeHidden();
  await page.getByText("Use another way", { exact: true }).click();
  await expect(page.getByLabel("Login code")).toBeVisible();
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
});
