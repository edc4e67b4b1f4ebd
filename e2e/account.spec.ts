import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { holdPageScripts } from "./hydration";
import { screenshot } from "./screenshots";

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
  const address = page.getByRole("group", { name: "Address 1" });
  await address.getByLabel("Street address").fill("1 Fell Road");
  await address.getByLabel("Apartment, suite or floor").fill("Flat 3");
  await address.getByLabel("Town or city").fill("Keswick");
  await address.getByLabel("Postal code").fill("CA12 5AB");
  await page.getByRole("button", { name: "Add a phone number" }).click();
  await page.getByRole("textbox", { name: "Phone 1" }).fill("+44 17687 12345");

  // An address without its country is refused next to the list, which takes the focus; nothing typed is lost.
  const country = address.getByLabel("Country", { exact: true });
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(address.getByText("Choose the country of this address.")).toBeVisible();
  await expect(country).toBeFocused();
  await expect(country).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Title")).toHaveValue("Fell runner");
  await expect(address.getByLabel("Street address")).toHaveValue("1 Fell Road");
  await screenshot(page, "account-address-missing-country", address);

  // The country is chosen by its name; the form sends its code.
  await country.selectOption({ label: "United Kingdom" });
  await expect(country).toHaveValue("GB");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status")).toContainText("Your profile is saved.");
  await expect(page.getByTestId("member-name")).toHaveText("Robin Fell");

  await page.reload();
  await expect(page.getByLabel("Nickname")).toHaveValue("Robin Fell");
  await expect(address.getByLabel("Street address")).toHaveValue("1 Fell Road");
  await expect(address.getByLabel("Apartment, suite or floor")).toHaveValue("Flat 3");
  await expect(address.getByLabel("Town or city")).toHaveValue("Keswick");
  await expect(address.getByLabel("Postal code")).toHaveValue("CA12 5AB");
  await expect(country).toHaveValue("GB");
  await expect(country.locator("option:checked")).toHaveText("United Kingdom");
  // Each part is one the browser's autofill knows, in a section of this address's own.
  await expect(address.getByLabel("Street address")).toHaveAttribute("autocomplete", "section-address1 address-line1");
  await expect(country).toHaveAttribute("autocomplete", "section-address1 country");
  await expect(page.getByRole("textbox", { name: "Phone 1" })).toHaveValue("+44 17687 12345");
  await screenshot(page, "account-address-form", address);
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

  await logOut(page);
  await logIn(page, email, "second-heather-way-2");
  await expect(page.getByTestId("member-name")).toHaveText("Robin Fell");

  await page.goto("/account");
  await page.locator("summary", { hasText: "Delete my account…" }).click();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page.getByText("Tick the box to confirm.")).toBeVisible();
  await page.getByLabel("I understand that this cannot be undone.").check();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/#top`);
  await expect(page.getByRole("status").filter({ hasText: "Your account has been deleted" })).toBeVisible();
  await expect(page.getByTestId("site-notice")).toBeFocused();
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

test("focus goes to what changed: a new phone or address row, and a form's answer low on the page", async ({ page }) => {
  await registerAndLand(page, newEmail(), "first-granite-path-1");
  // A new row's first field, not the "Add" button pressed below it.
  await page.getByRole("button", { name: "Add a phone number" }).click();
  await expect(page.getByRole("textbox", { name: "Phone 1" })).toBeFocused();
  await page.getByRole("button", { name: "Add an address" }).click();
  await expect(page.getByRole("group", { name: "Address 1" }).getByLabel("Street address")).toBeFocused();
  await page.getByRole("button", { name: "Add a phone number" }).click();
  await expect(page.getByRole("textbox", { name: "Phone 2" })).toBeFocused();

  // The password form, low on the page: its answer has the focus, the refusal's field, then the confirmation.
  const passwordSection = page.getByRole("region", { name: "Password" });
  await passwordSection.getByLabel("Current password").fill("not-the-password");
  await passwordSection.getByLabel("New password", { exact: true }).fill("second-granite-path-2");
  await passwordSection.getByLabel("New password again").fill("second-granite-path-2");
  await passwordSection.getByRole("button", { name: "Change password" }).click();
  await expect(passwordSection.getByLabel("Current password")).toBeFocused();
  await passwordSection.getByLabel("Current password").fill("first-granite-path-1");
  await passwordSection.getByLabel("New password", { exact: true }).fill("second-granite-path-2");
  await passwordSection.getByLabel("New password again").fill("second-granite-path-2");
  await passwordSection.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("#password-reply")).toBeFocused();
  await expect(page.locator("#password-reply")).toContainText("Your password is changed.");
});

test("a deletion refused before the page's script ran comes back at its form, whose field takes the focus once the script runs", async ({ page }) => {
  await registerAndLand(page, newEmail(), "first-granite-path-1");
  const release = await holdPageScripts(page);
  await page.goto("/account", { waitUntil: "domcontentloaded" });
  await page.locator("summary", { hasText: "Delete my account…" }).click();
  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account#delete-account-reply`);
  const confirm = page.getByLabel("I understand that this cannot be undone.");
  await expect(confirm).toBeInViewport();
  release();
  await expect(confirm).toBeFocused();
});
