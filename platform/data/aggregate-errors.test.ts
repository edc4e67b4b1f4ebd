import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection } from "./test-support";

/** Aggregate, search and bad input through the real client and raw HTTP. */

let platform: TestPlatform;
const admin = () => platform.adminClient().items;
const raw = (path: string, init: RequestInit = {}) =>
  fetch(`https://www.wixapis.com${path}`, { ...init, headers: { authorization: platform.config.apiKey, "content-type": "application/json", ...init.headers } });

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Cities",
    [
      { key: "state", type: "TEXT" },
      { key: "pop", type: "NUMBER" },
    ],
    { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  );
  await admin().bulkInsert("Cities", [
    { _id: "ny1", state: "NY", city: "New York", pop: 8 },
    { _id: "ny2", state: "NY", city: "Buffalo", pop: 1 },
    { _id: "ca1", state: "CA", city: "Los Angeles", pop: 4 },
    { _id: "ca2", state: "CA", city: "San Diego", pop: 1.5 },
    { _id: "tx1", state: "TX", city: "Austin", pop: 1 },
  ]);
});
afterAll(() => platform.close());

describe("aggregate", () => {
  it("groups with count, sum, avg, min and max", async () => {
    const result = await admin().aggregate("Cities").group("state").count().sum("pop").avg("pop").min("pop").max("pop").ascending("state").run();
    expect(result.items).toEqual([
      { _id: "CA", state: "CA", count: 2, popSum: 5.5, popAvg: 2.75, popMin: 1.5, popMax: 4 },
      { _id: "NY", state: "NY", count: 2, popSum: 9, popAvg: 4.5, popMin: 1, popMax: 8 },
      { _id: "TX", state: "TX", count: 1, popSum: 1, popAvg: 1, popMin: 1, popMax: 1 },
    ]);
  });

  it("filters before grouping, filters results with having, sorts and limits", async () => {
    const client = platform.visitorClient().items;
    const result = await client
      .aggregate("Cities")
      .filter(client.filter().gt("pop", 1))
      .group("state")
      .max("pop")
      .having(client.filter().gt("popMax", 2))
      .descending("popMax")
      .limit(1)
      .run();
    expect(result.items).toEqual([{ _id: "NY", state: "NY", popMax: 8 }]);
  });

  it("aggregates the whole collection without grouping", async () => {
    const result = await admin().aggregate("Cities").sum("pop").count().run();
    expect(result.items).toEqual([{ _id: null, popSum: 15.5, count: 5 }]);
  });

  it("groups by several fields, keeping _id an object", async () => {
    const result = await admin().aggregate("Cities").group("state", "pop").count().ascending("count").descending("state").limit(2).run();
    expect(result.items[0]).toEqual({ _id: { state: "TX", pop: 1 }, state: "TX", pop: 1, count: 1 });
  });

  it("keeps quotes in result names as data, not SQL", async () => {
    const response = await raw("/wix-data/v2/items/aggregate", {
      method: "POST",
      body: JSON.stringify({
        dataCollectionId: "Cities",
        aggregation: { groupingFields: [], operations: [{ resultFieldName: "it's', 1) --", itemCount: {} }] },
      }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { results: Record<string, unknown>[] }).results).toEqual([{ _id: null, "it's', 1) --": 5 }]);
  });

  it("min and max of dates come back as dates", async () => {
    await createCollection(platform, "Runs", [{ key: "at", type: "DATETIME" }], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
    await admin().bulkInsert("Runs", [{ at: new Date("2024-01-02T00:00:00Z") }, { at: new Date("2023-05-06T00:00:00Z") }]);
    const result = await admin().aggregate("Runs").min("at").max("at").run();
    expect(result.items[0].atMin).toEqual(new Date("2023-05-06T00:00:00Z"));
    expect(result.items[0].atMax).toEqual(new Date("2024-01-02T00:00:00Z"));
  });
});

describe("search", () => {
  it("finds items containing any word, case-folded, combined with a filter", async () => {
    const search = (body: unknown) =>
      raw("/wix-data/v2/items/search", { method: "POST", body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ dataItems: { id: string }[] }>);
    const any = await search({ dataCollectionId: "Cities", search: { search: { expression: "york AUSTIN" } } });
    expect(any.dataItems.map((i) => i.id).sort()).toEqual(["ny1", "tx1"]);
    const all = await search({ dataCollectionId: "Cities", search: { search: { expression: "san diego", mode: "AND" } } });
    expect(all.dataItems.map((i) => i.id)).toEqual(["ca2"]);
    const filtered = await search({ dataCollectionId: "Cities", search: { filter: { state: "NY" }, search: { expression: "o" } } });
    expect(filtered.dataItems.map((i) => i.id).sort()).toEqual(["ny1", "ny2"]);
  });
});

describe("bad input: clear errors, no 500s, nothing lost", () => {
  it("unknown collection is WDE0025 for every kind of call", async () => {
    expect(await codeOf(admin().get("Nope", "x"))).toBe("WDE0025");
    expect(await codeOf(admin().insert("Nope", { a: 1 }))).toBe("WDE0025");
    expect(await codeOf(admin().bulkInsert("Nope", [{ a: 1 }]))).toBe("WDE0025");
    expect(await codeOf(admin().query("Nope").count())).toBe("WDE0025");
    expect(await codeOf(admin().aggregate("Nope").count().run())).toBe("WDE0025");
  });

  it("answers WDE0025 with HTTP 404", async () => {
    const response = await raw("/wix-data/v2/items/count", { method: "POST", body: JSON.stringify({ dataCollectionId: "Nope" }) });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: "WDE0025" } } });
  });

  it("malformed JSON is a 400 with a clear message", async () => {
    const response = await raw("/wix-data/v2/items", { method: "POST", body: "{not json" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe("Request body is not valid JSON.");
  });

  it("a malformed .r parameter is a 400", async () => {
    const response = await raw("/wix-data/v2/items/query?.r=***");
    expect(response.status).toBe(400);
    const notJson = await raw(`/wix-data/v2/items/query?.r=${Buffer.from("{oops").toString("base64url")}`);
    expect(notJson.status).toBe(400);
  });

  it("a missing dataCollectionId is a 400 naming the field", async () => {
    const response = await raw("/wix-data/v2/items", { method: "POST", body: JSON.stringify({ dataItem: { data: {} } }) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain("dataCollectionId");
  });

  it("type mismatches in the request are 400s", async () => {
    const cases: [string, unknown][] = [
      ["/wix-data/v2/items", { dataCollectionId: "Cities", dataItem: { data: "text" } }],
      ["/wix-data/v2/items", { dataCollectionId: "Cities", dataItem: { data: { _id: 42 } } }],
      ["/wix-data/v2/items", { dataCollectionId: "Cities", dataItem: { data: { $bad: 1 } } }],
      ["/wix-data/v2/items/query", { dataCollectionId: "Cities", query: { paging: { limit: "many" } } }],
      ["/wix-data/v2/items/query", { dataCollectionId: "Cities", query: { sort: [{ fieldName: "pop", order: "UP" }] } }],
      ["/wix-data/v2/items/query", { dataCollectionId: "Cities", query: { filter: [1, 2] } }],
      ["/wix-data/v2/items/patch", { dataCollectionId: "Cities", patch: { dataItemId: "ny1", fieldModifications: [] } }],
      ["/wix-data/v2/items/patch", { dataCollectionId: "Cities", patch: { dataItemId: "ny1", fieldModifications: [{ fieldPath: "pop", action: "EXPLODE" }] } }],
      ["/wix-data/v2/bulk/items/remove", { dataCollectionId: "Cities", dataItemIds: [] }],
      ["/wix-data/v2/items/aggregate", { dataCollectionId: "Cities", aggregation: { operations: [{ resultFieldName: "x" }] } }],
    ];
    for (const [path, body] of cases) {
      const response = await raw(path, { method: "POST", body: JSON.stringify(body) });
      expect([path, response.status]).toEqual([path, 400]);
      expect(((await response.json()) as { details: { applicationError: { code: string } } }).details.applicationError.code).toMatch(/^WDE0/);
    }
    expect(await admin().query("Cities").count()).toBe(5);
    expect((await admin().get("Cities", "ny1"))?.pop).toBe(8);
  });

  it("an oversized payload is 413 and surfaces as WDE0109", async () => {
    const huge = "x".repeat(9 * 1024 * 1024);
    expect(await codeOf(admin().insert("Cities", { huge }))).toBe("WDE0109");
    expect(await admin().query("Cities").count()).toBe(5);
  });

  it("an item over 500 KB is refused with WDE0009", async () => {
    expect(await codeOf(admin().insert("Cities", { big: "x".repeat(600 * 1024) }))).toBe("WDE0009");
  });

  it("a bad cursor mixed with skip is WDE0080", async () => {
    const response = await raw("/wix-data/v2/items/query", {
      method: "POST",
      body: JSON.stringify({ dataCollectionId: "Cities", query: { paging: { offset: 5 }, cursorPaging: { cursor: "abc" } } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: "WDE0080" } } });
  });

  it("the REST reference's verbs work too: PUT update, DELETE remove", async () => {
    await admin().insert("Cities", { _id: "tmp", state: "ZZ" });
    const put = await raw("/wix-data/v2/items/tmp", {
      method: "PUT",
      body: JSON.stringify({ dataCollectionId: "Cities", dataItem: { data: { state: "YY" } } }),
    });
    expect(put.status).toBe(200);
    expect((await admin().get("Cities", "tmp"))?.state).toBe("YY");
    const removed = await raw("/wix-data/v2/items/tmp?dataCollectionId=Cities", { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(await admin().get("Cities", "tmp")).toBeNull();
  });
});
