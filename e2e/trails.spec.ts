import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { demoMember, platformRequests } from "./platform";
import { screenshot } from "./screenshots";
import { fillLoginForm } from "./site-pages";

const summary = (page: Page) => page.getByTestId("report-summary");

test("a visitor browses from the home page to the seeded trails", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Find your next trail." })).toBeVisible();
  await page.getByRole("link", { name: "Browse trails" }).click();
  await expect(page).toHaveURL(/\/trails$/);
  await expect(page.getByRole("heading", { name: "Trails", level: 1 })).toBeVisible();
  // One heading names the page; the results' own heading says what they are.
  await expect(page.getByRole("heading", { name: "Trails", exact: true })).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 2, name: "All trails" })).toBeVisible();
  const cards = page.getByTestId("item-card");
  await expect(cards).toHaveCount(9);
  // Shortest first, with the region resolved from the reference field.
  await expect(cards.first()).toContainText("Arch Spur");
  await expect(cards.first()).toContainText("High Desert");
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Page 2" }).click();
  await expect(page).toHaveURL(/\/trails\?page=2$/);
  await expect(cards).toHaveCount(6);
  await expect(cards.last()).toContainText("Goat Pass Traverse");
});

test("browsing creates no session and costs no token call per view: public reads use the server's own visitor", async ({ page, context }) => {
  // The first view may warm the server's shared visitor token.
  await page.goto("/trails");
  const before = await platformRequests();
  // Searches nobody made before cannot come from the server's cache: each reads the platform.
  for (const word of ["creek", "lake", "ridge", "coast", "forest", "desert"]) {
    await page.goto(`/trails?q=${encodeURIComponent(`${word} ${Date.now()}`)}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  const after = await platformRequests();
  expect(after["GET /wix-data/v2/items/query"] - before["GET /wix-data/v2/items/query"]).toBeGreaterThanOrEqual(6);
  // Six views, no grant of their own. The server's visitor renews itself on its own clock (every
  // few seconds with the tests' 20 s tokens), which may fall in this window once.
  expect((after["POST /oauth2/token"] ?? 0) - (before["POST /oauth2/token"] ?? 0)).toBeLessThanOrEqual(1);
  expect((await context.cookies()).map((c) => c.name)).not.toContain("wms_session");
});

test("a malformed page number is a clear 404, not an error", async ({ page }) => {
  const response = await page.goto("/trails?page=abc");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("searching a region's name finds its trails, and the search shows as a chip that clears it", async ({ page }) => {
  await page.goto("/trails");
  await page.getByRole("searchbox", { name: "Search" }).fill("Lake Country");
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page).toHaveURL(/\/trails\?q=Lake\+Country$/);
  const cards = page.getByTestId("item-card");
  // No trail names the region in its own text: these are found through their region.
  await expect(cards).toHaveCount(3);
  for (const title of ["Island Causeway", "Ridge to Lake", "Shoreline Loop"]) await expect(cards.filter({ hasText: title })).toContainText("Lake Country");
  const chip = page.getByRole("list", { name: "In use" }).getByRole("link", { name: "Remove “Lake Country”" });
  await expect(chip).toHaveText(/“Lake Country”/);
  await chip.click();
  await expect(page).toHaveURL(/\/trails$/);
  await expect(cards).toHaveCount(9);
});

test("a trail's page offers directions to its trailhead as an ordinary outbound link; a trail without a trailhead location has none", async ({ page }) => {
  await page.goto("/trails/summit-loop");
  const directions = page.getByRole("link", { name: "Directions to the trailhead" });
  await expect(directions).toHaveAttribute("href", "https://www.google.com/maps/dir/?api=1&destination=38.8571%2C-106.1184");
  await expect(directions).toHaveAttribute("rel", /\bnoopener\b/);
  await expect(directions).not.toHaveAttribute("target");
  await expect(page.getByText("(Lookout Road trailhead, Alder Springs, CO)")).toBeVisible();
  // The place is in the details too, with the map link addresses have.
  await expect(page.getByRole("complementary", { name: "Details" })).toContainText("Lookout Road trailhead, Alder Springs, CO");

  // The top of a trail with a report: its rating and count, then the directions.
  await page.goto("/trails/mirror-lakes");
  // Other tests write reports here too, so the figures are whatever they have made them.
  await expect(summary(page).getByRole("img", { name: /^Average rating [1-5]\.\d of 5$/ })).toBeVisible();
  await expect(summary(page).getByRole("link", { name: /^\d+ reports?$/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Directions to the trailhead" })).toBeVisible();
  await screenshot(page, "trail-top");

  await page.goto("/trails/arch-spur");
  await expect(page.getByRole("heading", { level: 1, name: "Arch Spur" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Directions to the trailhead" })).toHaveCount(0);
});

test("a trail's rating summary leads a visitor to log in and back to the report form, and counts the report they write", async ({ page }) => {
  const path = "/trails/ridge-to-lake";
  await page.goto(path);
  await expect(summary(page)).toContainText("No reports yet");
  await expect(summary(page).getByRole("img")).toHaveCount(0);
  await expect(summary(page).getByRole("link", { name: "No reports yet" })).toHaveAttribute("href", "#member-reports");

  await summary(page).getByRole("link", { name: "Write a report" }).click();
  await expect(page).toHaveURL(/\/login\?returnTo=%2Ftrails%2Fridge-to-lake%23write-report$/);
  await fillLoginForm(page, demoMember);
  await expect(page).toHaveURL(new RegExp(`${path}#write-report$`));
  await expect(page.getByRole("heading", { name: "Write a report" })).toBeInViewport();
  // A member's "Write a report" is the form further down the same page.
  await expect(summary(page).getByRole("link", { name: "Write a report" })).toHaveAttribute("href", "#write-report");

  const form = page.getByRole("region", { name: "Trail reports" });
  const title = `Ferry was late ${Date.now()}`;
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Rating (1 to 5)").fill("4");
  await form.getByLabel("Your report").fill("Good path down through the pines; the ferry ran forty minutes late.");
  await form.getByRole("button", { name: "Publish report" }).click();
  await expect(form.getByRole("status")).toHaveText("Thank you: your report is published.");
  // The summary is a cached read under the reports' tag: the new report shows at once.
  await expect(summary(page).getByRole("img", { name: "Average rating 4.0 of 5" })).toBeVisible();
  await expect(summary(page).getByRole("link", { name: "1 report" })).toBeVisible();

  // Deleting it takes the trail back to no reports (and leaves it as it was for the next run).
  const mine = form.getByRole("article", { name: title });
  await mine.locator("summary", { hasText: /^Delete/ }).click();
  await mine.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(form.getByRole("status")).toHaveText("Your report is deleted.");
  await expect(summary(page).getByRole("link", { name: "No reports yet" })).toBeVisible();
  await expect(summary(page).getByRole("img")).toHaveCount(0);
});
