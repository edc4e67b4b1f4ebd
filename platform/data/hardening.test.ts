import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection } from "./test-support";

/**
 * Hostile and malformed data requests: every one gets a 4xx in the error envelope with a WDE
 * code, never a 500 (docs/platform/data.md §8, §9). Raw HTTP for what the client cannot send,
 * the real `@wix/data` client for what it can.
 */

let platform: TestPlatform;
const admin = () => platform.adminClient().items;
const COLLECTION = "Hard";

/** A raw JSON text, so bodies the client could never build (deep nesting, `__proto__` keys) are sent as written. */
const send = (path: string, body: string, method = "POST") =>
  fetch(`https://www.wixapis.com/wix-data/v2${path}`, {
    method,
    headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
    ...(method === "GET" ? {} : { body }),
  });

async function refusal(response: Response) {
  const body = (await response.json()) as { message: string; details?: { applicationError?: { code?: string; description?: string } } };
  return { status: response.status, code: body.details?.applicationError?.code, message: body.message };
}

const json = (value: unknown) => JSON.stringify(value);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
const deepArray = (levels: number) => "[".repeat(levels) + "1" + "]".repeat(levels);
const cursorOf = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString("base64url");
const many = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    COLLECTION,
    [
      { key: "title", type: "TEXT" },
      { key: "links", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: COLLECTION } } },
    ],
    { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  );
  await admin().insert(COLLECTION, { _id: "one", title: "One" });
});
afterAll(() => platform.close());

