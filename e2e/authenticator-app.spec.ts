import { expect, test, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { logInWithPassword, newEmail, password, platformPage, registerAndLand, submitWithPassword, wrongCodeFor } from "./two-step";

/** What the member's authenticator app shows for the key on the set-up page, `steps` time steps from now. */
const appCode = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

/** Waits out the end of a time step, so the platform's "now" is the step the test computes codes for. */
async function awayFromStepEdge() {
  const left = TOTP.remaining({ period: 30 });
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** Sets an authenticator app up from the account page, as a member with the app on their phone would; answers its key and the code that turned it on. */
async function setUpApp(page: Page): Promise<{ secret: string; firstCode: string }> {
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  await submitWithPassword(page, "Set up an authenticator app");
  const qr = twoStep.getByRole("img", { name: "QR code for adding this site to an authenticator app" });
  await expect(qr).toBeVisible();
  // Drawn on the server into the page: no request leaves for an image service.
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
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
  await expect(twoStep).toContainText("Codes from an authenticator app");
  // The first app comes with recovery codes, shown this once.
  await expect(twoStep.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await expect(twoStep.getByRole("button", { name: "Turn off the authenticator app" })).toBeVisible();
  // The key is shown only while setting up.
  await expect(twoStep.locator("code")).toHaveCount(0);
  return { secret, firstCode };
}

test("a member sets up an authenticator app from the account page, then logs in with its code on the site's form", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email);
  const { secret, firstCode } = await setUpApp(page);
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
  await expect(page.getByText("Open your authenticator app")).toBeVisible();
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

  await page.goto(SITE_PAGES.login);
  await page.getByRole("link", { name: "Continue with the hosted login page" }).click();
  await expect(page).toHaveURL(platformPage);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
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
  await setUpApp(page);
  const twoStep = page.getByRole("region", { name: "Two-step sign-in" });
  const codes = await twoStep.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allInnerTexts();
  // Gone once the page is loaded again: they are not kept in a readable form.
  await page.reload();
  await expect(twoStep.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
  await expect(twoStep).toContainText("Recovery codes: 10 left");
  await logOut(page);

  await logInWithPassword(page, email);
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.loginCode}`);
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
  const fresh = twoStep.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(fresh).toHaveCount(10);
  expect(await fresh.allInnerTexts()).not.toContain(codes[2]);
});
