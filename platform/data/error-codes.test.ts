import fs from "node:fs";
import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { collections, indexes, items, tasks } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { FILES_PATH } from "./file-urls";
import { createCollection, failureOf } from "./test-support";

/**
 * Every data error path of docs/platform/data-errors.md, one row each: the status and code the
 * platform answers over raw HTTP, then what the real `@wix/data` client raises for the same
 * failure. The docs table and this one must list the same (status, code) rows.
 */

let platform: TestPlatform;
const admin = () =>
  createClient({ modules: { items, collections, indexes, tasks }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
const visitor = () => platform.visitorClient();

/** A request as sent over the wire: a JSON body, or `text` sent as written; with the admin key unless `anonymous`. */
type RawRequest = { method?: string; path: string; body?: unknown; text?: string; anonymous?: boolean; host?: "api" | "platform" };

/**
 * What the client does with the failure: `passes` it on (rejecting with the platform's code and
 * description), refuses it first with its `own` code (nothing is sent), resolves `null`, turns
 * a 413 into its `payload` error, or cannot send such a request at all (`none`).
 */
type ClientOutcome =
  | { kind: "passes"; call: () => Promise<unknown>; module?: "generic" }
  | { kind: "own"; code: string; call: () => Promise<unknown> }
  | { kind: "null"; call: () => Promise<unknown> }
  | { kind: "payload"; call: () => Promise<unknown> }
  | { kind: "none" };

type ErrorPath = { failure: string; status: number; code: string; request: RawRequest; client: ClientOutcome[] };

const many = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));
/** `{"a":{"a":…1}}`, `levels` objects deep. */
const nested = (levels: number): unknown => (levels === 0 ? 1 : { a: nested(levels - 1) });
/** `$and` inside `$and`, `levels` deep. */
const nestedFilter = (levels: number): Record<string, unknown> => (levels === 0 ? { title: "One" } : { $and: [nestedFilter(levels - 1)] });
const query = (filter: unknown, extra: Record<string, unknown> = {}) => ({ dataCollectionId: "Codes", query: { filter, ...extra } });
/** The direct query form of the client: the request goes out as written, unchecked. */
const directQuery = (filter: unknown) => () => admin().items.query("Codes", { filter } as never);

