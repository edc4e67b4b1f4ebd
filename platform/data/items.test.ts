import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { SITE_OWNER_ID } from "./permissions";
import { codeOf, createCollection } from "./test-support";

/** Single-item, patch, bulk and paging endpoints through the real `@wix/data` client. */

let platform: TestPlatform;
const admin = () => platform.adminClient().items;

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Notes",
    [
      { key: "title", type: "TEXT" },
      { key: "n", type: "NUMBER" },
    ],
    {
      read: "ANYONE",
      insert: "ADMIN",
      update: "ADMIN",
      remove: "ADMIN",
    },
  );
});
afterAll(() => platform.close());

describe("single items", () => {
  it("insert generates a UUID _id and stamps the system fields", async () => {
    const item = await admin().insert("Notes", { title: "first" });
    expect(item._id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(item._createdDate).toBeInstanceOf(Date);
    expect((item._updatedDate as Date).getTime()).toBe((item._createdDate as Date).getTime());
    expect(item._owner).toBe(SITE_OWNER_ID);
    expect(item.title).toBe("first");
  });

  it("insert keeps a custom _id and ignores client-sent system dates", async () => {
    const item = await admin().insert("Notes", { _id: "custom-1", title: "c", _createdDate: new Date("2000-01-01") });
    expect(item._id).toBe("custom-1");
    expect((item._createdDate as Date).getFullYear()).toBeGreaterThan(2020);
  });

  it("insert of an existing _id fails with WDE0074", async () => {
    await admin().insert("Notes", { _id: "dup", title: "x" });
    expect(await codeOf(admin().insert("Notes", { _id: "dup", title: "y" }))).toBe("WDE0074");
    expect((await admin().get("Notes", "dup"))?.title).toBe("x");
  });

  it("get returns the item, and null for a missing id", async () => {
    await admin().insert("Notes", { _id: "g1", title: "get me", n: 3 });
    expect(await admin().get("Notes", "g1")).toMatchObject({ _id: "g1", title: "get me", n: 3 });
    expect(await admin().get("Notes", "missing")).toBeNull();
  });

  it("get with fields projects, keeping _id", async () => {
    await admin().insert("Notes", { _id: "g2", title: "t", n: 1 });
    const item = await admin().get("Notes", "g2", { fields: ["n"] } as never);
    expect(item).toEqual({ _id: "g2", n: 1 });
  });

  it("update replaces the whole item and keeps _createdDate", async () => {
    const inserted = await admin().insert("Notes", { _id: "u1", title: "old", n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await admin().update("Notes", { _id: "u1", title: "new" });
    expect(updated.title).toBe("new");
    expect(updated.n).toBeUndefined();
    expect((updated._createdDate as Date).getTime()).toBe((inserted._createdDate as Date).getTime());
    expect((updated._updatedDate as Date).getTime()).toBeGreaterThan((inserted._updatedDate as Date).getTime());
    expect(await admin().get("Notes", "u1")).toMatchObject({ title: "new" });
  });

  it("update of a missing item fails with WDE0073", async () => {
    expect(await codeOf(admin().update("Notes", { _id: "nope", title: "x" }))).toBe("WDE0073");
  });

  it("save inserts a new item and updates an existing one", async () => {
    const first = await admin().save("Notes", { _id: "s1", title: "one" });
    expect(first.title).toBe("one");
    const second = await admin().save("Notes", { _id: "s1", title: "two" });
    expect(second.title).toBe("two");
    const generated = await admin().save("Notes", { title: "no id" });
    expect(typeof generated._id).toBe("string");
  });

  it("remove returns the removed item, then get is null, and removing again is null", async () => {
    await admin().insert("Notes", { _id: "r1", title: "bye" });
    expect(await admin().remove("Notes", "r1")).toMatchObject({ _id: "r1", title: "bye" });
    expect(await admin().get("Notes", "r1")).toBeNull();
    expect(await admin().remove("Notes", "r1")).toBeNull();
  });
});

describe("patch", () => {
  it("applies SET, INCREMENT, APPEND, REMOVE_FROM_ARRAY and REMOVE_FIELD in order", async () => {
    await admin().insert("Notes", { _id: "p1", title: "t", n: 1, list: ["a", "b", "a"], gone: true });
    const patched = await admin()
      .patch("Notes", "p1")
      .setField("title", "patched")
      .incrementField("n", 4)
      .appendToArray("list", "c")
      .removeFromArray("list", "a")
      .removeField("gone")
      .run();
    expect(patched).toMatchObject({ title: "patched", n: 5, list: ["b", "a", "c"] });
    expect(patched.gone).toBeUndefined();
  });

  it("increments a missing field from zero, decrements with a negative value, and sets nested paths", async () => {
    await admin().insert("Notes", { _id: "p2" });
    const patched = await admin().patch("Notes", "p2").incrementField("count", -2).setField("address.city", "Oslo").appendToArray("fresh", 1).run();
    expect(patched).toMatchObject({ count: -2, address: { city: "Oslo" }, fresh: [1] });
  });

  it("bumps _updatedDate", async () => {
    const inserted = await admin().insert("Notes", { _id: "p3", n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const patched = await admin().patch("Notes", "p3").incrementField("n", 1).run();
    expect((patched._updatedDate as Date).getTime()).toBeGreaterThan((inserted._updatedDate as Date).getTime());
  });

  it("fails with WDE0073 on a missing item", async () => {
    expect(await codeOf(admin().patch("Notes", "nope").setField("a", 1).run())).toBe("WDE0073");
  });

  it("refuses to increment a non-number and leaves the item unchanged", async () => {
    await admin().insert("Notes", { _id: "p4", title: "text" });
    expect(await codeOf(admin().patch("Notes", "p4").incrementField("title", 1).run())).toBe("WDE0080");
    expect((await admin().get("Notes", "p4"))?.title).toBe("text");
  });
});

describe("bulk", () => {
  it("bulkInsert reports inserted ids and skips existing ids (WDE0074)", async () => {
    await admin().insert("Notes", { _id: "b-existing" });
    const result = await admin().bulkInsert("Notes", [{ _id: "b1", n: 1 }, { _id: "b-existing" }, { _id: "b2", n: 2 }]);
    expect(result.inserted).toBe(2);
    expect(result.skipped).toBe(1);
    expect(result.insertedItemIds?.sort()).toEqual(["b1", "b2"]);
  });

  it("bulkSave inserts and updates", async () => {
    const result = await admin().bulkSave("Notes", [
      { _id: "b1", n: 10 },
      { _id: "b3", n: 3 },
    ]);
    expect(result.inserted).toBe(1);
    expect(result.updated).toBe(1);
    expect((await admin().get("Notes", "b1"))?.n).toBe(10);
  });

  it("bulkInsert with overrideExisting saves", async () => {
    const result = await admin().bulkInsert("Notes", [{ _id: "b2", n: 20 }], { overrideExisting: true } as never);
    expect(result.updated).toBe(1);
    expect((await admin().get("Notes", "b2"))?.n).toBe(20);
  });

  it("bulkUpdate skips missing items (WDE0073)", async () => {
    const result = await admin().bulkUpdate("Notes", [
      { _id: "b1", n: 11 },
      { _id: "missing", n: 0 },
    ]);
    expect(result.updated).toBe(1);
    expect(result.skipped).toBe(1);
  });

  it("bulkPatch patches each item", async () => {
    const result = await admin().bulkPatch("Notes", ["b1", "b2", "missing"]).incrementField("n", 1).run();
    expect(result.updated).toBe(2);
    expect(result.skipped).toBe(1);
    expect((await admin().get("Notes", "b2"))?.n).toBe(21);
  });

  it("bulkRemove removes and skips missing ids", async () => {
    const result = await admin().bulkRemove("Notes", ["b1", "b2", "missing"]);
    expect(result.removed).toBe(2);
    expect(result.removedItemIds?.sort()).toEqual(["b1", "b2"]);
    expect(await admin().get("Notes", "b1")).toBeNull();
  });

  it("reports per-item results with originalIndex, success and action on the wire", async () => {
    const response = await fetch("https://www.wixapis.com/wix-data/v2/bulk/items/insert", {
      method: "POST",
      headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ dataCollectionId: "Notes", dataItems: [{ data: { _id: "w1" } }, { data: { _id: "w1" } }, { data: { _id: 5 } }] }),
    });
    const body = (await response.json()) as {
      results: { action: string; itemMetadata: { originalIndex: number; success: boolean; error?: { code: string } } }[];
      bulkActionMetadata: { totalSuccesses: number; totalFailures: number };
    };
    expect(body.results.map((r) => [r.action, r.itemMetadata.originalIndex, r.itemMetadata.success, r.itemMetadata.error?.code])).toEqual([
      ["INSERT", 0, true, undefined],
      ["INSERT", 1, false, "WDE0074"],
      ["INSERT", 2, false, "WDE0007"],
    ]);
    expect(body.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 2 });
  });

  it("accepts 1000 items and refuses 1001 with a clear 400, storing nothing", async () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => ({ _id: `k${i}`, n: i }));
    expect((await admin().bulkInsert("Notes", thousand)).inserted).toBe(1000);
    const response = await fetch("https://www.wixapis.com/wix-data/v2/bulk/items/insert", {
      method: "POST",
      headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ dataCollectionId: "Notes", dataItems: Array.from({ length: 1001 }, (_, i) => ({ data: { _id: `over${i}` } })) }),
    });
    expect(response.status).toBe(400);
    expect(await admin().get("Notes", "over0")).toBeNull();
  });

  it("truncate removes every item", async () => {
    await createCollection(platform, "Scratch", [], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
    await admin().bulkInsert("Scratch", [{ a: 1 }, { a: 2 }]);
    await admin().truncate("Scratch");
    expect((await admin().query("Scratch").find()).items).toHaveLength(0);
  });
});

