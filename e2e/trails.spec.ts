import { expect, test } from "@playwright/test";
import { platformRequests } from "./platform";

test("a visitor browses from the home page to the seeded trails", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Find your next trail." })).toBeVisible();
  await page.getByRole("link", { name: "Browse trails" }).click();
  await expect(page).toHaveURL(/\/trails$/);
  await expect(page.getByRole("heading", { name: "Trails", level: 1 })).toBeVisible();
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
