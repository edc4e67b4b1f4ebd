import { expect, type Page } from "@playwright/test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";

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

export const wrongCodeFor = (code: string) => (code === "000000" ? "111111" : "000000");

/** Submits one of the account page's two-step forms, which take the member's password besides the session. */
export async function submitWithPassword(page: Page, button: string, typed = password) {
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: button, exact: true }) });
  await form.getByLabel("Your password").fill(typed);
  await form.getByRole("button", { name: button, exact: true }).click();
}
