import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { accountMenuSummary, openMenu } from "./header-menus";
import { logInWithForm, publicPages, signedInPages } from "./site-pages";

/** The narrowest phones still in use: every page fits 320 px, signed in or out, menus open or closed. */
const NARROW = { width: 320, height: 640 };

async function expectNoSidewaysScroll(page: Page, paths: string[]) {
  for (const path of paths) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
  }
}

test("every page fits a 320 px screen for a visitor", async ({ page }) => {
  await page.setViewportSize(NARROW);
  await expectNoSidewaysScroll(page, publicPages);
});

test("every page fits a 320 px screen for a member, and the member menu opens without shifting the page", async ({ page }) => {
  await page.setViewportSize(NARROW);
  await logInWithForm(page);
  await expectNoSidewaysScroll(page, signedInPages);
  await page.goto("/");
  const summary = accountMenuSummary(page);
  const before = await summary.boundingBox();
  await expect((await openMenu(summary)).getByRole("button", { name: "Log out" })).toBeVisible();
  expect(await summary.boundingBox()).toEqual(before);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test("at 320 px the header's 'Log in' keeps to one line and every sort reads whole", async ({ page }) => {
  await page.setViewportSize(NARROW);
  for (const path of ["/trails", "/journal", "/outings"]) {
    await page.goto(path);
    const login = page.getByRole("banner").getByRole("link", { name: "Log in" });
    // One line of small text and its padding: two lines would be some 56 px.
    expect((await login.boundingBox())!.height, `${path}: "Log in" wraps`).toBeLessThan(40);
    const cut = await page.getByLabel("Sort").evaluate((select: HTMLSelectElement) => {
      const style = getComputedStyle(select);
      const probe = document.createElement("span");
      Object.assign(probe.style, { font: style.font, whiteSpace: "pre", position: "absolute" });
      document.body.append(probe);
      // Each choice's words, the select's padding, and the room its arrow takes.
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
      const tooWide = [...select.options].filter((option) => {
        probe.textContent = option.text;
        return probe.getBoundingClientRect().width > room;
      });
      probe.remove();
      return tooWide.map((option) => option.text);
    });
    expect(cut, `${path}: sorts cut short`).toEqual([]);
  }
});