describe("raw requests that used to fail inside the platform", () => {
  const cases: [name: string, path: string, body: string, code: string][] = [
    ["a NUL character in an item's field name", "/items", json({ dataCollectionId: COLLECTION, dataItem: { data: { "a\u0000b": 1 } } }), "WDE0076"],
    ["a NUL character in an item id", "/items", json({ dataCollectionId: COLLECTION, dataItem: { id: "a\u0000", data: {} } }), "WDE0075"],
    ["__proto__ as an item's field name", "/items", `{"dataCollectionId":"${COLLECTION}","dataItem":{"data":{"__proto__":{"x":1}}}}`, "WDE0075"],
    ["constructor as an item's field name", "/items", json({ dataCollectionId: COLLECTION, dataItem: { data: { constructor: 1 } } }), "WDE0076"],
    ["an item nested 5,000 objects deep", "/items", `{"dataCollectionId":"${COLLECTION}","dataItem":{"data":{"d":${deepObject(5000)}}}}`, "WDE0075"],
    ["an item nested 5,000 arrays deep", "/items", `{"dataCollectionId":"${COLLECTION}","dataItem":{"data":{"d":${deepArray(5000)}}}}`, "WDE0075"],
    ["a filter nested 5,000 deep", "/items/query", `{"dataCollectionId":"${COLLECTION}","query":{"filter":${deepObject(5000)}}}`, "WDE0075"],
    ["a count filter nested 5,000 deep", "/items/count", `{"dataCollectionId":"${COLLECTION}","filter":${deepObject(5000)}}`, "WDE0075"],
    ["a NUL character in a filter's field name", "/items/query", json({ dataCollectionId: COLLECTION, query: { filter: { "a\u0000": 1 } } }), "WDE0075"],
    ["__proto__ in a filter", "/items/query", `{"dataCollectionId":"${COLLECTION}","query":{"filter":{"__proto__":1}}}`, "WDE0075"],
    ["constructor in a filter", "/items/query", json({ dataCollectionId: COLLECTION, query: { filter: { constructor: 1 } } }), "WDE0075"],
    ["constructor as a sort field", "/items/query", json({ dataCollectionId: COLLECTION, query: { sort: [{ fieldName: "constructor" }] } }), "WDE0075"],
    ["a NUL character in a sort field", "/items/query", json({ dataCollectionId: COLLECTION, query: { sort: [{ fieldName: "a\u0000" }] } }), "WDE0075"],
    ["5,000 sort keys", "/items/query", json({ dataCollectionId: COLLECTION, query: { sort: many(5000, (i) => ({ fieldName: `f${i}` })) } }), "WDE0075"],
    [
      "$in with 40,000 values",
      "/items/query",
      json({ dataCollectionId: COLLECTION, query: { filter: { title: { $in: many(40000, (i) => `v${i}`) } } } }),
      "WDE0075",
    ],
    [
      "$or of 40,000 conditions",
      "/items/query",
      json({ dataCollectionId: COLLECTION, query: { filter: { $or: many(40000, (i) => ({ title: `v${i}` })) } } }),
      "WDE0075",
    ],
    [
      "a filter on 20,000 fields",
      "/items/query",
      json({ dataCollectionId: COLLECTION, query: { filter: Object.fromEntries(many(20000, (i) => [`k${i}`, 1] as const)) } }),
      "WDE0075",
    ],
    ["reserved names in a projection", "/items/query", json({ dataCollectionId: COLLECTION, query: { fields: ["constructor"] } }), "WDE0075"],
    ["a NUL character in a projection", "/items/query", json({ dataCollectionId: COLLECTION, query: { fields: ["a\u0000"] } }), "WDE0075"],
    [
      "a search of 40,000 words",
      "/items/search",
      json({ dataCollectionId: COLLECTION, search: { search: { expression: many(40000, (i) => `w${i}`).join(" ") } } }),
      "WDE0075",
    ],
    [
      "a patch of a reserved path",
      "/items/patch",
      json({
        dataCollectionId: COLLECTION,
        patch: { dataItemId: "one", fieldModifications: [{ fieldPath: "a.constructor", action: "SET_FIELD", setFieldOptions: { value: 1 } }] },
      }),
      "WDE0080",
    ],
    [
      "a patch path with a NUL character",
      "/items/patch",
      json({
        dataCollectionId: COLLECTION,
        patch: { dataItemId: "one", fieldModifications: [{ fieldPath: "a\u0000", action: "SET_FIELD", setFieldOptions: { value: 1 } }] },
      }),
      "WDE0080",
    ],
    [
      "a patch value nested 5,000 deep",
      "/items/patch",
      `{"dataCollectionId":"${COLLECTION}","patch":{"dataItemId":"one","fieldModifications":` +
        `[{"fieldPath":"a","action":"SET_FIELD","setFieldOptions":{"value":${deepObject(5000)}}}]}}`,
      "WDE0075",
    ],
    [
      "reserved aggregate names",
      "/items/aggregate",
      json({ dataCollectionId: COLLECTION, aggregation: { groupingFields: ["constructor"], operations: [{ resultFieldName: "n", itemCount: {} }] } }),
      "WDE0075",
    ],
    [
      "a NUL character in an aggregate result name",
      "/items/aggregate",
      json({ dataCollectionId: COLLECTION, aggregation: { operations: [{ resultFieldName: "a\u0000", itemCount: {} }] } }),
      "WDE0075",
    ],
    [
      "5,000 grouping fields",
      "/items/aggregate",
      json({ dataCollectionId: COLLECTION, aggregation: { groupingFields: many(5000, (i) => `g${i}`) } }),
      "WDE0075",
    ],
    [
      "5,000 aggregate operations",
      "/items/aggregate",
      json({ dataCollectionId: COLLECTION, aggregation: { operations: many(5000, (i) => ({ resultFieldName: `r${i}`, itemCount: {} })) } }),
      "WDE0075",
    ],
    ["a NUL character in a distinct field", "/items/query-distinct-values", json({ dataCollectionId: COLLECTION, fieldName: "a\u0000" }), "WDE0075"],
    [
      "reserved names in a pipeline group",
      "/items/aggregate-pipeline",
      json({ dataCollectionId: COLLECTION, pipeline: { stages: [{ group: { groupIds: [{ key: "constructor", expression: { fieldPath: "title" } }] } }] } }),
      "WDE0075",
    ],
    [
      "a NUL character in a pipeline projection",
      "/items/aggregate-pipeline",
      json({ dataCollectionId: COLLECTION, pipeline: { stages: [{ projection: { fields: [{ include: { fieldName: "a\u0000" } }] } }] } }),
      "WDE0075",
    ],
    [
      "a pipeline expression of 40,000 operands",
      "/items/aggregate-pipeline",
      json({
        dataCollectionId: COLLECTION,
        pipeline: {
          stages: [
            { projection: { fields: [{ reshape: { resultFieldName: "r", expression: { add: { expressions: many(40000, () => ({ numeric: 1 })) } } } }] } },
          ],
        },
      }),
      "WDE0075",
    ],
    [
      "a pipeline projection of 5,000 fields",
      "/items/aggregate-pipeline",
      json({ dataCollectionId: COLLECTION, pipeline: { stages: [{ projection: { fields: many(5000, (i) => ({ include: { fieldName: `f${i}` } })) } }] } }),
      "WDE0075",
    ],
    [
      "null group ids in a pipeline",
      "/items/aggregate-pipeline",
      json({ dataCollectionId: COLLECTION, pipeline: { stages: [{ group: { groupIds: [null], accumulators: [] } }] } }),
      "WDE0075",
    ],
    [
      "a null sort in a pipeline",
      "/items/aggregate-pipeline",
      json({ dataCollectionId: COLLECTION, pipeline: { stages: [{ sort: { values: [null] } }] } }),
      "WDE0066",
    ],
    ["an unwind without a field", "/items/aggregate-pipeline", json({ dataCollectionId: COLLECTION, pipeline: { stages: [{ unwindArray: {} }] } }), "WDE0075"],
    ["a skip beyond safe integers", "/items/aggregate-pipeline", json({ dataCollectionId: COLLECTION, pipeline: { stages: [{ skip: 1e300 }] } }), "WDE0075"],
    [
      "a pipeline filter nested 5,000 deep",
      "/items/aggregate-pipeline",
      `{"dataCollectionId":"${COLLECTION}","pipeline":{"stages":[{"filter":${deepObject(5000)}}]}}`,
      "WDE0075",
    ],
    [
      "40,000 references in one call",
      "/bulk/items/insert-references",
      json({
        dataCollectionId: COLLECTION,
        dataItemReferences: many(40000, () => ({ referringItemFieldName: "links", referringItemId: "one", referencedItemId: "one" })),
      }),
      "WDE0075",
    ],
    [
      "a NUL character in a collection id",
      "/collections",
      json({ collection: { id: "Z\u0000", fields: [], permissions: { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" } } }),
      "WDE0075",
    ],
    [
      "constructor as a collection field",
      "/collections",
      json({
        collection: {
          id: "Z",
          fields: [{ key: "constructor", type: "TEXT" }],
          permissions: { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" },
        },
      }),
      "WDE0075",
    ],
    ["a body that is not JSON", "/items/query", "{not json", "WDE0075"],
  ];

  it.each(cases)("%s", async (_name, path, body, code) => {
    const answer = await refusal(await send(path, body));
    expect(answer.status).toBe(400);
    expect(answer.code).toBe(code);
  });

  it("refuses GET parameters that name a reserved key, and malformed .r values, with WDE0075", async () => {
    for (const query of [`dataCollectionId=${COLLECTION}&query.filter.__proto__.x=1`, ".r=%%%", `.r=${Buffer.from("[1]").toString("base64url")}`]) {
      const answer = await refusal(await send(`/items/query?${query}`, "", "GET"));
      expect([answer.status, answer.code]).toEqual([400, "WDE0075"]);
    }
  });

  it("accepts lists and filters below the limits", async () => {
    const response = await send(
      "/items/query",
      json({ dataCollectionId: COLLECTION, query: { filter: { $or: many(300, (i) => ({ title: i === 299 ? "One" : `v${i}` })) } } }),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { dataItems: unknown[] }).dataItems).toHaveLength(1);
  });
});

describe("forged cursors", () => {
  const forged: [name: string, path: string, body: (cursor: string) => unknown][] = [
    ["query", "/items/query", (cursor) => ({ dataCollectionId: COLLECTION, query: { cursorPaging: { cursor } } })],
    ["search", "/items/search", (cursor) => ({ dataCollectionId: COLLECTION, search: { cursorPaging: { cursor } } })],
    ["aggregate", "/items/aggregate", (cursor) => ({ dataCollectionId: COLLECTION, cursorPaging: { cursor } })],
    ["distinct", "/items/query-distinct-values", (cursor) => ({ dataCollectionId: COLLECTION, cursorPaging: { cursor } })],
    ["pipeline", "/items/aggregate-pipeline", (cursor) => ({ dataCollectionId: COLLECTION, pipeline: { cursorPaging: { cursor } } })],
    ["query-referenced", "/items/query-referenced", (cursor) => ({ dataCollectionId: COLLECTION, cursorPaging: { cursor } })],
  ];
  const cursors: [string, string][] = [
    ["without its state", cursorOf({ collectionId: COLLECTION, offset: 0, limit: 5 })],
    ["with a null state", cursorOf({ collectionId: COLLECTION, state: null, offset: 0, limit: 5 })],
    [
      "with a state of the wrong shape",
      cursorOf({ collectionId: COLLECTION, state: { filter: 5, sort: "x", referringIds: 7, search: { expression: 5 } }, offset: 0, limit: 5 }),
    ],
    ["with a negative position", cursorOf({ collectionId: COLLECTION, state: {}, offset: -5, limit: 5 })],
    ["that is not base64url JSON", "!!!"],
  ];

  for (const [endpoint, path, body] of forged) {
    it.each(cursors)(`${endpoint}: a cursor %s is WDE0151`, async (_name, cursor) => {
      const answer = await refusal(await send(path, json(body(cursor))));
      expect([answer.status, answer.code, answer.message]).toEqual([400, "WDE0151", "Incorrect cursor provided."]);
    });
  }

  it("a cursor the platform issued still works", async () => {
    const first = (await (await send("/items/query", json({ dataCollectionId: COLLECTION, query: { cursorPaging: { limit: 1 } } }))).json()) as {
      pagingMetadata: { hasNext: boolean };
    };
    expect(first.pagingMetadata.hasNext).toBe(false);
    await admin().insert(COLLECTION, { _id: "two", title: "Two" });
    const page = (await (await send("/items/query", json({ dataCollectionId: COLLECTION, query: { cursorPaging: { limit: 1 } } }))).json()) as {
      pagingMetadata: { cursors: { next: string } };
    };
    const next = await send("/items/query", json({ dataCollectionId: COLLECTION, query: { cursorPaging: { cursor: page.pagingMetadata.cursors.next } } }));
    expect(next.status).toBe(200);
    await admin().remove(COLLECTION, "two");
  });
});

describe("the same cases through the real @wix/data client", () => {
  it("refuses NUL and reserved field names in items", async () => {
    expect(await codeOf(admin().insert(COLLECTION, { "a\u0000b": 1 }))).toBe("WDE0076");
    expect(await codeOf(admin().insert(COLLECTION, { constructor: 1 } as Record<string, unknown>))).toBe("WDE0076");
  });

  it("refuses NUL and reserved names in filters and sorts", async () => {
    expect(await codeOf(admin().query(COLLECTION).eq("a\u0000", 1).find())).toBe("WDE0075");
    expect(await codeOf(admin().query(COLLECTION).eq("constructor", 1).find())).toBe("WDE0075");
    expect(await codeOf(admin().query(COLLECTION).ascending("constructor").find())).toBe("WDE0075");
  });

  it("refuses 5,000 sort keys and a 40,000-value hasSome", async () => {
    expect(
      await codeOf(
        admin()
          .query(COLLECTION)
          .ascending(...many(5000, (i) => `f${i}`))
          .find(),
      ),
    ).toBe("WDE0075");
    expect(
      await codeOf(
        admin()
          .query(COLLECTION)
          .hasSome(
            "title",
            many(40000, (i) => `v${i}`),
          )
          .find(),
      ),
    ).toBe("WDE0075");
  });

  it("refuses reserved projections, patch paths and aggregate groups", async () => {
    expect(await codeOf(admin().query(COLLECTION).fields("constructor").find())).toBe("WDE0075");
    expect(await codeOf(admin().patch(COLLECTION, "one").setField("a.__proto__", 1).run())).toBe("WDE0080");
    expect(await codeOf(admin().aggregate(COLLECTION).group("constructor").count().run())).toBe("WDE0075");
  });
});
