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

/**
 * The optimiser's images this load downloaded that nothing on the page shows (a preload the page did
 * not use, say). Widths the tab already held are not counted: they cost nothing, and Chromium does not warn.
 */
async function wastedImages(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = new Set([...document.images].map((image) => image.currentSrc).concat([...document.querySelectorAll("video")].map((video) => video.poster)));
    return (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .filter((entry) => entry.transferSize > 0 && /\/_next\/image\?/.test(entry.name) && !shown.has(entry.name))
      .map((entry) => `${entry.initiatorType} ${entry.name}`);
  });
}

// Summit Loop and Goat Pass show ridge.jpg as their main picture, and Summit Loop's gallery has a
// video whose still is ridge.jpg too. A still of the optimiser's 2x width (1920 px) was a denser
// width of the main picture's own srcset: once the tab had it (loaded first, or from an earlier
// page), Chromium's <img> showed it, and the width the head's preload had fetched went unused.
// One tab for every load, as a visitor going from one trail to the next (docs/public-site.md).
for (const javaScriptEnabled of [true, false])
  test(`the trail pages that show their picture twice use their preload, at 390 and 1280 px, with JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({
    browser,
    visitorAddress,
  }) => {
    test.slow();
    const context = await browser.newContext({ baseURL: e2e.siteUrl, javaScriptEnabled, extraHTTPHeaders: { "x-forwarded-for": visitorAddress } });
    const page = await context.newPage();
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
          // The browser warns a few seconds after the load event.
          await page.waitForTimeout(3500);
          expect({ wasted: await wastedImages(page), warnings }, `${path} at ${width} px`).toEqual({ wasted: [], warnings: [] });
          // The main picture is still the first thing fetched.
          const main = page.getByRole("main").locator("img").first();
          await expect(main).toHaveAttribute("fetchpriority", "high");
          await expect(main).not.toHaveAttribute("loading", "lazy");
        }
    await context.close();
  });
