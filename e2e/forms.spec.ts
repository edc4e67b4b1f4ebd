import { execFileSync } from "node:child_process";
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { holdPageScripts } from "./hydration";
import { blockMember, demoMember, latestMail, setPlatformSettings } from "./platform";
import { screenshot } from "./screenshots";
import { STRONG_PASSWORD, newEmail, resetPasswordByMail, submitLogin } from "./site-pages";

/** A fresh address per test run, so tests never depend on each other's accounts. */

async function register(page: Page, email: string, nickname: string) {
  await page.goto(SITE_PAGES.register);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel("First name").fill("Robin");
  await page.getByLabel("Last name").fill("Alder");
  await page.getByLabel("Nickname").fill(nickname);
  await page.getByRole("button", { name: "Create account" }).click();
}

test.afterEach(async () => {
  await setPlatformSettings({ requireEmailVerification: false, requireOwnerApproval: false, requireCaptcha: false, rejectInvisibleCaptcha: false });
});

test("register, read the code in the mailbox, verify, arrive logged in; log out", async ({ page }) => {
  await setPlatformSettings({ requireEmailVerification: true });
  const email = newEmail("verify");
  await register(page, email, "Robin V");
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);
  await expect(page.getByText(email)).toBeVisible();
  const mail = await latestMail(email, "verification");
  await page.getByLabel("Code from the e-mail").fill(mail.code!);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await expect(page.getByTestId("member-name")).toHaveText("Robin V");
  await logOut(page);
});

test("a login sent before the page's script has started shows its pending words at once, and goes on to the account", async ({ page }) => {
  // The page's script held back, as on a slow phone: the form posts natively.
  const release = await holdPageScripts(page);
  await page.goto(`${SITE_PAGES.login}?returnTo=%2Faccount`, { waitUntil: "domcontentloaded" });
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByLabel("Password", { exact: true }).fill(demoMember.password);
  // Pressed, and looked at in the same moment, before the post's answer replaces the page.
  const pressed = await page.getByRole("button", { name: "Log in" }).evaluate((button: HTMLButtonElement) => {
    button.click();
    const { content, cursor } = getComputedStyle(button, "::after");
    return { sending: button.form?.hasAttribute("data-submitting"), content, cursor, hydrated: Object.keys(button).some((key) => key.startsWith("__react")) };
  });
  expect(pressed).toEqual({ sending: true, content: '"Logging in…"', cursor: "wait", hydrated: false });
  release();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});

test("a wrong password says so, next to the password only, and keeps the e-mail", async ({ page }) => {
  await page.goto(SITE_PAGES.login);
  await submitLogin(page, demoMember.email, "not-the-password");
  const password = page.getByLabel("Password", { exact: true });
  await expect(page.getByText("That e-mail address and password do not match")).toBeVisible();
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(password).toBeFocused();
  await expect(page.getByLabel("E-mail")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("E-mail")).toHaveValue(demoMember.email);

  await password.fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});

test("a form left incomplete is refused in place, each problem next to its field, focus on the first", async ({ page }) => {
  await page.goto(SITE_PAGES.register);
  await page.getByLabel("E-mail").fill("not-an-address");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter an e-mail address like name@example.com.")).toBeVisible();
  await expect(page.getByText("Use at least 8 characters.")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toBeFocused();
});

test("forgot password: the e-mailed link sets a new password, which then logs in", async ({ page }) => {
  const email = newEmail("reset");
  await register(page, email, "Robin R");
  await expect(page.getByTestId("member-name")).toHaveText("Robin R");
  await logOut(page);

  await page.goto(SITE_PAGES.login);
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await resetPasswordByMail(page, email, "alpine-meadow-77");
  await submitLogin(page, email, "alpine-meadow-77");
  await expect(page.getByTestId("member-name")).toHaveText("Robin R");
});

test("with owner approval on, registration says so, and login works once an admin approves", async ({ page }) => {
  await setPlatformSettings({ requireOwnerApproval: true });
  const email = newEmail("approval");
  await register(page, email, "Robin A");
  await expect(page.getByRole("status")).toContainText("waiting for a club organiser to approve");

  execFileSync("npx", ["tsx", "platform/cli.ts", "approve", email], { env: { ...process.env, LOCAL_PLATFORM_DATA_DIR: e2e.dataDir }, stdio: "pipe" });
  await page.goto(SITE_PAGES.login);
  await submitLogin(page, email, STRONG_PASSWORD);
  await expect(page.getByTestId("member-name")).toHaveText("Robin A");
});

test("with approval and verification both on, the right code says the e-mail is confirmed and the account waits for approval", async ({ page }) => {
  await setPlatformSettings({ requireEmailVerification: true, requireOwnerApproval: true });
  const email = newEmail("confirm-approval");
  await register(page, email, "Robin C");
  await expect(page).toHaveURL(`${e2e.siteUrl}${SITE_PAGES.verify}`);
  await page.getByLabel("Code from the e-mail").fill((await latestMail(email, "verification")).code!);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("status")).toHaveText("E-mail confirmed; your account is waiting for approval.");
  await expect(page.getByText("There is no confirmation waiting")).toHaveCount(0);
  await expect(page.getByLabel("Code from the e-mail")).toHaveCount(0);
  await screenshot(page, "signup-confirmed-awaiting-approval", page.getByRole("main"));
  // Still so when the page is loaded again.
  await page.reload();
  await expect(page.getByRole("status")).toHaveText("E-mail confirmed; your account is waiting for approval.");
});

test("a blocked member is told so after the right password, and whom to ask; a wrong password gets the common message", async ({ page }) => {
  const email = newEmail("blocked");
  await register(page, email, "Robin B");
  await expect(page.getByTestId("member-name")).toHaveText("Robin B");
  await logOut(page);
  await blockMember(email);

  await page.goto(SITE_PAGES.login);
  await submitLogin(page, email, "not-the-password");
  await expect(page.getByText("That e-mail address and password do not match")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "blocked" })).toHaveText(
    "This account is blocked, so it cannot log in. If you think this is a mistake, contact a club organiser: they can unblock it.",
  );
  await screenshot(page, "login-blocked", page.getByRole("main"));
});

test("with captcha required, the invisible check passes on the next try, with nothing to tick", async ({ page }) => {
  await setPlatformSettings({ requireCaptcha: true });
  await page.goto(SITE_PAGES.login);
  await submitLogin(page, demoMember.email, demoMember.password);
  await expect(page.getByText("please enter your password again")).toBeVisible();
  await expect(page.getByLabel("I am not a robot")).toHaveCount(0);
  await page.getByLabel("Password", { exact: true }).fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});

test("when the invisible check is not trusted, the form falls back to the visible widget and succeeds with it", async ({ page }) => {
  await setPlatformSettings({ requireCaptcha: true, rejectInvisibleCaptcha: true });
  await page.goto(SITE_PAGES.login);
  await submitLogin(page, demoMember.email, demoMember.password);
  await expect(page.getByText("please enter your password again")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("The robot check did not pass")).toBeVisible();
  await page.getByLabel("I am not a robot").check();
  await page.getByLabel("Password", { exact: true }).fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});
