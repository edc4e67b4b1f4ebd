import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { loginHref } from "../lib/auth/routes";
import { accountMenuSummary, menuOf, openMenu, sectionsMenuSummary } from "./header-menus";
import { hydrated } from "./hydration";
import { adminItems, demoMember, revalidateSite } from "./platform";
import { screenshot } from "./screenshots";
import { logInWithForm } from "./site-pages";

const cards = (page: Page) => page.getByTestId("item-card");
const results = (page: Page) => page.getByRole("heading", { level: 2 }).first();

test("search, filter, sort and page size live in the URL and survive a reload", async ({ page }) => {
  await page.goto("/trails");
  await hydrated(page.getByRole("form", { name: "Search trails" }));
  await page.getByRole("searchbox", { name: "Search" }).fill("lake");
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page).toHaveURL(/[?&]q=lake/);
  // Island Causeway is found by its "lakes" tag.
  await expect(cards(page)).toHaveCount(4);
  await expect(page).toHaveTitle(/^Trails matching “lake”/);
  // Focus follows the client-side navigation to the new results.
  await expect(results(page)).toBeFocused();

  await page.getByRole("link", { name: "Remove “lake”" }).click();
  await expect(page).toHaveURL(/\/trails$/);
  // Filters sit in a disclosure, closed while none is in use.
  await expect(page.getByRole("group", { name: "Difficulty" })).toBeHidden();
  await page.getByText("Filters", { exact: true }).click();
  // Each choice applies as it is made, and the control keeps the focus.
  const easy = page.getByRole("group", { name: "Difficulty" }).getByLabel("Easy");
  await easy.check();
  await expect(page).toHaveURL(/\/trails\?difficulty=Easy$/);
  await expect(easy).toBeFocused();
  await page.getByLabel("Dogs welcome").selectOption("yes");
  await expect(page).toHaveURL(/dogFriendly=yes$/);
  const to = page.getByRole("group", { name: "Distance (km)" }).getByLabel("To");
  await to.fill("5");
  await to.press("Tab");
  await expect(page).toHaveURL(/distanceKm.to=5/);
  await page.getByLabel("Sort").selectOption({ label: "Longest first" });
  // Only what is chosen, in the canonical order: no empty parameters, sort after the filters.
  await expect(page).toHaveURL(/\/trails\?difficulty=Easy&distanceKm.to=5&dogFriendly=yes&sort=longest$/);
  await expect(cards(page).locator("h2")).toHaveText(["Island Causeway", "Lighthouse Walk", "Arch Spur"]);
  // Each filter in use can be dropped on its own.
  await page.getByRole("link", { name: "Remove Dogs welcome: yes" }).click();
  await expect(page).toHaveURL(/\/trails\?difficulty=Easy&distanceKm.to=5&sort=longest$/);
  await page.getByRole("link", { name: "Remove Dogs welcome" }).waitFor({ state: "detached" });
  await page.getByLabel("Dogs welcome").selectOption("yes");
  await expect(page).toHaveURL(/dogFriendly=yes/);

  await page.reload();
  await expect(cards(page)).toHaveCount(3);
  await expect(page.getByText("3 in use")).toBeVisible();
  await expect(page.getByLabel("Sort")).toHaveValue("longest");
  await expect(page.getByRole("group", { name: "Difficulty" }).getByLabel("Easy")).toBeChecked();

  // A range that would end before it starts is refused where it is typed, and nothing is searched.
  const from = page.getByRole("group", { name: "Distance (km)" }).getByLabel("From");
  await from.fill("10");
  await from.press("Tab");
  await expect.poll(() => to.evaluate((input: HTMLInputElement) => input.validationMessage)).toContain("cannot end before it starts");
  await expect(page).toHaveURL(/\/trails\?difficulty=Easy&distanceKm.to=5&dogFriendly=yes&sort=longest$/);
  // Without the browser's check (a hand-made URL), the page says why nothing matches.
  await page.goto("/trails?distanceKm.from=10&distanceKm.to=5");
  await expect(page.getByText("Distance (km): the range ends before it starts")).toBeVisible();
});

