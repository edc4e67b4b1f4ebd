import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { adminCollections, adminItems } from "./platform";
import { screenshot } from "./screenshots";
import { expectAccessible, noPolicyRefusals, openStudio, studioUrl } from "./studio";

/**
 * The Studio's Collections area against the e2e site and its platform: an edit reaches the site's
 * cached page at once; items are added, duplicated and deleted; a broken JSON value is refused
 * next to its field; a collection is made, given fields and filled from a CSV file. Whatever a
 * test changes in the demo data it puts back, since the other specs read the same database.
 */

const TRAIL_ID = "trail-summit-loop";
const TRAIL_PAGE = "/trails/summit-loop";

/** Presses Tab until the element has the focus (at most `limit` times), as a keyboard user would reach it. */
async function tabTo(page: Page, target: ReturnType<Page["getByRole"]>, limit = 15) {
  for (let press = 0; press < limit; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test("an edit of a trail's title in the Studio shows on the site's cached trail page at once; keyboard only", async ({ page, request }) => {
  const checkPolicy = await noPolicyRefusals(page);
  const original = (await adminItems().get("Trails", TRAIL_ID))!;
  const edited = `${original.title} (edited in the Studio)`;
  // The trail's page is in the site's page cache before the edit.
  await request.get(TRAIL_PAGE);
  const warm = await request.get(TRAIL_PAGE);
  expect(warm.headers()["x-cache"]).toBe("HIT");
  expect(await warm.text()).not.toContain(edited);

  try {
    await openStudio(page, "", "Collections");
    await expect(page).toHaveURL(studioUrl("/collections"));
    await expect(page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "Collections" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("row", { name: /Trails/ })).toContainText("read: ANYONE");
    await expectAccessible(page, "the Studio's collections");

    await page.getByRole("link", { name: "Trails", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Trails" })).toBeVisible();
    await expect(page.getByText(/^1–15 of 15 items$/)).toBeVisible();
    await page.getByRole("searchbox", { name: "Filter" }).fill("summit");
    await expect(page.getByText(/of 1 item matching “summit”/)).toBeVisible();
    await expect(page).toHaveURL(studioUrl("/collections/Trails?q=summit"));
    await page.getByRole("searchbox", { name: "Filter" }).fill("");
    await page.getByRole("button", { name: "Distance (km)" }).click();
    await expect(page.getByRole("columnheader", { name: "Distance (km)" })).toHaveAttribute("aria-sort", "ascending");
    await expect(page.getByRole("row").nth(1)).toContainText("Arch Spur");
    // A reference reads as the title of what it names, not its id.
    await expect(page.getByRole("row").nth(1)).toContainText("High Desert");
    await expect(page.getByRole("row").nth(1)).not.toContainText("region-");
    await expectAccessible(page, "the Studio's items table");
    await screenshot(page, "studio-collections");

    await page.getByRole("link", { name: original.title as string }).click();
    await expect(page.getByRole("heading", { level: 1, name: original.title as string })).toBeFocused();
    await expect(page.getByLabel(/^Region/)).toHaveValue("region-north-ridge");
    await expectAccessible(page, "the Studio's item form");
    await screenshot(page, "studio-item");

    // Without a mouse: Tab to the title, change it, Tab to Save and press Enter.
    const title = page.getByRole("textbox", { name: /^Title/ });
    await tabTo(page, title);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(edited);
    const save = page.getByRole("button", { name: "Save", exact: true });
    await tabTo(page, save, 40);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: /^Saved at/ })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: edited })).toBeVisible();

    // The platform sent the site Wix's data item event: its cached page shows the new title within a second.
    await expect.poll(async () => (await request.get(TRAIL_PAGE)).text(), { timeout: 1_000, intervals: [50] }).toContain(edited);
    checkPolicy();
  } finally {
    await adminItems().update("Trails", { ...original, title: original.title });
  }
});