const PATHS: ErrorPath[] = [
  {
    failure: "item not an object",
    status: 400,
    code: "WDE0004",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: 5 } } },
    client: [{ kind: "own", code: "WDE0004", call: () => admin().items.insert("Codes", 5 as never) }],
  },
  {
    failure: "bad _id",
    status: 400,
    code: "WDE0007",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: { _id: "x".repeat(129) } } } },
    client: [{ kind: "passes", call: () => admin().items.insert("Codes", { _id: "x".repeat(129) }) }],
  },
  {
    failure: "item over 500 KB",
    status: 400,
    code: "WDE0009",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: { big: "x".repeat(600_000) } } } },
    client: [{ kind: "passes", call: () => admin().items.insert("Codes", { big: "x".repeat(600_000) }) }],
  },
  {
    failure: "item nested over 50 levels",
    status: 400,
    code: "WDE0168",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: { deep: nested(60) } } } },
    client: [{ kind: "passes", call: () => admin().items.insert("Codes", { deep: nested(60) }) }],
  },
  {
    failure: "$ field name",
    status: 400,
    code: "WDE0134",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: { $set: 1 } } } },
    client: [{ kind: "passes", call: () => admin().items.insert("Codes", { $set: 1 }) }],
  },
  {
    failure: "value that cannot be stored",
    status: 400,
    code: "WDE0076",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: { constructor: 1 } } } },
    client: [{ kind: "passes", call: () => admin().items.insert("Codes", { constructor: 1 } as Record<string, unknown>) }],
  },
  {
    failure: "value outside its field's range",
    status: 400,
    code: "WDE0076",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Ranged", dataItem: { data: { name: "too long" } } } },
    client: [{ kind: "passes", call: () => admin().items.insert("Ranged", { name: "too long" }) }],
  },
  {
    failure: "unknown collection",
    status: 404,
    code: "WDE0025",
    request: { path: "/wix-data/v2/items/query", body: { dataCollectionId: "Nope", query: {} } },
    client: [{ kind: "passes", call: () => admin().items.query("Nope").find() }],
  },
  {
    failure: "caller lacks the role",
    status: 403,
    code: "WDE0027",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: { title: "x" } } }, anonymous: true },
    client: [{ kind: "passes", call: () => visitor().items.insert("Codes", { title: "x" }) }],
  },
  {
    failure: "drafts without the admin key",
    status: 403,
    code: "WDE0027",
    request: {
      path: "/wix-data/v2/items/query",
      body: { dataCollectionId: "Codes", query: {}, publishPluginOptions: { includeDraftItems: true } },
      anonymous: true,
    },
    client: [{ kind: "passes", call: () => visitor().items.query("Codes").find({ showDrafts: true }) }],
  },
  {
    failure: "missing item",
    status: 404,
    code: "WDE0073",
    request: { path: "/wix-data/v2/items/update", body: { dataCollectionId: "Codes", dataItem: { id: "nope", data: { _id: "nope" } } } },
    client: [
      { kind: "passes", call: () => admin().items.update("Codes", { _id: "nope" }) },
      { kind: "null", call: () => admin().items.get("Codes", "nope") },
    ],
  },
  {
    failure: "condition not met",
    status: 404,
    code: "WDE0073",
    request: {
      path: "/wix-data/v2/items/update",
      body: { dataCollectionId: "Codes", dataItem: { id: "one", data: { _id: "one", title: "Changed" } }, condition: { filter: { title: "Other" } } },
    },
    client: [
      { kind: "passes", call: () => admin().items.update("Codes", { _id: "one", title: "Changed" }, { condition: { title: "Other" } }) },
      { kind: "null", call: () => admin().items.remove("Codes", "one", { condition: { title: "Other" } }) },
    ],
  },
  {
    failure: "existing id",
    status: 409,
    code: "WDE0074",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: { _id: "one" } } } },
    client: [{ kind: "passes", call: () => admin().items.insert("Codes", { _id: "one" }) }],
  },
  {
    failure: "not a multi-reference field",
    status: 400,
    code: "WDE0020",
    request: {
      path: "/wix-data/v2/bulk/items/insert-references",
      body: { dataCollectionId: "Codes", dataItemReferences: [{ referringItemFieldName: "title", referringItemId: "one", referencedItemId: "one" }] },
    },
    client: [{ kind: "passes", call: () => admin().items.insertReference("Codes", "title", "one", "one") }],
  },
  {
    failure: "link exists",
    status: 409,
    code: "WDE0029",
    request: {
      path: "/wix-data/v2/bulk/items/insert-references",
      body: { dataCollectionId: "Codes", dataItemReferences: [{ referringItemFieldName: "links", referringItemId: "one", referencedItemId: "one" }] },
    },
    client: [{ kind: "passes", call: () => admin().items.insertReference("Codes", "links", "one", "one") }],
  },
  {
    failure: "$regex",
    status: 400,
    code: "WDE0070",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $regex: "O" } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $regex: "O" } }) }],
  },
  {
    failure: "filter not an object",
    status: 400,
    code: "WDE0016",
    request: { path: "/wix-data/v2/items/query", body: query({ $and: [5] }) },
    client: [{ kind: "passes", call: directQuery({ $and: [5] }) }],
  },
  {
    failure: "$not without operators",
    status: 400,
    code: "WDE0056",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $not: 5 } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $not: 5 } }) }],
  },
  {
    failure: "array operator without an array",
    status: 400,
    code: "WDE0057",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $hasSome: "One" } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $hasSome: "One" } }) }],
  },
  {
    failure: "range operand",
    status: 400,
    code: "WDE0058",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $gt: { a: 1 } } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $gt: { a: 1 } } }) }],
  },
  {
    failure: "text operand",
    status: 400,
    code: "WDE0059",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $contains: 5 } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $contains: 5 } }) }],
  },
  {
    failure: "list items",
    status: 400,
    code: "WDE0060",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $in: [[1]] } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $in: [[1]] } }) }],
  },
  {
    failure: "$matches without spec",
    status: 400,
    code: "WDE0062",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $matches: { ignoreCase: true } } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $matches: { ignoreCase: true } } }) }],
  },
  {
    failure: "$matches spec entry",
    status: 400,
    code: "WDE0064",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $matches: { ignoreCase: true, spec: [{ type: "regex", value: "." }] } } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $matches: { ignoreCase: true, spec: [{ type: "regex", value: "." }] } } }) }],
  },
  {
    failure: "sort not a list",
    status: 400,
    code: "WDE0065",
    request: { path: "/wix-data/v2/items/query", body: query(undefined, { sort: "title" }) },
    client: [{ kind: "none" }],
  },
  {
    failure: "sort entry not an object",
    status: 400,
    code: "WDE0066",
    request: { path: "/wix-data/v2/items/query", body: query(undefined, { sort: ["title"] }) },
    client: [{ kind: "none" }],
  },
  {
    failure: "sort entry without a field or order",
    status: 400,
    code: "WDE0067",
    request: { path: "/wix-data/v2/items/query", body: query(undefined, { sort: [{ fieldName: "title", order: "UP" }] }) },
    client: [{ kind: "none" }],
  },
  {
    failure: "other invalid filter or search",
    status: 400,
    code: "WDE0075",
    request: { path: "/wix-data/v2/items/query", body: query({ title: { $near: 1 } }) },
    client: [{ kind: "passes", call: directQuery({ title: { $near: 1 } }) }],
  },
  {
    failure: "filter nested over 50",
    status: 400,
    code: "WDE0169",
    request: { path: "/wix-data/v2/items/query", body: query(nestedFilter(60)) },
    client: [{ kind: "passes", call: directQuery(nestedFilter(60)) }],
  },
  {
    failure: "_publishStatus filter",
    status: 400,
    code: "WDE0093",
    request: { path: "/wix-data/v2/items/query", body: { dataCollectionId: "Drafts", query: { filter: { _publishStatus: { $gt: "DRAFT" } } } } },
    client: [{ kind: "passes", call: () => admin().items.query("Drafts", { filter: { _publishStatus: { $gt: "DRAFT" } } } as never) }],
  },
  {
    failure: "page size",
    status: 400,
    code: "WDE0077",
    request: { path: "/wix-data/v2/items/query", body: query(undefined, { paging: { limit: 1001 } }) },
    client: [{ kind: "passes", call: () => admin().items.query("Codes").limit(1001).find() }],
  },
  {
    failure: "include limit",
    status: 400,
    code: "WDE0023",
    request: { path: "/wix-data/v2/items/query", body: { ...query(undefined), includeReferences: [{ field: "links", limit: 1001 }] } },
    client: [{ kind: "passes", call: () => admin().items.query("Codes").include("links", 1001).find() }],
  },
  {
    failure: "foreign cursor",
    status: 400,
    code: "WDE0151",
    request: { path: "/wix-data/v2/items/query", body: query(undefined, { cursorPaging: { cursor: "not-ours" } }) },
    client: [{ kind: "passes", call: () => admin().items.query("Codes", { cursorPaging: { cursor: "not-ours" } } as never) }],
  },
  {
    failure: "paging combination",
    status: 400,
    code: "WDE0080",
    request: { path: "/wix-data/v2/items/query", body: query(undefined, { paging: { limit: 5 }, cursorPaging: { limit: 5 } }) },
    client: [{ kind: "none" }],
  },
  {
    failure: "bad patch",
    status: 400,
    code: "WDE0080",
    request: {
      path: "/wix-data/v2/items/patch",
      body: {
        dataCollectionId: "Codes",
        patch: { dataItemId: "one", fieldModifications: [{ fieldPath: "a.__proto__", action: "SET_FIELD", setFieldOptions: { value: 1 } }] },
      },
    },
    client: [{ kind: "passes", call: () => admin().items.patch("Codes", "one").setField("a.__proto__", 1).run() }],
  },
  {
    failure: "malformed request",
    status: 400,
    code: "WDE0075",
    request: { path: "/wix-data/v2/items/query", text: "{not json" },
    client: [{ kind: "none" }],
  },
  {
    failure: "malformed aggregation",
    status: 400,
    code: "WDE0075",
    request: { path: "/wix-data/v2/items/aggregate-pipeline", body: { dataCollectionId: "Codes", pipeline: { stages: [{ nope: {} }] } } },
    client: [{ kind: "passes", call: () => admin().items.aggregate("Codes").group("constructor").count().run() }],
  },
  {
    failure: "bulk over 1,000",
    status: 400,
    code: "WDE0006",
    request: { path: "/wix-data/v2/bulk/items/insert", body: { dataCollectionId: "Codes", dataItems: many(1001, () => ({ data: {} })) } },
    client: [
      {
        kind: "own",
        code: "WDE0006",
        call: () =>
          admin().items.bulkInsert(
            "Codes",
            many(1001, () => ({})),
          ),
      },
      // bulkPatch has no cap of its own in the client: the platform's refusal comes through.
      {
        kind: "passes",
        call: () =>
          admin()
            .items.bulkPatch(
              "Codes",
              many(1001, (i) => `id${i}`),
            )
            .setField("title", "x")
            .run(),
      },
    ],
  },
  {
    failure: "bulk remove over 1,000",
    status: 400,
    code: "WDE0069",
    request: { path: "/wix-data/v2/bulk/items/remove", body: { dataCollectionId: "Codes", dataItemIds: many(1001, (i) => `id${i}`) } },
    client: [
      {
        kind: "own",
        code: "WDE0069",
        call: () =>
          admin().items.bulkRemove(
            "Codes",
            many(1001, (i) => `id${i}`),
          ),
      },
    ],
  },
  {
    failure: "references over 1,000",
    status: 400,
    code: "WDE0075",
    request: {
      path: "/wix-data/v2/bulk/items/insert-references",
      body: {
        dataCollectionId: "Codes",
        dataItemReferences: many(1001, (i) => ({ referringItemFieldName: "links", referringItemId: "one", referencedItemId: `id${i}` })),
      },
    },
    client: [
      {
        kind: "passes",
        call: () =>
          admin().items.insertReference(
            "Codes",
            "links",
            "one",
            many(1001, (i) => `id${i}`),
          ),
      },
    ],
  },
  {
    failure: "body over 8 MB",
    status: 413,
    code: "WDE0109",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Codes", dataItem: { data: { big: "x".repeat(9 * 1024 * 1024) } } } },
    client: [{ kind: "payload", call: () => admin().items.insert("Codes", { big: "x".repeat(9 * 1024 * 1024) }) }],
  },
  {
    failure: "unknown async job, task, ...",
    status: 404,
    code: "WDE0075",
    request: { method: "GET", path: "/wix-data/v2/async-jobs/no-such-job/status" },
    client: [
      { kind: "passes", call: () => admin().items.getAsyncJobStatus("no-such-job") },
      { kind: "passes", call: () => admin().tasks.getTask("no-such-task"), module: "generic" },
    ],
  },
  {
    failure: "collection id taken",
    status: 409,
    code: "WDE0104",
    request: {
      path: "/wix-data/v2/collections",
      body: { collection: { id: "Codes", fields: [], permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } } },
    },
    client: [
      {
        kind: "passes",
        call: () =>
          admin().collections.createDataCollection({
            _id: "Codes",
            fields: [],
            permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
          } as never),
        module: "generic",
      },
    ],
  },
  {
    failure: "stale revision",
    status: 409,
    code: "WDE0178",
    request: { method: "PATCH", path: "/wix-data/v2/collections/Codes", body: { dataCollection: { displayName: "x", revision: "999" } } },
    client: [
      { kind: "passes", call: () => admin().collections.patchDataCollection("Codes", { displayName: "x", revision: "999" } as never), module: "generic" },
    ],
  },
  {
    failure: "bad collection definition",
    status: 400,
    code: "WDE0075",
    request: { path: "/wix-data/v2/collections/create-field", body: { dataCollectionId: "Codes", field: { key: "title", type: "TEXT" } } },
    client: [
      {
        kind: "passes",
        call: () => admin().collections.createDataCollectionField("Codes", { field: { key: "title", type: "TEXT" } as never }),
        module: "generic",
      },
    ],
  },
  {
    failure: "unique index value",
    status: 409,
    code: "WDE0123",
    request: { path: "/wix-data/v2/items", body: { dataCollectionId: "Uniq", dataItem: { data: { email: "a@example.com" } } } },
    client: [{ kind: "passes", call: () => admin().items.insert("Uniq", { email: "a@example.com" }) }],
  },
  {
    failure: "index exists",
    status: 409,
    code: "WDE0164",
    request: { path: "/wix-data/v2/indexes", body: { dataCollectionId: "Uniq", index: { name: "email", fields: [{ path: "other" }] } } },
    client: [{ kind: "passes", call: () => admin().indexes.createIndex("Uniq", { name: "email", fields: [{ path: "other" }] }), module: "generic" }],
  },
  {
    failure: "unknown index",
    status: 404,
    code: "WDE0075",
    request: { method: "DELETE", path: "/wix-data/v2/indexes?dataCollectionId=Uniq&indexName=nope" },
    client: [{ kind: "passes", call: () => admin().indexes.dropIndex("Uniq", "nope"), module: "generic" }],
  },
  {
    failure: "file URL token",
    status: 403,
    code: "PERMISSION_DENIED",
    request: { method: "GET", path: `${FILES_PATH}/no-such-file?token=forged`, host: "platform", anonymous: true },
    client: [{ kind: "none" }],
  },
];

