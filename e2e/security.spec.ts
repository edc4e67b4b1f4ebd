import { expect, test } from "./test";
import { adminCollections, adminItems } from "./platform";

/**
 * The unbounded-content attack of issue 19 in the browser: 20 reports of 450 KB made a trail
 * page 18 MB. The platform now refuses such reports (their fields declare the form's limits),
 * so the test takes the limits off first, as a Wix site whose collection declares none (or
 * holds reports from before its limits) would be; the page must stay small all the same.
 */

const REPORTS = "TrailReports";
const TRAIL = { id: "trail-old-growth", path: "/trails/old-growth" };
const WRITTEN = 22;
const MAX_PAGE_BYTES = 300_000;

test("a trail page stays small and paged whatever its reports hold", async ({ page, request }) => {
  test.setTimeout(120_000);
  const items = adminItems();
  const collections = adminCollections();
  const { fields = [] } = await collections.getDataCollection(REPORTS);
  const limited = fields.filter((field) => field.stringLengthRange);
  expect(limited.map((field) => field.key).sort()).toEqual(["body", "title"]);
  const withRange = (field: (typeof limited)[number], range: boolean) => ({
    field: { key: field.key, displayName: field.displayName, type: field.type, ...(range && { stringLengthRange: field.stringLengthRange }) },
  });
  const written: string[] = [];
  try {
    for (const field of limited) await collections.updateDataCollectionField(REPORTS, withRange(field, false) as never);
    const huge = "x".repeat(450_000);
    // Three bulk writes, each under the platform's 8 MB request limit; each announces the change,
    // which drops the cached trail page.
    for (let batch = 0; batch < 3; batch++) {
      const reports = Array.from({ length: 8 }, (_, i) => batch * 8 + i)
        .filter((n) => n < WRITTEN)
        .map((n) => ({
          trail: TRAIL.id,
          title: `Oversized ${n} ${"t".repeat(5_000)}`,
          body: huge,
          rating: 4,
          hikedOn: `2026-10-${String(n + 1).padStart(2, "0")}`,
        }));
      const result = await items.bulkInsert(REPORTS, reports);
      expect(result.errors).toEqual([]);
      written.push(...result.insertedItemIds);
    }
    expect(written).toHaveLength(WRITTEN);

    // The page a visitor gets (from the page cache once rendered): its size, not 10 MB of reports.
    const html = async (url: string) => {
      const response = await request.get(url, { maxRedirects: 0 });
      return { status: response.status(), text: await response.text() };
    };
    await expect.poll(async () => (await html(TRAIL.path)).text.includes("Oversized 21"), { timeout: 20_000 }).toBe(true);
    const first = await html(TRAIL.path);
    expect(first.status).toBe(200);
    expect(Buffer.byteLength(first.text)).toBeLessThan(MAX_PAGE_BYTES);
    // Paged without script: a plain link to the next page, which the server renders on its own.
    expect(first.text).toContain(`href="${TRAIL.path}?reports=2#member-reports"`);
    const second = await html(`${TRAIL.path}?reports=2`);
    expect(second.status).toBe(200);
    expect(Buffer.byteLength(second.text)).toBeLessThan(MAX_PAGE_BYTES);
    expect(second.text).toContain("Oversized 0 ");
    expect((await html(`${TRAIL.path}?reports=9`)).status).toBe(404);

    // And it renders: 20 reports, each cut to the form's 4,000 characters, then the older ones.
    await page.goto(TRAIL.path);
    const list = page.getByRole("region", { name: "Trail reports" });
    await expect(list.getByRole("article")).toHaveCount(20);
    await expect(list.getByRole("heading", { name: /^Oversized 21 t+$/ })).toBeVisible();
    expect((await list.getByRole("article").first().innerText()).length).toBeLessThan(4_500);
    await expect(list.getByText("Page 1 of 2")).toBeVisible();
    await list.getByRole("link", { name: "Older reports" }).click();
    await expect(page).toHaveURL(`${TRAIL.path}?reports=2#member-reports`);
    await expect(list.getByText("Page 2 of 2")).toBeVisible();
    await expect(list.getByRole("heading", { name: /^Oversized 0 t+$/ })).toBeVisible();
  } finally {
    if (written.length > 0) await items.bulkRemove(REPORTS, written);
    for (const field of limited) await collections.updateDataCollectionField(REPORTS, withRange(field, true) as never);
  }
});