test("add, duplicate and delete an item; a broken JSON value is refused next to its field", async ({ page }) => {
  const checkPolicy = await noPolicyRefusals(page);
  const name = "Studio test trail";
  page.on("dialog", (dialog) => void dialog.accept());
  try {
    await openStudio(page, "/collections/Trails", "Trails");
    await page.getByRole("link", { name: "Add item" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New item" })).toBeVisible();
    await page.getByRole("textbox", { name: /^Title/ }).fill(name);
    await page.getByRole("textbox", { name: /^Slug/ }).fill("studio-test-trail");
    await page.getByLabel(/^Region/).selectOption({ label: "Lake Country" });
    const tags = page.getByRole("textbox", { name: /^Tags/ });
    await tags.fill('["studio", ');
    await page.getByRole("button", { name: "Add item" }).click();
    await expect(tags).toBeFocused();
    await expect(tags).toHaveAttribute("aria-invalid", "true");
    await expect(tags).toHaveAccessibleDescription(/This is not valid JSON/);
    await expect(page.getByText("Not saved: one field needs a change.")).toBeVisible();
    await expectAccessible(page, "the Studio's item form with a refused field");

    await tags.fill('["studio"]');
    await page.getByRole("button", { name: "Add item" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Item added." })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const addedUrl = page.url();

    await page.getByRole("button", { name: "Duplicate" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Duplicated: this is the copy." })).toBeVisible();
    expect(page.url()).not.toBe(addedUrl);
    await expect(page.getByLabel(/^Region/)).toHaveValue("region-lake-country");
    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Deleted ${name}.` })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Trails" })).toBeVisible();
    await page.getByRole("searchbox", { name: "Filter" }).fill("studio");
    await expect(page.getByText(/of 1 item matching “studio”/)).toBeVisible();

    await page.goto(addedUrl);
    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Deleted ${name}.` })).toBeVisible();
    checkPolicy();
  } finally {
    const left = await adminItems().query("Trails").eq("slug", "studio-test-trail").find();
    for (const item of left.items) await adminItems().remove("Trails", item._id!);
  }
});

test("a new collection gets fields, rows from a CSV file, and exports them", async ({ page }) => {
  const checkPolicy = await noPolicyRefusals(page);
  try {
    await openStudio(page, "/collections", "Collections");
    await page.getByLabel("ID", { exact: true }).fill("StudioWalks");
    await page.getByLabel("Display name").fill("Studio walks");
    await page.getByRole("button", { name: "Create collection" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Studio walks" })).toBeVisible();
    for (const [key, type] of [
      ["name", "TEXT"],
      ["km", "NUMBER"],
    ]) {
      await page.getByLabel("Key").fill(key);
      await page.getByLabel("Type").selectOption(type);
      await page.getByRole("button", { name: "Add field" }).click();
      await expect(page.getByRole("status").filter({ hasText: `Field ${key} added.` })).toBeVisible();
    }
    await expect(page.getByRole("row", { name: /^km km/ })).toContainText("NUMBER");

    const csv = "_id,name,km\nalder,Alder walk,3\nbirch,Birch walk,4.5\n";
    await page.getByLabel("CSV or JSONL file").setInputFiles({ name: "walks.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Import" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Imported: 2 written, 0 skipped, 0 refused." })).toBeVisible();
    await expect(page.getByRole("link", { name: "Birch walk" })).toBeVisible();
    await expect(page.getByRole("row", { name: /Alder walk/ })).toContainText("3");

    await page.getByRole("button", { name: "Export CSV" }).click();
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download StudioWalks.csv" }).click();
    const file = await (await downloading).createReadStream();
    let text = "";
    for await (const chunk of file) text += chunk;
    expect(text).toContain("Alder walk");
    expect(text).toContain("Birch walk");
    checkPolicy();
  } finally {
    await adminCollections()
      .deleteDataCollection("StudioWalks")
      .catch(() => undefined);
  }
});

test("at 390 px a collection's tables, which scroll sideways, each take the keyboard's focus", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openStudio(page, "/collections/Trails", "Trails");
  const fields = page.getByRole("region", { name: "Fields of Trails" });
  await expect(fields.getByRole("table")).toBeVisible();
  // The table is wider than its frame: the frame scrolls, so the keyboard must be able to reach it.
  expect(await fields.evaluate((frame) => frame.scrollWidth > frame.clientWidth)).toBe(true);
  await fields.focus();
  await expect(fields).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => fields.evaluate((frame) => frame.scrollLeft)).toBeGreaterThan(0);
  await expectAccessible(page, "a collection in the Studio at 390 px");
});

test("leaving an edited item by a link asks first: staying keeps the edit, leaving saves nothing", async ({ page }) => {
  const original = (await adminItems().get("Trails", TRAIL_ID))!.title as string;
  await openStudio(page, `/collections/Trails/items/${TRAIL_ID}`, original);
  const title = page.getByLabel(/^Title/);
  await title.fill(`${original} (not saved)`);
  const studioNav = page.getByRole("navigation", { name: "Studio" });

  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await studioNav.getByRole("link", { name: "Collections" }).click();
  await expect.poll(() => asked).toContain("not saved");
  await expect(page).toHaveURL(studioUrl(`/collections/Trails/items/${TRAIL_ID}`));
  await expect(title).toHaveValue(`${original} (not saved)`);

  page.once("dialog", (dialog) => void dialog.accept());
  await studioNav.getByRole("link", { name: "Collections" }).click();
  await expect(page).toHaveURL(studioUrl("/collections"));
  expect((await adminItems().get("Trails", TRAIL_ID))!.title).toBe(original);
});
