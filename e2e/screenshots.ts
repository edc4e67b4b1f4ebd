import type { Locator, Page } from "@playwright/test";

/**
 * With E2E_SCREENSHOTS=1, keeps the screen the test is on at a phone's and a laptop's width in
 * docs/screenshots/ (docs/member-experience.md shows them); otherwise does nothing, so an
 * ordinary run leaves the tracked pictures alone.
 */
export async function screenshot(page: Page, name: string, subject?: Locator): Promise<void> {
  if (!process.env.E2E_SCREENSHOTS) return;
  const before = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    // A new width moves what is on screen; the subject comes back to the top.
    await subject?.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: `docs/screenshots/${name}-${width}.png` });
  }
  if (before) await page.setViewportSize(before);
}
