import { expect, test } from "@playwright/test";
import { platformRequests } from "./platform";

test("a visitor browses from the home page to the seeded trails", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Find your next trail." })).toBeVisible();
  await page.getByRole("link", { name: "Browse trails" }).click();
  await expect(page).toHaveURL(/\/trails$/);
  await expect(page.getByRole("heading", { name: "Trails", level: 1 })).toBeVisible();
  const cards = page.getByTestId("trail-card");
  await expect(cards).toHaveCount(9);
  // Shortest first, with the region resolved from the reference field.
  await expect(cards.first()).toContainText("Arch Spur");
  await expect(cards.first()).toContainText("High Desert");
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "2" }).click();
  await expect(page).toHaveURL(/\/trails\?page=2$/);
  await expect(cards).toHaveCount(6);
  await expect(cards.last()).toContainText("Goat Pass Traverse");
});

test("browsing creates no session and costs no token call: public reads use the server's own visitor", async ({ page, context }) => {
  // The first view may warm the server's shared visitor token.
  await page.goto("/trails");
  const before = await platformRequests();
  await page.goto("/");
  await page.goto("/trails?page=2");
  await expect(page.getByTestId("trail-card").first()).toBeVisible();
  const after = await platformRequests();
  expect(after["POST /oauth2/token"] ?? 0).toBe(before["POST /oauth2/token"] ?? 0);
  expect(after["GET /wix-data/v2/items/query"]).toBeGreaterThan(before["GET /wix-data/v2/items/query"]);
  expect((await context.cookies()).map((c) => c.name)).not.toContain("wms_session");
});

test("a malformed page number is a clear 404, not an error", async ({ page }) => {
  const response = await page.goto("/trails?page=abc");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
