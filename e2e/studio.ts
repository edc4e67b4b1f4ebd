import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { e2e } from "../playwright.config";
import { watchPolicy } from "./policy-watch";

/** Shared by the Studio's browser tests (e2e/studio-*.spec.ts): its addresses and the checks every Studio page passes. */

export const studioUrl = (path = "") => `${e2e.platformUrl}/_local/studio${path}`;

/** Opens a Studio page and waits for its area's heading (the app renders in the browser). */
export async function openStudio(page: Page, path: string, heading: string | RegExp) {
  await page.goto(studioUrl(path));
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
}

/** Watches for CSP refusals from now on; call the result at the end of the test to assert there were none. */
export async function noPolicyRefusals(page: Page): Promise<() => void> {
  const refusals = await watchPolicy(page);
  return () => expect(refusals()).toEqual([]);
}

/** axe at WCAG 2.1 AA plus best practices, and no sideways scroll. */
export async function expectAccessible(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(violations.map((violation) => `${what}: ${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${what} scrolls sideways`).toBe(true);
}
