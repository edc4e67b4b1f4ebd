import { expect, test } from "../test";
import { e2e } from "../../playwright.config";
import { createPublicMembers } from "../platform";

// The directory's search and pages are a GET form and links: the same answers with JavaScript off.

test("without JavaScript the directory's search finds members by name, counts them and pages the answer", async ({ page }) => {
  const tag = `nojs${Date.now().toString(36)}`;
  await createPublicMembers(Array.from({ length: 25 }, (_, index) => `Walker ${tag} ${String(index + 1).padStart(2, "0")}`));
  await page.goto("/members");
  await page.getByLabel("Name").fill(`  ${tag}  `);
  await page.getByRole("button", { name: "Search" }).click();
  // The browser sends the box as typed; the site answers at the canonical address.
  await expect(page).toHaveURL(`${e2e.siteUrl}/members?q=${tag}`);
  await expect(page.getByText(`25 members named “${tag}”: showing 1–24, page 1 of 2.`)).toBeVisible();
  await page.getByRole("link", { name: "Page 2" }).click();
  await expect(page).toHaveURL(`${e2e.siteUrl}/members?q=${tag}&page=2`);
  await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("link", { name: `Walker ${tag} 25` })).toHaveAttribute("href", /^\/members\//);
});
