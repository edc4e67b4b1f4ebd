import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { e2e } from "../playwright.config";
import { hydrated } from "./hydration";
import { createPublicMembers } from "./platform";
import { screenshot } from "./screenshots";

// Finding a member (issue 38, item 11): a search by name, a count and pages, and members without
// a nickname told apart by when they joined.

async function expectAccessible(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  expect(violations.map((violation) => `${what}: ${violation.id} (${violation.nodes.length}) ${violation.help}`)).toEqual([]);
}

const cards = (page: Page) => page.getByRole("main").getByRole("listitem");

test("the directory finds members by name, counts them and pages the answer; a search with no match says so", async ({ page }) => {
  const tag = `Pacer${Date.now().toString(36)}`;
  // 26 matches: one page of 24, and a second of 2.
  await createPublicMembers(Array.from({ length: 26 }, (_, index) => `${tag} ${String(index + 1).padStart(2, "0")}`));

  await page.goto("/members");
  await expect(page.getByRole("heading", { name: "All members" })).toBeVisible();
  await expect(page.getByText(/^\d+ members: showing 1–24, page 1 of \d+\.$/)).toBeVisible();
  const search = await hydrated(page.getByRole("search", { name: "Find a member" }));
  await search.getByLabel("Name").fill(tag.toLowerCase());
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/members?q=${tag.toLowerCase()}`);
  await expect(page.getByText(`26 members named “${tag.toLowerCase()}”: showing 1–24, page 1 of 2.`)).toBeVisible();
  await expect(cards(page)).toHaveCount(24);
  await expect(cards(page).first()).toContainText(tag);
  await expectAccessible(page, "the directory's search");
  await screenshot(page, "members-directory-search", page.getByRole("search", { name: "Find a member" }));

  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/members?q=${tag.toLowerCase()}&page=2`);
  await expect(page.getByText(`26 members named “${tag.toLowerCase()}”: showing 25–26, page 2 of 2.`)).toBeVisible();
  await expect(cards(page)).toHaveCount(2);
  await expect(page.getByLabel("Name")).toHaveValue(tag.toLowerCase());

  await page.getByLabel("Name").fill("nobody-by-this-name");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/members?q=nobody-by-this-name`);
  await expect(page.getByText("No member's name contains “nobody-by-this-name”.")).toBeVisible();
  await expect(cards(page)).toHaveCount(0);
  await expectAccessible(page, "the directory's search with no match");
  await screenshot(page, "members-directory-no-match", page.getByRole("search", { name: "Find a member" }));
  await page.getByRole("link", { name: "Show all members" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/members`);

  // The URL is checked: a page that is not a page is not found, a search past its last page too.
  expect((await page.goto("/members?page=abc"))?.status()).toBe(404);
  expect((await page.goto(`/members?q=${tag}&page=3`))?.status()).toBe(404);
});

test("members who chose no nickname are told apart by when they joined, and a search for a name leaves them out", async ({ page }) => {
  await createPublicMembers([undefined, undefined]);
  await page.goto("/members?q=member");
  // "Member" is the platform's name for none: searching it does not list every unnamed member.
  await expect(page.getByRole("link", { name: /^Member Joined/ })).toHaveCount(0);
  const today = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date());
  for (let page_ = 1; ; page_ += 1) {
    await page.goto(page_ === 1 ? "/members" : `/members?page=${page_}`);
    if ((await page.getByRole("link", { name: `Member Joined ${today}` }).count()) > 0) break;
    expect(page_, "the unnamed members are listed").toBeLessThan(10);
  }
  await expect(page.getByRole("link", { name: `Member Joined ${today}` }).first()).toBeVisible();
  // No card is only "Member": each says when its member joined.
  await expect(page.getByRole("link", { name: "Member", exact: true })).toHaveCount(0);
  await expectAccessible(page, "the directory with unnamed members");
  await screenshot(page, "members-directory-unnamed", page.getByRole("link", { name: `Member Joined ${today}` }).first());
});
