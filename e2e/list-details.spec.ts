import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { e2e } from "../playwright.config";
import { hydrated } from "./hydration";

// Rough edges of the public lists and item pages (issue 38, items 18–20).

test("the sort loads the list only when chosen: arrow keys step through it without a navigation, Enter or leaving it loads once", async ({ page }) => {
  await page.goto("/trails");
  const form = await hydrated(page.getByRole("form", { name: "Search trails" }));
  // The links in view prefetch once the page has loaded: those are not the select's doing.
  await page.waitForLoadState("networkidle");
  const flights: Array<"navigation" | "prefetch"> = [];
  page.on("request", (request) => {
    const headers = request.headers();
    if (headers.rsc === "1") flights.push(headers["next-router-prefetch"] ? "prefetch" : "navigation");
  });
  const sort = form.getByLabel("Sort");
  await sort.focus();
  // Slowly, as a person reading each choice: no pause counts as a choice.
  for (let step = 0; step < 3; step += 1) {
    await page.keyboard.press("ArrowDown");
    await page.waitForTimeout(1000);
  }
  expect(flights).toEqual([]);
  expect(page.url()).toBe(`${e2e.siteUrl}/trails`);
  const chosen = await sort.inputValue();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${e2e.siteUrl}/trails?sort=${chosen}`);
  await expect(page.getByLabel("Sort")).toBeFocused();
  expect(flights.filter((flight) => flight === "navigation")).toHaveLength(1);

  // Stepping, then leaving the select with Tab: one navigation, to the choice it was left on.
  await hydrated(page.getByRole("form", { name: "Search trails" }));
  await page.waitForLoadState("networkidle");
  flights.length = 0;
  await page.getByLabel("Sort").focus();
  await page.keyboard.press("ArrowUp");
  await page.waitForTimeout(1000);
  expect(flights.filter((flight) => flight === "navigation")).toEqual([]);
  const left = await page.getByLabel("Sort").inputValue();
  await page.keyboard.press("Tab");
  await expect(page).toHaveURL(left === "name" ? `${e2e.siteUrl}/trails` : `${e2e.siteUrl}/trails?sort=${left}`);
  expect(flights.filter((flight) => flight === "navigation")).toHaveLength(1);
});

test("a story's date is a day: the journal and a story show no clock time", async ({ page }) => {
  await page.goto("/journal");
  const listed = await page.getByRole("main").locator("time").allTextContents();
  expect(listed.length).toBeGreaterThan(0);
  for (const text of listed) expect(text).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}$/);
  await page.goto("/journal/ten-essentials-revisited");
  await expect(page.getByRole("complementary", { name: "Details" })).toContainText("Published2 October 2026");
  await expect(page.getByRole("complementary", { name: "Details" })).not.toContainText(/\d\d:\d\d/);
});

/** The images the page preloads that none of its images shows: each a download the browser warns about. */
async function unusedPreloads(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = new Set([...document.images].map((image) => image.currentSrc).filter(Boolean));
    return [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')]
      .map((link) => {
        // The candidate the browser chose for this preload is one of its srcset's; any of them shown counts as used.
        const candidates = (link.imageSrcset || link.href).split(",").map((entry) => new URL(entry.trim().split(/\s+/)[0], location.href).href);
        return candidates.some((candidate) => shown.has(candidate)) ? "" : link.imageSrcset || link.href;
      })
      .filter(Boolean);
  });
}

// Summit Loop and Goat Pass have their main picture (ridge.jpg) in a gallery tile and a related trail's card too: shown
// there a second time, lazily, it made Chromium warn at 1280 px, on most loads, that the main picture's preload went unused.
test("the trail pages that show their picture twice preload nothing unused, and their main picture still loads first", async ({ page }) => {
  test.slow();
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (/preloaded using link preload but not used/.test(message.text())) warnings.push(`${page.viewportSize()?.width} px ${page.url()}: ${message.text()}`);
  });
  for (let round = 0; round < 3; round += 1)
    for (const width of [390, 1280])
      for (const path of ["/trails/summit-loop", "/trails/goat-pass"]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(path);
        await page.waitForLoadState("load");
        expect(await unusedPreloads(page), `${path} at ${width} px`).toEqual([]);
        const main = page.getByRole("main").locator("img").first();
        await expect(main).toHaveAttribute("fetchpriority", "high");
        await expect(main).not.toHaveAttribute("loading", "lazy");
        // The browser warns a few seconds after the load event.
        await page.waitForTimeout(3500);
      }
  expect(warnings).toEqual([]);
});