type Refusal = { status: number; code?: string; description?: string };

async function send(request: RawRequest): Promise<Refusal> {
  const base = request.host === "platform" ? platform.url : "https://www.wixapis.com";
  const method = request.method ?? "POST";
  const response = await fetch(`${base}${request.path}`, {
    method,
    headers: { ...(!request.anonymous && { authorization: platform.config.apiKey }), ...(method !== "GET" && { "content-type": "application/json" }) },
    ...(method !== "GET" && method !== "DELETE" && { body: request.text ?? JSON.stringify(request.body) }),
  });
  const body = (await response.json()) as { details?: { applicationError?: { code?: string; description?: string } } };
  return { status: response.status, code: body.details?.applicationError?.code, description: body.details?.applicationError?.description };
}

/** Requests that reached the platform's API routes so far (its own stats calls left out). */
async function apiRequests(): Promise<number> {
  const { requests } = await platform.stats();
  return Object.entries(requests)
    .filter(([route]) => !route.includes("/_local/"))
    .reduce((sum, [, count]) => sum + count, 0);
}

type ClientFailure = { message: string; code?: string; details?: { applicationError?: { code?: string; description?: string } } };

async function expectClient(outcome: ClientOutcome, refusal: Refusal) {
  switch (outcome.kind) {
    case "passes": {
      const failure = (await failureOf(outcome.call())) as ClientFailure;
      const description = failure.details?.applicationError?.description ?? "";
      expect([failure.details?.applicationError?.code, description.length > 0]).toEqual([refusal.code, true]);
      // `items` throws the description as its message; the other modules wrap it in the SDK's JSON text.
      if (outcome.module === "generic") expect(failure.message).toContain(JSON.stringify(description).slice(1, -1));
      else expect(failure.message).toBe(description);
      return;
    }
    case "own": {
      const before = await apiRequests();
      const failure = (await failureOf(outcome.call())) as ClientFailure;
      expect(failure.details?.applicationError?.code).toBe(outcome.code);
      expect(await apiRequests()).toBe(before);
      return;
    }
    case "null":
      expect(await outcome.call()).toBeNull();
      return;
    case "payload": {
      const failure = (await failureOf(outcome.call())) as ClientFailure;
      expect([failure.code, failure.message, failure.details]).toEqual(["WDE0109", "WDE0109: Payload is too large.", undefined]);
      return;
    }
    case "none":
      return;
  }
}

