import { expect, test } from "./test";
import type { Locator, Page } from "@playwright/test";
import { accountMenuSummary, logOut, openMenu } from "./header-menus";
import { hydrated } from "./hydration";
import { adminItems, demoMember, revalidateSite, secondDemoMember } from "./platform";
import { fillLoginForm } from "./site-pages";

/** Reports this file writes: whatever a failed run left behind is removed, so other tests never meet it. */
const FROST_REPORT = "Frost on the boardwalk";

test.afterAll(async () => {
  const left = await adminItems().query("TrailReports").startsWith("title", FROST_REPORT).find();
  if (left.items.length === 0) return;
  for (const item of left.items) await adminItems().remove("TrailReports", item._id!);
  await revalidateSite({ collections: ["TrailReports"] });
});

const reports = (page: Page) => page.getByRole("region", { name: "Trail reports" });
const report = (page: Page, title: string) => reports(page).getByRole("article", { name: title });

async function reportIdOf(article: Locator): Promise<string> {
  const labelledBy = await article.getAttribute("aria-labelledby");
  return labelledBy!.replace(/^report-/, "");
}

test("visitors see what members' outings offer and a login that returns there; members see the outings", async ({ page }) => {
  await page.goto("/member-outings");
  await expect(page.getByRole("heading", { level: 1, name: "Members' outings" })).toBeVisible();
  await expect(page.getByText("Sunrise on the Summit")).toHaveCount(0);
  await expect(page.getByTestId("member-outing")).toHaveCount(0);

  await page.getByRole("link", { name: "Log in to see members' outings" }).click();
  await expect(page).toHaveURL(/\/login\?returnTo=%2Fmember-outings$/);
  await fillLoginForm(page, demoMember);
  await expect(page).toHaveURL(/\/member-outings$/);
  await expect(page.getByTestId("member-outing")).toHaveCount(4);
  const sunrise = page.getByRole("article", { name: "Sunrise on the Summit" });
  await expect(sunrise.getByRole("link", { name: "Summit Loop" })).toHaveAttribute("href", "/trails/summit-loop");

  // The member menu leads there too; the public outings list still never shows them.
  await page.goto("/outings");
  await expect(page.getByText("Sunrise on the Summit")).toHaveCount(0);
  await (await openMenu(accountMenuSummary(page))).getByRole("link", { name: "Members' outings" }).click();
  await expect(page).toHaveURL(/\/member-outings$/);
  await logOut(page);
  await page.goto("/member-outings");
  await expect(page.getByTestId("member-outing")).toHaveCount(0);
});