test("numbered pages with totals, and a larger page size", async ({ page }) => {
  await page.goto("/trails?sort=name");
  await expect(page.getByText("Showing 1–9 of 15 trails, page 1 of 2.")).toBeVisible();
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/sort=name&page=2/);
  await expect(page).toHaveTitle(/^Trails, page 2/);
  await expect(page.getByText("Showing 10–15 of 15 trails, page 2 of 2.")).toBeVisible();
  await page.getByLabel("Per page").selectOption("18");
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(cards(page)).toHaveCount(15);
  await expect(page.getByRole("navigation", { name: "Pagination" })).toHaveCount(0);
});

test("an empty result says what to do", async ({ page }) => {
  await page.goto("/journal?q=zzzz");
  await expect(page.getByText("Nothing matches that search.")).toBeVisible();
  await page.getByRole("link", { name: "See all stories" }).click();
  await expect(cards(page)).toHaveCount(6);
});

test("a page past the last, a range the wrong way round and the date filter each say what is wrong", async ({ page }) => {
  await page.goto("/trails?page=99");
  await expect(page.getByText(/^No trails on page 99: the list has \d+ pages \(\d+ trails\)\.$/)).toBeVisible();
  await expect(page.getByText("No results on this page")).toBeVisible();
  await page.getByRole("link", { name: /Go to the last page/ }).click();
  await expect(cards(page).first()).toBeVisible();
  await expect(page).toHaveURL(/\/trails\?page=\d+$/);

  await page.goto("/trails?distanceKm.from=10&distanceKm.to=5");
  await expect(page.getByText("No trails found: the Distance (km) range ends before it starts.")).toBeVisible();
  await expect(page.getByText("Nothing can match: the Distance (km) range ends before it starts.")).toBeVisible();

  // A date range has no lower bound of 0 (no date); the number of places does.
  await page.goto("/outings");
  const form = page.getByRole("form", { name: "Search outings" });
  await expect(form.locator('input[name="startsAt.from"]')).not.toHaveAttribute("min");
  await expect(form.locator('input[name="capacity.from"]')).toHaveAttribute("min", "0");
});

test("a card's tag is a link to the list filtered by that tag", async ({ page }) => {
  await page.goto("/trails");
  await cards(page).filter({ hasText: "Arch Spur" }).getByRole("link", { name: "Trails tagged arch" }).click();
  await expect(page).toHaveURL(/\/trails\?tags=arch$/);
  await expect(cards(page).locator("h2")).toHaveText(["Arch Spur"]);
  await expect(page.getByRole("link", { name: "Remove Tags: arch" })).toBeVisible();
});