describe("query paging, sorting and projection", () => {
  beforeAll(async () => {
    await createCollection(
      platform,
      "Pages",
      [
        { key: "n", type: "NUMBER" },
        { key: "s", type: "TEXT" },
      ],
      {
        read: "ANYONE",
        insert: "ADMIN",
        update: "ADMIN",
        remove: "ADMIN",
      },
    );
    await admin().bulkInsert(
      "Pages",
      Array.from({ length: 120 }, (_, i) => ({ _id: `i${String(i).padStart(3, "0")}`, n: i % 10, s: i % 3 === 0 ? undefined : `v${i % 7}` })),
    );
  });

  it("defaults to 50 items and reports hasNext", async () => {
    const page = await platform.visitorClient().items.query("Pages").find();
    expect(page.items).toHaveLength(50);
    expect(page.hasNext()).toBe(true);
    expect(page.totalCount).toBeUndefined();
  });

  it("returns totalCount only when asked", async () => {
    const page = await platform.visitorClient().items.query("Pages").limit(10).find({ returnTotalCount: true });
    expect(page.totalCount).toBe(120);
    expect(page.totalPages).toBe(12);
  });

  it("accepts limit 1000 and rejects 1001 with WDE0077", async () => {
    expect((await platform.visitorClient().items.query("Pages").limit(1000).find()).items).toHaveLength(120);
    expect(await codeOf(platform.visitorClient().items.query("Pages").limit(1001).find())).toBe("WDE0077");
  });

  it("pages through everything with next() without repeats", async () => {
    let page = await platform.visitorClient().items.query("Pages").ascending("n").limit(25).find();
    const seen = [...page.items];
    while (page.hasNext()) {
      page = await page.next();
      seen.push(...page.items);
    }
    expect(seen).toHaveLength(120);
    expect(new Set(seen.map((i) => i._id)).size).toBe(120);
  });

  it("an offset past the end is an empty last page", async () => {
    const page = await platform.visitorClient().items.query("Pages").skip(500).find();
    expect(page.items).toHaveLength(0);
    expect(page.hasNext()).toBe(false);
  });

  it("sorts by several keys with missing values lowest", async () => {
    const page = await platform.visitorClient().items.query("Pages").ascending("s").descending("n").limit(1000).find();
    const missing = page.items.filter((i) => i.s === undefined);
    expect(page.items.slice(0, missing.length).every((i) => i.s === undefined)).toBe(true);
    const firstNs = page.items.slice(0, missing.length).map((i) => i.n as number);
    expect(firstNs).toEqual([...firstNs].sort((a, b) => b - a));
    const descending = await platform.visitorClient().items.query("Pages").descending("s").limit(1000).find();
    expect(descending.items.at(-1)?.s).toBeUndefined();
  });

  it("projects fields", async () => {
    const page = await platform.visitorClient().items.query("Pages").eq("_id", "i001").fields("n").find();
    expect(page.items).toEqual([{ _id: "i001", n: 1 }]);
  });

  it("follows self-contained cursors that carry no filter or sort", async () => {
    const post = async (body: unknown) =>
      (await (
        await fetch("https://www.wixapis.com/wix-data/v2/items/query", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json()) as { dataItems: { data: { _id: string; n: number } }[]; pagingMetadata: { hasNext: boolean; cursors: { next?: string; prev?: string } } };
    const first = await post({
      dataCollectionId: "Pages",
      query: { filter: { n: { $lt: 3 } }, sort: [{ fieldName: "_id", order: "DESC" }], cursorPaging: { limit: 10 } },
    });
    expect(first.dataItems.map((i) => i.data._id).slice(0, 2)).toEqual(["i112", "i111"]);
    expect(first.pagingMetadata.hasNext).toBe(true);
    const seen = first.dataItems.map((i) => i.data._id);
    let cursor = first.pagingMetadata.cursors.next;
    while (cursor) {
      const page = await post({ dataCollectionId: "Pages", query: { cursorPaging: { limit: 10, cursor } } });
      expect(page.dataItems.every((i) => i.data.n < 3)).toBe(true);
      expect(typeof page.pagingMetadata.cursors.prev).toBe("string");
      seen.push(...page.dataItems.map((i) => i.data._id));
      cursor = page.pagingMetadata.cursors.next;
    }
    expect(seen).toHaveLength(36);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("rejects a malformed cursor with WDE0151", async () => {
    expect(await codeOf(platform.visitorClient().items.query("Pages", { cursorPaging: { cursor: "garbage!", limit: 5 } } as never))).toBe("WDE0151");
  });

  it("counts, and lists distinct values with order", async () => {
    const client = platform.visitorClient();
    expect(await client.items.query("Pages").eq("n", 3).count()).toBe(12);
    const distinct = await client.items.query("Pages").ascending("n").distinct("n");
    expect(distinct.items).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const descending = await client.items.query("Pages").lt("n", 3).descending("n").distinct("n");
    expect(descending.items).toEqual([2, 1, 0]);
  });

  it("lists distinct text values, leaving out missing ones", async () => {
    const distinct = await platform.visitorClient().items.query("Pages").distinct("s");
    expect(distinct.items).toEqual(["v0", "v1", "v2", "v3", "v4", "v5", "v6"]);
  });
});
