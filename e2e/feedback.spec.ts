import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { SITE_PAGES } from "../lib/auth/routes";
import { e2e } from "../playwright.config";
import { logOut } from "./header-menus";
import { screenshot } from "./screenshots";
import { logInWithForm } from "./site-pages";

const notice = (page: Page) => page.getByTestId("site-notice");
const scrollTop = (page: Page) => page.evaluate(() => window.scrollY);

test("a login and a logout are confirmed in an announced status that has the focus, once", async ({ page }) => {
  await logInWithForm(page, `${SITE_PAGES.login}?returnTo=%2Ftrails`);
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails`);
  await expect(page.getByRole("status")).toHaveText("You are logged in. Welcome back.");
  await expect(notice(page)).toBeFocused();
  // Focused, it gets no frame round the width of the page.
  await expect(notice(page)).toHaveCSS("box-shadow", "none");
  await expect(notice(page)).toHaveCSS("outline-style", "none");
  await screenshot(page, "notice-logged-in");
  // Once: the next page, reloaded or reached by a link, does not repeat it.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Trails" })).toBeVisible();
  await expect(notice(page)).toHaveCount(0);

  await logOut(page);
  await expect(page.getByRole("status")).toHaveText("You are logged out. See you on the trail.");
  await expect(notice(page)).toBeFocused();
  // Moving on within the site, the notice stays with the page it came with.
  await page.getByRole("contentinfo").getByRole("link", { name: "Regions" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/regions`);
  await expect(notice(page)).toHaveCount(0);
});

test("deleting a report replaces the last confirmation and takes the focus there", async ({ page }) => {
  await logInWithForm(page, `${SITE_PAGES.login}?returnTo=%2Ftrails%2Fold-growth`);
  const section = page.getByRole("region", { name: "Trail reports" });
  const title = `Sand in the boots ${Date.now()}`;
  await section.getByLabel("Title").fill(title);
  await section.getByLabel("Your report").fill("Windy on the crest; the path drifts over by afternoon.");
  await section.getByRole("button", { name: "Publish report" }).click();
  await expect(section.getByRole("status")).toHaveText("Thank you: your report is published.");
  await expect(section.getByRole("status")).toBeFocused();

  const mine = section.getByRole("article", { name: title });
  const opener = mine.locator("summary", { hasText: /^Delete/ });
  // Opened, the way back reads "Cancel" and closes the confirmation, the report kept.
  await opener.click();
  await expect(mine.getByRole("button", { name: "Yes, delete it" })).toBeVisible();
  await expect(opener).toHaveText(`Cancel deleting “${title}”`, { useInnerText: true });
  await opener.click();
  await expect(mine.getByRole("button", { name: "Yes, delete it" })).toBeHidden();
  await expect(opener).toHaveText(`Delete “${title}”`, { useInnerText: true });
  await opener.click();
  await mine.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(mine).toHaveCount(0);
  await expect(section.getByRole("status")).toHaveText("Your report is deleted.");
  await expect(section.getByRole("status")).toBeFocused();
  await screenshot(page, "report-deleted", section);
});

test("deleting the account keeps the focus in its panel, then lands at the top of the home page with the notice in view and focused", async ({ page }) => {
  const email = `feedback-${Date.now()}@ridgeline.example`;
  await page.goto(`${SITE_PAGES.register}?returnTo=%2Faccount`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("long-shadow-ridge-5");
  await page.getByLabel("Nickname").fill("Heather");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/account`);
  await expect(page.getByRole("status")).toHaveText("Welcome to the club: your account is ready and you are logged in.");
  await expect(notice(page)).toBeFocused();

  // A native disclosure: its button reads "Keep my account" while the confirmation is open.
  const opener = page.locator("summary", { hasText: "Delete my account…" });
  await opener.click();
  // Into the confirmation: its first choice, whether the trail reports go too.
  await expect(page.getByLabel("Also remove my trail reports.")).toBeFocused();
  await page.locator("summary", { hasText: "Keep my account" }).click();
  await expect(opener).toBeFocused();
  await expect(page.getByLabel("I understand that this cannot be undone.")).toBeHidden();
  await opener.click();
  await page.getByLabel("I understand that this cannot be undone.").check();
  await screenshot(page, "delete-account-panel", page.getByRole("region", { name: "Delete account" }));
  expect(await scrollTop(page)).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/#top`);
  await expect(page.getByRole("status")).toHaveText("Your account has been deleted and you are logged out. Thank you for walking with us.");
  await expect(notice(page)).toBeFocused();
  await expect(notice(page)).toBeInViewport();
  await expect.poll(() => scrollTop(page)).toBe(0);
  await screenshot(page, "notice-account-deleted");
});
