import { expect, test, type Page } from "@playwright/test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";

const newEmail = () => `account-${Date.now()}-${Math.floor(Math.random() * 1e6)}@ridgeline.example`;

async function registerAndLand(page: Page, email: string, password: string) {
  await page.goto(`${SITE_PAGES.register}?returnTo=%2Faccount`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Nickname").fill("Robin");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto(SITE_PAGES.login);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

test("a member edits the profile with an address, sees it after reload and in the header, changes the password, then deletes the account", async ({ page }) => {
  const email = newEmail();
  await registerAndLand(page, email, "first-granite-path-1");

  await page.getByLabel("Nickname").fill("Robin Fell");
  await page.getByLabel("Title").fill("Fell runner");
  await page.getByRole("button", { name: "Add an address" }).click();
  await page.getByLabel("Address line").fill("1 Fell Road");
  await page.getByLabel("Apartment or suite").fill("Flat 3");
  await page.getByLabel("City").fill("Keswick");
  await page.getByLabel("Country code").fill("gb");
  await page.getByRole("button", { name: "Add a phone number" }).click();
  await page.getByRole("textbox", { name: "Phone 1" }).fill("+44 17687 12345");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status")).toContainText("Your profile is saved.");
  await expect(page.getByTestId("member-name")).toHaveText("Robin Fell");

  await page.reload();
  await expect(page.getByLabel("Nickname")).toHaveValue("Robin Fell");
  await expect(page.getByLabel("Address line")).toHaveValue("1 Fell Road");
  await expect(page.getByLabel("Apartment or suite")).toHaveValue("Flat 3");
  await expect(page.getByLabel("Country code")).toHaveValue("GB");
  await expect(page.getByRole("textbox", { name: "Phone 1" })).toHaveValue("+44 17687 12345");

  // A bad value is refused next to its field, and nothing typed is lost.
  await page.getByLabel("Country code").fill("Britain");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Use the two-letter country code")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("Fell runner");
  await page.reload();

  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("second-heather-way-2");
  await page.getByLabel("New password again").fill("second-heather-way-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("That is not your current password.")).toBeVisible();
  await page.getByLabel("Current password").fill("first-granite-path-1");
  await page.getByLabel("New password", { exact: true }).fill("second-heather-way-2");
  await page.getByLabel("New password again").fill("second-heather-way-2");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password is changed.");

  await page.getByTestId("member-name").click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  await logIn(page, email, "second-heather-way-2");
  await expect(page.getByTestId("member-name")).toHaveText("Robin Fell");

  await page.goto("/account");
  await page.getByRole("button", { name: "Delete my account…" }).click();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page.getByText("Tick the box to confirm.")).toBeVisible();
  await page.getByLabel("I understand that this cannot be undone.").check();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await expect(page.getByRole("status").filter({ hasText: "Your account has been deleted" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();

  await logIn(page, email, "second-heather-way-2");
  await expect(page.getByText("That e-mail address and password do not match")).toBeVisible();
});

test("a visitor is sent to log in from /account and the public profile of a demo member shows only public fields", async ({ page }) => {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?returnTo=%2Faccount$/);
  const profile = await page.goto("/members/rowan");
  expect(profile?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Rowan" })).toBeVisible();
  await expect(page.getByText("rowan@ridgeline.example")).toHaveCount(0);
  expect((await page.goto("/members/nobody-here"))?.status()).toBe(404);
});
