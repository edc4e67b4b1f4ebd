import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

describe("items.query through the real @wix/data client", () => {
  it("returns seeded items with system fields and dates decoded", async () => {
    const result = await platform.visitorClient().items.query("Trails").find();
    expect(result.items).toHaveLength(15);
    const first = result.items[0];
    expect(first._id).toBe("trail-summit-loop");
    expect(first._createdDate).toBeInstanceOf(Date);
    expect(first._updatedDate).toBeInstanceOf(Date);
    expect(result.hasNext()).toBe(false);
  });

  it("uses the default order: _createdDate descending", async () => {
    const result = await platform.visitorClient().items.query("Trails").find();
    const created = result.items.map((item) => (item._createdDate as Date).getTime());
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it("filters by equality, type-strictly and case-sensitively", async () => {
    const client = platform.visitorClient();
    const easy = await client.items.query("Trails").eq("difficulty", "Easy").find();
    expect(easy.items.map((i) => i.slug).sort()).toEqual(
      ["arch-spur", "cedar-creek", "island-causeway", "lighthouse-walk", "old-growth", "shoreline-loop"].sort(),
    );
    expect((await client.items.query("Trails").eq("difficulty", "easy").find()).items).toHaveLength(0);
    expect((await client.items.query("Trails").eq("distanceKm", 4.2).find()).items.map((i) => i._id)).toEqual(["trail-hidden-cove"]);
    expect((await client.items.query("Trails").eq("distanceKm", "4.2").find()).items).toHaveLength(0);
    expect((await client.items.query("Trails").eq("dogFriendly", false).find()).items).toHaveLength(5);
  });

  it("matches an array field when one element equals the value", async () => {
    const result = await platform.visitorClient().items.query("Trails").eq("tags", "swimming").find();
    expect(result.items.map((i) => i._id).sort()).toEqual(["trail-island-causeway", "trail-mirror-lakes"]);
  });

  it("filters on a datetime field with a Date operand", async () => {
    const result = await platform.visitorClient().items.query("Events").eq("startsAt", new Date("2026-12-21T16:00:00.000Z")).find();
    expect(result.items.map((i) => i.title)).toEqual(["Winter Solstice Lantern Walk"]);
    expect(result.items[0].startsAt).toBeInstanceOf(Date);
  });

  it("sorts by several keys, and pages with limit and skip", async () => {
    const client = platform.visitorClient();
    const sorted = await client.items.query("Trails").ascending("difficulty").descending("distanceKm").find();
    expect(sorted.items.slice(0, 2).map((i) => i.slug)).toEqual(["old-growth", "shoreline-loop"]);
    const difficulties = sorted.items.map((i) => i.difficulty as string);
    expect(difficulties).toEqual([...difficulties].sort());
    const easy = sorted.items.filter((i) => i.difficulty === "Easy").map((i) => i.distanceKm as number);
    expect(easy).toEqual([...easy].sort((a, b) => b - a));

    const page = await client.items.query("Trails").ascending("distanceKm").skip(4).limit(5).find({ returnTotalCount: true });
    expect(page.items.map((i) => i.distanceKm)).toEqual([5.1, 6.0, 6.3, 7.8, 8.9]);
    expect(page.totalCount).toBe(15);
    expect(page.hasNext()).toBe(true);
    const next = await page.next();
    expect(next.items.map((i) => i.distanceKm)).toEqual([9.6, 11.5, 12.3, 14.2, 16.0]);
  });

  it("sends the query as a GET with .r and answers with a request id", async () => {
    const before = (await platform.stats()).requests["GET /wix-data/v2/items/query"] ?? 0;
    await platform.visitorClient().items.query("Regions").find();
    expect((await platform.stats()).requests["GET /wix-data/v2/items/query"]).toBe(before + 1);
  });

  it("rejects an unknown collection with WDE0025 and a limit over 1000 with WDE0077", async () => {
    const client = platform.visitorClient();
    await expect(client.items.query("Nope").find()).rejects.toMatchObject({ details: { applicationError: { code: "WDE0025" } } });
    await expect(client.items.query("Trails").limit(1001).find()).rejects.toMatchObject({ details: { applicationError: { code: "WDE0077" } } });
  });
});

describe("random order (sortMode RANDOM)", () => {
  const ids = (list: { _id?: string }[]) => list.map((item) => item._id as string);

  it("one seed always gives one order, another seed another, and sort is ignored", async () => {
    const query = () => platform.visitorClient().items.query("Trails").ascending("_id");
    const seeded = ids((await query().randomSort({ seed: 7 }).find()).items);
    expect(ids((await query().randomSort({ seed: 7 }).find()).items)).toEqual(seeded);
    expect(ids((await query().randomSort({ seed: 8 }).find()).items)).not.toEqual(seeded);
    expect(seeded).not.toEqual(ids((await query().find()).items));
    expect([...seeded].sort()).toEqual(ids((await query().find()).items));
  });

  it("pages through a seeded order without repeats, and a cursor keeps an unseeded shuffle", async () => {
    const first = await platform.visitorClient().items.query("Trails").randomSort({ seed: 3 }).limit(6).find();
    const second = await first.next();
    const third = await second.next();
    const paged = [...ids(first.items), ...ids(second.items), ...ids(third.items)];
    expect(paged).toEqual(ids((await platform.visitorClient().items.query("Trails").randomSort({ seed: 3 }).find()).items));

    const post = (body: unknown) =>
      fetch("https://www.wixapis.com/wix-data/v2/items/query", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    type Page = { dataItems: { id: string }[]; pagingMetadata: { cursors: { next?: string } } };
    const start = (await (await post({ dataCollectionId: "Trails", sortMode: "RANDOM", query: { cursorPaging: { limit: 8 } } })).json()) as Page;
    const rest = (await (await post({ dataCollectionId: "Trails", query: { cursorPaging: { cursor: start.pagingMetadata.cursors.next } } })).json()) as Page;
    expect(new Set([...start.dataItems, ...rest.dataItems].map((item) => item.id)).size).toBe(15);
  });
});

describe("cursor page size", () => {
  it("is at most 100 per cursor page (WDE0077) while offset pages go to 1000", async () => {
    const post = (query: unknown) =>
      fetch("https://www.wixapis.com/wix-data/v2/items/query", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ dataCollectionId: "Trails", query }),
      });
    const refused = await post({ cursorPaging: { limit: 101 } });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { details: { applicationError: { code: string } } }).details.applicationError.code).toBe("WDE0077");
    expect((await post({ cursorPaging: { limit: 100 } })).status).toBe(200);
    expect((await post({ paging: { limit: 1000 } })).status).toBe(200);
  });
});