test("member A writes and edits a report; member B sees no controls and cannot change it, not even by calling the action", async ({ page }) => {
  const title = `${FROST_REPORT} ${Date.now()}`;
  const hostile = '<img src=x onerror="document.body.dataset.pwned=1"> and <b>bold</b> claims';

  // A visitor is asked to log in, and comes back to the trail's report form, in view.
  await page.goto("/trails/summit-loop");
  await page.getByRole("link", { name: "Log in to write a report" }).click();
  await fillLoginForm(page, demoMember);
  await expect(page).toHaveURL(/\/trails\/summit-loop#write-report$/);
  await expect(page.getByRole("heading", { name: "Write a report" })).toBeInViewport();

  // A refused form keeps what was typed and says what is wrong, next to the field.
  const form = page.getByRole("region", { name: "Trail reports" });
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Rating (1 to 5)").fill("9");
  await form.getByLabel("Your report").fill(hostile);
  await form.getByRole("button", { name: "Publish report" }).click();
  await expect(form.getByText("Rate the walk from 1 to 5.")).toBeVisible();
  await expect(form.getByLabel("Rating (1 to 5)")).toBeFocused();
  await expect(form.getByLabel("Title")).toHaveValue(title);

  await form.getByLabel("Rating (1 to 5)").fill("4");
  await form.getByRole("button", { name: "Publish report" }).click();
  await expect(form.getByRole("status")).toHaveText("Thank you: your report is published.");
  const mine = report(page, title);
  await expect(mine).toContainText(hostile);
  await expect(mine.getByRole("link", { name: demoMember.name })).toBeVisible();
  expect(await page.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
  await expect(mine.locator("img")).toHaveCount(0);
  // The author's public profile lists it too (and now holds it in the shared cache).
  await page.goto("/members/dana");
  await expect(page.getByRole("article", { name: title })).toContainText(hostile);
  await page.goto("/trails/summit-loop");

  // The author edits it; the change shows at once and after a reload. (Buttons of a page just
  // loaded do nothing until React has hydrated them.)
  await (await hydrated(mine.locator("summary", { hasText: /^Edit/ }))).click();
  await mine.getByLabel("Your report").fill("Ice until ten, then clear. Microspikes helped.");
  await mine.getByLabel("Rating (1 to 5)").fill("5");
  await mine.getByRole("button", { name: "Save changes" }).click();
  // The editor closes; the message stands above the list, with the focus.
  await expect(reports(page).getByRole("status")).toHaveText("Your report is updated.");
  await expect(reports(page).getByRole("status")).toBeFocused();
  await expect(mine.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await page.reload();
  await expect(report(page, title)).toContainText("Ice until ten, then clear.");
  await expect(report(page, title).getByLabel("Rated 5 of 5")).toBeVisible();
  const danasReportId = await reportIdOf(report(page, title));
  // Every page showing the report shows the change at once, not only the one it was made on.
  await page.goto("/members/dana");
  await expect(page.getByRole("article", { name: title })).toContainText("Ice until ten, then clear.");

  // Member B: no controls on A's report.
  await logOut(page);
  await page.goto("/login?returnTo=%2Ftrails%2Fsummit-loop");
  await fillLoginForm(page, secondDemoMember);
  await expect(page).toHaveURL(/\/trails\/summit-loop$/);
  await expect(report(page, title)).toBeVisible();
  await expect(report(page, title).getByRole("button")).toHaveCount(0);

  // B's own report elsewhere has controls. B points them at A's report (as a hand-made request
  // to the server action would): the platform refuses, and the page says why.
  await page.goto("/trails/goat-pass");
  const own = report(page, "Snow on the pass");
  await (await hydrated(own.locator("summary", { hasText: /^Edit/ }))).click();
  await own
    .locator('form:has(button:has-text("Save changes")) input[name="reportId"]')
    .evaluate((input: HTMLInputElement, id) => (input.value = id), danasReportId);
  await own.getByLabel("Your report").fill("Rowan was here.");
  await own.getByRole("button", { name: "Save changes" }).click();
  await expect(own.getByRole("alert")).toHaveText("You can change or delete only reports you wrote.");

  await own.locator("summary", { hasText: /^Delete/ }).click();
  // Opening it closes the editor once React has taken the toggle; a render after the change below would put the id back.
  await expect(own.locator("details", { has: page.locator("summary", { hasText: /^Edit/ }) })).not.toHaveAttribute("open");
  await own
    .locator('form:has(button:has-text("Yes, delete it")) input[name="reportId"]')
    .evaluate((input: HTMLInputElement, id) => (input.value = id), danasReportId);
  await own.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(own.getByRole("alert")).toHaveText("You can change or delete only reports you wrote.");

  await page.goto("/trails/summit-loop");
  await expect(report(page, title)).toContainText("Ice until ten, then clear.");

  // A's report is on A's public profile; then A deletes it and it is gone everywhere.
  await logOut(page);
  await page.goto("/login?returnTo=%2Ftrails%2Fsummit-loop");
  await fillLoginForm(page, demoMember);
  const again = report(page, title);
  await (await hydrated(again.locator("summary", { hasText: /^Delete/ }))).click();
  await again.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(report(page, title)).toHaveCount(0);
  await expect(reports(page).getByRole("status")).toHaveText("Your report is deleted.");
  await expect(reports(page).getByRole("status")).toBeFocused();
  await page.reload();
  await expect(report(page, title)).toHaveCount(0);
});

test("a public profile lists the member's reports with the trails they are about", async ({ page }) => {
  // Found by name: the directory pages its members, and the tests before this one add many.
  await page.goto("/members?q=Rowan");
  await page.getByRole("link", { name: /Rowan/ }).click();
  const list = page.getByRole("region", { name: "Trail reports by Rowan" });
  await expect(list.getByRole("article")).toHaveCount(3);
  await expect(list.getByRole("article", { name: "Snow on the pass" }).getByRole("link", { name: "Goat Pass Traverse" })).toHaveAttribute(
    "href",
    "/trails/goat-pass",
  );
  await expect(list.getByRole("button")).toHaveCount(0);
});