beforeAll(async () => {
  platform = await startTestPlatform();
  const adminOnlyWrites = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;
  await createCollection(
    platform,
    "Codes",
    [
      { key: "title", type: "TEXT" },
      { key: "links", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Codes" } } },
    ],
    adminOnlyWrites,
  );
  await createCollection(platform, "Ranged", [{ key: "name", type: "TEXT", stringLengthRange: { maxLength: 5 } } as never], adminOnlyWrites);
  await createCollection(platform, "Uniq", [{ key: "email", type: "TEXT" }], adminOnlyWrites);
  await admin().collections.createDataCollection({
    _id: "Drafts",
    fields: [{ key: "title", type: "TEXT" }] as never,
    permissions: adminOnlyWrites as never,
    plugins: [{ type: "PUBLISH", publishOptions: { defaultStatus: "PUBLISHED" } }] as never,
  });
  await admin().items.insert("Codes", { _id: "one", title: "One" });
  await admin().items.insertReference("Codes", "links", "one", "one");
  await admin().items.insert("Uniq", { email: "a@example.com" });
  await admin().indexes.createIndex("Uniq", { name: "email", fields: [{ path: "email" }], unique: true });
  while ((await admin().indexes.listIndexes("Uniq")).indexes?.find((index) => index.name === "email")?.status === "BUILDING") {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
});
afterAll(() => platform.close());

describe("data error codes (docs/platform/data-errors.md)", () => {
  it.each(PATHS.map((path) => [`${path.status} ${path.code}: ${path.failure}`, path] as const))("%s", async (_name, path) => {
    const refusal = await send(path.request);
    expect([refusal.status, refusal.code]).toEqual([path.status, path.code]);
    for (const outcome of path.client) await expectClient(outcome, refusal);
  });

  it("lists the same (status, code) rows as the docs table", () => {
    const doc = fs.readFileSync(new URL("../../docs/platform/data-errors.md", import.meta.url), "utf8");
    const documented = doc
      .split("\n")
      .map((line) => line.split("|").map((cell) => cell.trim().replaceAll("`", "")))
      .filter((cells) => /^\d{3}$/.test(cells[2] ?? "") && /^[A-Z_0-9]+$/.test(cells[3] ?? ""))
      .map((cells) => `${cells[2]} ${cells[3]}`);
    expect(documented.sort()).toEqual(PATHS.map((path) => `${path.status} ${path.code}`).sort());
  });
});
