import { expect, test } from "../test";
import { e2e } from "../../playwright.config";
import { accountMenuSummary, openMenu } from "../header-menus";
import { secondDemoMember } from "../platform";
import { logInWithForm } from "../site-pages";

test("without JavaScript a member's pages from the template show their name and menu, and logging out works", async ({ page }) => {
  await logInWithForm(page, undefined, secondDemoMember);
  for (const path of ["/trails", "/journal", "/members", "/"]) {
    // The first view may renew the short-lived session (Next.js answers it); the next comes from the template.
    await page.goto(path);
    const response = await page.goto(path);
    expect(response?.headers()["x-cache"], path).toMatch(/^(HIT|MISS|STALE)$/);
    await expect(page.getByTestId("member-name"), path).toHaveText(secondDemoMember.name);
  }
  const menu = await openMenu(accountMenuSummary(page));
  await expect(menu.getByRole("link", { name: "Account" })).toBeVisible();
  await menu.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/`);
  await expect(page.getByRole("status")).toHaveText("You are logged out. See you on the trail.");
  await expect(accountMenuSummary(page)).toHaveCount(0);
  // The account is the member's own, from Next.js, and needs a login again.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login/);
});
