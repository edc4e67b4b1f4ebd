import { expect, type Locator, type Page } from "@playwright/test";

/*
 * The header's menus are disclosures: a `details` opened by its `summary`. Playwright gives a
 * summary no role, so each is found by its text: the sections menu's visible "Menu", the
 * account menu's "Account menu for <name>" (partly visible, partly for screen readers).
 */

/** The summary of the sections menu shown on narrow screens. */
export const sectionsMenuSummary = (page: Page) => page.locator("summary").filter({ hasText: /^\W*Menu$/ });

/** The summary of the signed-in member's account menu. */
export const accountMenuSummary = (page: Page) => page.locator("summary").filter({ hasText: /Account menu for / });

/** The `details` a summary opens and closes. */
export const menuOf = (summary: Locator) => summary.locator("xpath=..");

/** Opens the menu by a click on its summary, and gives the open `details`. */
export async function openMenu(summary: Locator): Promise<Locator> {
  await summary.click();
  const menu = menuOf(summary);
  await expect(menu).toHaveAttribute("open", "");
  return menu;
}

/** Logs out from the account menu and waits until the header offers to log in again. */
export async function logOut(page: Page): Promise<void> {
  const menu = await openMenu(accountMenuSummary(page));
  await menu.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
}
