import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { indexes } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { compileFilter } from "./query-compiler";
import { codeOf, createCollection } from "./test-support";

/** Collection indexes through the real `@wix/data` `indexes` module, and the SQLite indexes behind them. */

let platform: TestPlatform;
const admin = () => createClient({ modules: { indexes }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) }).indexes;
const items = () => platform.adminClient().items;
/** Exported at runtime by the installed module but missing from its typings. */
const available = (collection: string) =>
  (admin() as unknown as { listAvailableIndexes(id: string): Promise<{ regular3Field?: number; unique1Field?: number; total?: number }> }).listAvailableIndexes(
    collection,
  );

/** Polls until the index leaves `from`, and answers it. */
async function settle(collection: string, name: string, from: string) {
  for (;;) {
    const found = (await admin().listIndexes(collection)).indexes?.find((index) => index.name === name);
    if (found?.status !== from) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  platform = await startTestPlatform();
  const permissions = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;
  await createCollection(platform, "Parts", [{ key: "name", type: "TEXT" }], permissions);
  await createCollection(platform, "Users", [{ key: "email", type: "TEXT" }], permissions);
  await createCollection(platform, "Dupes", [{ key: "sku", type: "TEXT" }], permissions);
  await items().bulkInsert(
    "Parts",
    Array.from({ length: 200 }, (_, i) => ({ _id: `p${i}`, name: `Part ${i}`, code: `c-${i}`, rank: i % 7 })),
  );
  await items().bulkInsert("Dupes", [
    { _id: "d1", sku: "A" },
    { _id: "d2", sku: "B" },
    { _id: "d3", sku: "A" },
  ]);
});
afterAll(() => platform.close());

describe("regular indexes", () => {
  it("builds (BUILDING → ACTIVE) a real SQLite index that the planner uses for a query on the field", async () => {
    const created = await admin().createIndex("Parts", { name: "by-code", fields: [{ path: "code", order: "DESC" }] });
    expect(created).toMatchObject({ name: "by-code", status: "BUILDING", unique: false, fields: [{ path: "code", order: "DESC" }] });
    expect((await settle("Parts", "by-code", "BUILDING"))?.status).toBe("ACTIVE");

    const sqlName = platform.ctx.data.indexes.list("Parts")[0].sqlName;
    const where = compileFilter({ code: "c-5" }, { scope: { sql: "collection_id = ?", params: ["Parts"] }, systemColumns: true });
    const plan = platform.ctx.db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM data_items WHERE ${where.sql}`).all(...where.params) as { detail: string }[];
    expect(plan.map((step) => step.detail).join("\n")).toContain(`USING INDEX ${sqlName}`);
    expect((await items().query("Parts").eq("code", "c-5").find()).items.map((item) => item._id)).toEqual(["p5"]);
  });

  it("lists indexes and what is left of the limits, and refuses a second index on the same name or fields", async () => {
    expect(await available("Parts")).toMatchObject({ regular3Field: 2, unique1Field: 1, total: 3 });
    expect(await codeOf(admin().createIndex("Parts", { name: "by-code", fields: [{ path: "rank" }] }))).toBe("WDE0164");
    expect(await codeOf(admin().createIndex("Parts", { name: "other", fields: [{ path: "code", order: "DESC" }] }))).toBe("WDE0164");
    await admin().createIndex("Parts", { name: "by-rank", fields: [{ path: "rank" }, { path: "name" }] });
    await admin().createIndex("Parts", { name: "by-name", fields: [{ path: "name" }] });
    expect(await codeOf(admin().createIndex("Parts", { name: "fourth", fields: [{ path: "x" }] }))).toBe("WDE0075");
    expect((await admin().listIndexes("Parts")).indexes?.map((index) => index.name)).toEqual(["by-code", "by-rank", "by-name"]);
  });

  it("drops an index (DROPPING → DROPPED), removing the SQLite index and freeing the quota", async () => {
    const byName = platform.ctx.data.indexes.find("Parts", "by-name")!;
    // The drop runs after the request that asks for it: right after asking, the index is DROPPING.
    platform.ctx.data.indexes.drop(byName);
    expect(platform.ctx.data.indexes.find("Parts", "by-name")?.status).toBe("DROPPING");
    expect((await settle("Parts", "by-name", "DROPPING"))?.status).toBe("DROPPED");

    const byRank = platform.ctx.data.indexes.find("Parts", "by-rank")!;
    await admin().dropIndex("Parts", "by-rank");
    expect((await settle("Parts", "by-rank", "DROPPING"))?.status).toBe("DROPPED");
    for (const { sqlName } of [byName, byRank]) expect(platform.ctx.db.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?").get(sqlName)).toBeUndefined();
    expect((await available("Parts")).total).toBe(3);
    expect(await codeOf(admin().dropIndex("Parts", "by-name"))).toBe("WDE0075");
  });
});

describe("unique indexes", () => {
  it("refuse duplicate values on insert, update and in bulk with WDE0123", async () => {
    await admin().createIndex("Users", { name: "email", fields: [{ path: "email" }], unique: true });
    expect((await settle("Users", "email", "BUILDING"))?.status).toBe("ACTIVE");
    await items().insert("Users", { _id: "u1", email: "a@example.com" });
    await items().insert("Users", { _id: "u2", email: "b@example.com" });
    expect(await codeOf(items().insert("Users", { _id: "u3", email: "a@example.com" }))).toBe("WDE0123");
    expect(await codeOf(items().update("Users", { _id: "u2", email: "a@example.com" }))).toBe("WDE0123");
    // Type-strict: the number 5 and the text "5" are different values.
    await items().insert("Users", { _id: "u4", email: 5 });
    await items().insert("Users", { _id: "u5", email: "5" });
    const bulk = await items().bulkInsert("Users", [
      { _id: "u6", email: "c@example.com" },
      { _id: "u7", email: "c@example.com" },
    ]);
    expect([
      bulk.inserted,
      bulk.errors.map(
        (error) =>
          (error as { code?: string; details?: { applicationError?: { code?: string } } }).details?.applicationError?.code ?? (error as { code?: string }).code,
      ),
    ]).toEqual([1, ["WDE0123"]]);
  });

  it("a build over existing duplicates ends FAILED with WDE0113 naming an item", async () => {
    await admin().createIndex("Dupes", { name: "sku", fields: [{ path: "sku" }], unique: true });
    const failed = await settle("Dupes", "sku", "BUILDING");
    expect(failed?.status).toBe("FAILED");
    expect(failed?.failure).toMatchObject({ code: "WDE0113", itemId: "d1" });
    await items().insert("Dupes", { _id: "d4", sku: "A" });
  });

  it("refuse more than one field, and callers without the admin key", async () => {
    expect(await codeOf(admin().createIndex("Dupes", { name: "two", fields: [{ path: "a" }, { path: "b" }], unique: true }))).toBe("WDE0075");
    const anonymous = await fetch("https://www.wixapis.com/wix-data/v2/indexes?dataCollectionId=Dupes");
    expect([anonymous.status, ((await anonymous.json()) as { details: { applicationError: { code: string } } }).details.applicationError.code]).toEqual([
      403,
      "WDE0027",
    ]);
    expect(await codeOf(admin().listIndexes("Nope"))).toBe("WDE0025");
  });
});
