import { expect, test } from "../test";
import { e2e } from "../../playwright.config";
import { accountMenuSummary, openMenu, sectionsMenuSummary } from "../header-menus";
import { logInWithForm } from "../site-pages";

test.use({ viewport: { width: 390, height: 844 } });

test("on a phone the sections menu opens, its links lead on, and it marks the current section", async ({ page }) => {
  await page.goto("/");
  await (await openMenu(sectionsMenuSummary(page))).getByRole("link", { name: "Regions" }).click();
  await expect(page).toHaveURL(/\/regions$/);
  await expect(page.getByRole("heading", { level: 1, name: "Regions" })).toBeVisible();
  await expect((await openMenu(sectionsMenuSummary(page))).locator("[aria-current=page]")).toHaveText(["Regions"]);
});

test("a member opens the account menu, one header menu at a time, and logs out", async ({ page }) => {
  await logInWithForm(page);
  const sections = await openMenu(sectionsMenuSummary(page));
  const account = await openMenu(accountMenuSummary(page));
  await expect(sections).not.toHaveAttribute("open");
  await account.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await expect(page.getByRole("link", { name: "Log in" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("You are logged out. See you on the trail.");
  await expect(accountMenuSummary(page)).toHaveCount(0);
});