test("bad URL parameters fall back to defaults; a malformed page or unknown item is a 404", async ({ page }) => {
  const response = await page.goto("/trails?sort=nonsense&size=5000&distanceKm.from=far&difficulty=Impossible&dogFriendly=maybe");
  expect(response?.status()).toBe(200);
  await expect(cards(page)).toHaveCount(9);
  await expect(cards(page).first()).toContainText("Arch Spur");

  expect((await page.goto("/outings?page=-1"))?.status()).toBe(404);
  expect((await page.goto("/trails/no-such-trail"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  expect((await page.goto("/no-such-section"))?.status()).toBe(404);
});

test("with JavaScript, a page answering 404 in place of its content is titled so once its script has run", async ({ page }) => {
  await logInWithForm(page);
  for (const path of ["/members?page=99", "/members/dana?reports=99", "/member-outings/no-such-outing"]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await hydrated(page.getByRole("banner").getByRole("link", { name: "Ridgeline", exact: true }));
    await expect(page, path).toHaveTitle(/^Page not found · /);
  }
});

test("an item page: reference resolved, related items, previous and next", async ({ page }) => {
  await page.goto("/trails");
  await page.getByRole("link", { name: "Arch Spur" }).click();
  await expect(page).toHaveURL(/\/trails\/arch-spur$/);
  await expect(page.getByRole("heading", { name: "Arch Spur", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/^Arch Spur/);
  const details = page.getByRole("complementary", { name: "Details" });
  await expect(details).toContainText("2.7 km");
  await details.getByRole("link", { name: "High Desert" }).click();
  await expect(page.getByRole("heading", { name: "High Desert", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Trails in this region" }).getByTestId("item-card")).toHaveCount(3);

  await page.goto("/outings/tide-pool-discovery");
  await expect(page.getByRole("complementary", { name: "Details" }).getByRole("link", { name: "Hidden Cove Descent" })).toBeVisible();
  await page.getByRole("link", { name: /Next.*Winter Solstice Lantern Walk/ }).click();
  await expect(page.getByRole("heading", { name: "Winter Solstice Lantern Walk", level: 1 })).toBeVisible();
});

test("the journal loads more stories in place: focus on the first new one, the count announced, the URL kept", async ({ page }) => {
  await page.goto("/journal");
  await expect(cards(page)).toHaveCount(6);
  await expect(page.getByRole("status")).toHaveText("Showing 6 of 10 stories.");
  await (await hydrated(page.getByRole("link", { name: "Load more stories" }))).click();
  await expect(cards(page)).toHaveCount(10);
  await expect(page.getByRole("status")).toHaveText("4 more loaded. Showing 10 stories, all there are.");
  await expect(page.getByRole("link", { name: "Reading a Contour Map" })).toBeFocused();
  await expect(page.getByRole("link", { name: "Load more stories" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/journal\?page=2$/);
  // A search is a new list: the stories added to the last one go.
  await page.getByRole("searchbox", { name: "Search" }).fill("boots");
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(cards(page)).toHaveCount(1);
  await expect(page.getByRole("status")).toHaveText("Showing 1 story.");
  await page.goto("/journal?page=2");
  // The address shows the same stories after a reload, and is a 404 past the last one.
  await page.reload();
  await expect(cards(page)).toHaveCount(10);
  // Past the last batch (a stale link): all there are, not a 404.
  expect((await page.goto("/journal?page=3"))?.status()).toBe(200);
  await expect(cards(page)).toHaveCount(10);
  await expect(page.getByRole("status")).toHaveText("Showing 10 stories, all there are.");
  // Filters travel with the cursor.
  await page.goto("/journal?tags=beginners&size=12");
  await expect(cards(page).locator("h2")).toHaveText(["Choosing Your First Boots", "Reading a Contour Map", "Hiking With Your Dog"]);
});

test('Back from a story opened after "Load more" shows the same stories at the same place', async ({ page }) => {
  await page.goto("/journal");
  await (await hydrated(page.getByRole("link", { name: "Load more stories" }))).click();
  await expect(cards(page)).toHaveCount(10);
  await expect(page).toHaveURL(/\/journal\?page=2$/);
  const story = page.getByRole("link", { name: "Hiking With Your Dog" });
  await story.scrollIntoViewIfNeeded();
  const place = await page.evaluate(() => window.scrollY);
  expect(place).toBeGreaterThan(400);
  await story.click();
  await expect(page.getByRole("heading", { name: "Hiking With Your Dog", level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/journal\?page=2$/);
  await expect(cards(page)).toHaveCount(10);
  await expect(page.getByRole("status")).toHaveText("Showing 10 stories, all there are.");
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(place - 40);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(place + 40);
  await screenshot(page, "journal-back-after-load-more");
});

test("stories sorted by when they were last updated, trails by when they were added; an item page says when it was last updated", async ({ page }) => {
  const admin = adminItems();
  const story = (await admin.query("Journal").eq("slug", "why-we-start-early").find()).items[0];
  await admin.update("Journal", story);
  await revalidateSite({ collections: ["Journal"] });
  await page.goto("/journal");
  await hydrated(page.getByRole("form", { name: "Search stories" }));
  await page.getByLabel("Sort").selectOption({ label: "Recently updated" });
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page).toHaveURL(/\/journal\?sort=updated$/);
  await expect(cards(page).locator("h2").first()).toHaveText("Why We Start Early");
  // The load-more batches keep the order.
  await (await hydrated(page.getByRole("link", { name: "Load more stories" }))).click();
  await expect(cards(page)).toHaveCount(10);
  await expect(page).toHaveURL(/\/journal\?sort=updated&page=2$/);
  await page.getByRole("link", { name: "Why We Start Early" }).click();
  const today = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(new Date());
  await expect(page.getByRole("complementary", { name: "Details" })).toContainText(`Last updated${today}`);

  await admin.insert("Trails", { _id: "e2e-fresh-spur", title: "Fresh Spur", slug: "fresh-spur", distanceKm: 1.2 });
  try {
    await revalidateSite({ collections: ["Trails"] });
    await page.goto("/trails?sort=added");
    await expect(page.getByLabel("Sort")).toHaveValue("added");
    await expect(cards(page).locator("h2").first()).toHaveText("Fresh Spur");
  } finally {
    await admin.remove("Trails", "e2e-fresh-spur");
    await revalidateSite({ collections: ["Trails"] });
  }
});

test("item pages show media, rich content, addresses, objects, lists and multi-references", async ({ page }) => {
  await page.goto("/trails/summit-loop");
  const photos = page.getByRole("list", { name: "Photos" });
  await expect(photos.getByRole("img")).toHaveCount(3);
  await expect(photos.getByRole("img").first()).toHaveAttribute("src", /^\/_next\/image\?url=%2Fmedia%2Fdemo%2Fridge-dawn\.jpg&w=\d+&q=75$/);
  // The optimiser answers with WebP from the site's own media.
  const optimised = await page.request.get((await photos.getByRole("img").first().getAttribute("src"))!, { headers: { accept: "image/webp,*/*" } });
  expect(optimised.headers()["content-type"]).toBe("image/webp");
  await expect(photos.locator("video source")).toHaveAttribute("src", "/media/demo/ridge-flyover.mp4");
  const details = page.getByRole("complementary", { name: "Details" });
  await expect(details).toContainText("Gate opens05:30");
  await expect(details.getByRole("listitem")).toContainText([
    "Trailhead · At 0 km",
    "First switchback · At 1.8 km",
    "False summit · At 6.1 km",
    "Summit cairn · At 7.1 km",
  ]);

  await page.goto("/regions/north-ridge");
  await expect(page.getByRole("complementary", { name: "Details" })).toContainText("1 Lookout RoadAlder Springs, CO 81201United States");
  await expect(page.getByRole("link", { name: "parks.example" })).toHaveAttribute("href", "https://parks.example/north-ridge");

  await page.goto("/journal/ten-essentials-revisited");
  const article = page.getByRole("region", { name: "In detail" });
  await expect(article.getByRole("heading", { level: 3, name: "What changed" })).toBeVisible();
  await expect(article.getByRole("img", { name: "A granite ridge in warm dawn light" })).toBeVisible();
  await expect(article.getByRole("link", { name: "one-page checklist" })).toHaveAttribute("href", "/media/demo/ten-essentials-checklist.pdf");
  const pdf = await page.request.get("/media/demo/ten-essentials-checklist.pdf");
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  await expect(page.getByRole("link", { name: "ten-essentials-checklist.pdf (PDF)" })).toBeVisible();

  await page.goto("/journal/leave-no-trace-in-the-desert");
  await page.getByRole("complementary", { name: "Details" }).getByRole("link", { name: "Arch Spur" }).click();
  await expect(page.getByRole("heading", { name: "Arch Spur", level: 1 })).toBeVisible();

  await page.goto("/journal/why-we-start-early");
  await expect(page.getByRole("region", { name: "Listen" }).locator("audio source")).toHaveAttribute("src", "/media/demo/trail-notes.mp3");
  await page.goto("/outings/family-creek-walk");
  await expect(page.getByRole("complementary", { name: "Details" })).toContainText("Meeting time09:45");
});

test("a photo opens in a viewer: arrows move through the gallery, Escape closes it and focus goes back", async ({ page }) => {
  await page.goto("/trails/summit-loop");
  const photos = page.getByRole("list", { name: "Photos" });
  // Photos and the video are tiles of one shape.
  const heights = await photos
    .locator("li")
    .evaluateAll((items) => items.map((item) => Math.round(item.querySelector("img, video")!.getBoundingClientRect().height)));
  expect(new Set(heights).size).toBe(1);

  const first = await hydrated(photos.getByRole("button", { name: /^Enlarge/ }).first());
  await first.click();
  await expect(page.getByRole("dialog", { name: "Photos: photo 1 of 3" }).getByRole("img")).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("dialog", { name: "Photos: photo 2 of 3" }).getByRole("img")).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("dialog", { name: "Photos: photo 3 of 3" }).getByRole("img")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(first).toBeFocused();
});

test("members-only outings never appear on public pages", async ({ page }) => {
  await page.goto("/outings");
  await expect(cards(page)).toHaveCount(4);
  await expect(page.getByText("Sunrise on the Summit")).toHaveCount(0);
  expect((await page.goto("/outings/sunrise-on-the-summit"))?.status()).toBe(404);
});

test("the section menu on a phone is a disclosure: it opens by keyboard, Tab reaches its links, Escape closes it, the current page is marked", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  const summary = await hydrated(sectionsMenuSummary(page));
  await expect(summary).toHaveAccessibleName("Menu");
  const menu = menuOf(summary);
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("open", "");
  await expect(menu.getByRole("link")).toHaveText(["Trails", "Regions", "Outings", "Journal"]);
  await page.keyboard.press("Tab");
  await expect(menu.getByRole("link", { name: "Trails" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).not.toHaveAttribute("open");
  await expect(summary).toBeFocused();
  await page.keyboard.press("Space");
  await expect(menu).toHaveAttribute("open", "");
  for (let step = 0; step < 4; step++) await page.keyboard.press("Tab");
  await expect(menu.getByRole("link", { name: "Journal" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/journal$/);
  await expect(menu).not.toHaveAttribute("open");
  await summary.click();
  await expect(menu.locator("[aria-current=page]")).toHaveText(["Journal"]);
});

test("the member menu: keyboard, Escape, outside click, above the home page's hero, closes after navigation, one header menu open at a time", async ({
  page,
}) => {
  await page.goto(loginHref("/"));
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByLabel("Password").fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);

  const summary = await hydrated(accountMenuSummary(page));
  await expect(summary).toHaveAccessibleName(`Account menu for ${demoMember.name}`);
  const menu = menuOf(summary);
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("open", "");
  for (const name of ["Account", "View my profile", "Members' outings"]) {
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name, exact: true })).toBeFocused();
  }
  await page.keyboard.press("Tab");
  await expect(menu.getByRole("button", { name: "Log out" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).not.toHaveAttribute("open");
  await expect(summary).toBeFocused();

  await summary.click();
  await expect(menu).toHaveAttribute("open", "");
  await page.getByRole("heading", { name: "Find your next trail." }).click();
  await expect(menu).not.toHaveAttribute("open");

  // A plain click (no force): it fails if the hero covers the menu.
  await summary.click();
  await menu.getByRole("link", { name: "Account", exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(menu).not.toHaveAttribute("open");

  await page.setViewportSize({ width: 390, height: 800 });
  const sections = await openMenu(sectionsMenuSummary(page));
  await openMenu(summary);
  await expect(sections).not.toHaveAttribute("open");
});
