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

test("the session cookie is HttpOnly, sealed and not readable JSON", async ({ page, context }) => {
  await page.goto("/trails");
  const cookie = (await context.cookies()).find((c) => c.name === "wms_session");
  expect(cookie).toBeDefined();
  expect(cookie!.httpOnly).toBe(true);
  expect(cookie!.sameSite).toBe("Lax");
  expect(cookie!.value.startsWith("Fe26.2*")).toBe(true);
  expect(() => JSON.parse(decodeURIComponent(cookie!.value))).toThrow();
  expect(cookie!.value).not.toMatch(/OAT\.|ORT\./);
  expect(await page.evaluate(() => document.cookie)).not.toContain("wms_session");
});

test("a second page view within the token lifetime makes no token call", async ({ page }) => {
  await page.goto("/trails");
  const before = await platformRequests();
  await page.goto("/trails?page=2");
  await expect(page.getByTestId("trail-card").first()).toBeVisible();
  const after = await platformRequests();
  expect(after["POST /oauth2/token"] ?? 0).toBe(before["POST /oauth2/token"] ?? 0);
  expect(after["GET /wix-data/v2/items/query"]).toBeGreaterThan(before["GET /wix-data/v2/items/query"]);
});

test("a malformed page number is a clear 404, not an error", async ({ page }) => {
  const response = await page.goto("/trails?page=abc");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
