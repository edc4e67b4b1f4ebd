import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { createCollection } from "./test-support";

/**
 * Property-based: random data-service requests (filters, sorts, paging, projections, hostile
 * field names, deep nesting) never make the platform fail (no 5xx), and every refusal is in the
 * platform's error envelope (docs/platform/transport.md §5). Raw HTTP for what the client could
 * never build; the real `@wix/data` client for what it can.
 */

let platform: TestPlatform;
const COLLECTION = "Props";

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    COLLECTION,
    [
      { key: "title", type: "TEXT" },
      { key: "n", type: "NUMBER" },
      { key: "tags", type: "ARRAY_STRING" },
      { key: "when", type: "DATETIME" },
      { key: "done", type: "BOOLEAN" },
    ],
    { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  );
  await platform.adminClient().items.bulkInsert(
    COLLECTION,
    Array.from({ length: 12 }, (_, i) => ({
      _id: `p${i}`,
      title: `item ${i}`,
      n: i,
      tags: [`t${i % 3}`],
      when: new Date(Date.UTC(2026, 0, i + 1)),
      done: i % 2 === 0,
    })),
  );
});
afterAll(() => platform.close());

const RUNS = { numRuns: 300, endOnFailure: true };

/** Names a field could have: mostly the collection's own, often hostile ones. */
const fieldName = fc.oneof(
  { arbitrary: fc.constantFrom("title", "n", "tags", "when", "done", "_id", "_owner", "_createdDate"), weight: 4 },
  { arbitrary: fc.constantFrom("missing", "a.b", "tags.0", ""), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "a\u0000b",
      "\u0000",
      "$eq",
      "$and",
      "x".repeat(1000),
      "😀",
      "a\\b",
      "a'b",
      'a"b',
      "a;DROP TABLE data_items",
    ),
    weight: 2,
  },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
);

const scalar = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.MAX_SAFE_INTEGER * 4, -0, 1e308),
  fc.date({ noInvalidDate: true }).map((date) => ({ $date: date.toISOString() })),
  fc.constantFrom({ $date: "not a date" }, "\u0000", {}),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 5 }), fc.dictionary(fieldName, scalar, { maxKeys: 3 }));

const OPERATORS = [
  "$eq",
  "$ne",
  "$gt",
  "$gte",
  "$lt",
  "$lte",
  "$in",
  "$hasSome",
  "$hasAll",
  "$contains",
  "$startsWith",
  "$endsWith",
  "$exists",
  "$isEmpty",
  "$isNotEmpty",
  "$between",
  "$matches",
  "$nope",
  "eq",
  "",
];

/** An object with the given keys as its own properties, `__proto__` included (Object.fromEntries defines them). */
const objectOf = <T>(entries: fc.Arbitrary<[string, T]>, maxKeys: number) => fc.array(entries, { maxLength: maxKeys }).map((list) => Object.fromEntries(list));

const { filter } = fc.letrec<{ filter: unknown; condition: unknown }>((tie) => ({
  condition: fc.oneof(value, objectOf(fc.tuple(fc.constantFrom(...OPERATORS), value), 1)),
  filter: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: objectOf(fc.tuple(fieldName, tie("condition")), 3), weight: 4 },
    fc.record({ $and: fc.array(tie("filter"), { maxLength: 3 }) }),
    fc.record({ $or: fc.oneof(fc.array(tie("filter"), { maxLength: 3 }), value) }),
    fc.record({ $not: tie("filter") }),
    value,
  ),
}));

/**
 * Nesting far deeper than any real request: objects, arrays or `$and`s, up to 3,000 levels. It
 * stands in the body as a marker replaced by text when sent, since JSON.stringify itself runs out
 * of stack that deep, and fast-check reports a failing case by its size rather than printing it.
 */
class DeepFilter {
  constructor(
    readonly depth: number,
    readonly kind: "object" | "array" | "and",
  ) {}
  toJSON(): string {
    return `@@deep:${this.depth}:${this.kind}@@`;
  }
  [fc.toStringMethod]() {
    return `DeepFilter(${this.kind}, ${this.depth})`;
  }
}
const DEEP_MARKER = /"@@deep:(\d+):(object|array|and)@@"/g;
const OPENING = { object: '{"a":', array: "[", and: '{"$and":[' };
const CLOSING = { object: "}", array: "]", and: "]}" };
function bodyText(body: unknown): string {
  return JSON.stringify(body).replace(
    DEEP_MARKER,
    (_marker, depth: string, kind: DeepFilter["kind"]) => `${OPENING[kind].repeat(Number(depth))}{"title":"item 1"}${CLOSING[kind].repeat(Number(depth))}`,
  );
}
const deepFilter = fc
  .tuple(fc.integer({ min: 50, max: 3000 }), fc.constantFrom("object", "array", "and") as fc.Arbitrary<DeepFilter["kind"]>)
  .map(([depth, kind]) => new DeepFilter(depth, kind));

const limit = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 100 }), weight: 3 },
  fc.integer({ min: -5, max: 2000 }),
  fc.constantFrom("10", "ten", null, 1.5, 1e20, {}),
);
const sort = fc.oneof(
  { arbitrary: fc.constant([]), weight: 2 },
  fc.array(fc.record({ fieldName, order: fc.oneof(fc.constantFrom("ASC", "DESC"), fc.string({ maxLength: 5 })) }, { requiredKeys: ["fieldName"] }), {
    maxLength: 4,
  }),
  value,
);
const paging = fc.oneof(
  fc.record({ paging: fc.record({ limit, offset: limit }, { requiredKeys: [] }) }),
  fc.record({ cursorPaging: fc.record({ limit, cursor: fc.oneof(fc.string({ maxLength: 40 }), fc.base64String({ maxLength: 60 })) }, { requiredKeys: [] }) }),
  fc.constant({}),
);
const query = fc
  .tuple(
    fc.option(fc.oneof({ arbitrary: filter, weight: 5 }, deepFilter), { nil: undefined }),
    fc.option(sort, { nil: undefined }),
    paging,
    fc.option(fc.array(fieldName, { maxLength: 3 }), { nil: undefined, freq: 2 }),
  )
  .map(([where, order, page, fields]) => ({
    ...(where !== undefined && { filter: where }),
    ...(order !== undefined && { sort: order }),
    ...page,
    ...(fields && { fields }),
  }));

const collectionId = fc.oneof(
  { arbitrary: fc.constant(COLLECTION), weight: 4 },
  fc.constantFrom("Trails", "NoSuchCollection", "", "__proto__", "a\u0000"),
  fc.string({ maxLength: 10 }),
);

/** A request to one of the data service's read endpoints, as raw JSON, or as the GET `.r` form. */
const request = fc.oneof(
  fc.record({ path: fc.constant("/items/query"), body: fc.record({ dataCollectionId: collectionId, query, returnTotalCount: fc.boolean() }) }),
  fc.record({ path: fc.constant("/items/count"), body: fc.record({ dataCollectionId: collectionId, filter: fc.oneof(filter, deepFilter) }) }),
  fc.record({
    path: fc.constant("/items/query-distinct-values"),
    body: fc
      .tuple(collectionId, fieldName, fc.option(filter, { nil: undefined }), paging)
      .map(([id, name, where, page]) => ({ dataCollectionId: id, fieldName: name, filter: where, ...page })),
  }),
  fc.record({
    path: fc.constant("/items/aggregate"),
    body: fc.record({
      dataCollectionId: collectionId,
      initialFilter: filter,
      aggregation: fc.record({
        groupingFields: fc.array(fieldName, { maxLength: 3 }),
        operations: fc.array(fc.record({ resultFieldName: fieldName, sum: fc.record({ itemFieldName: fieldName }) }), { maxLength: 2 }),
      }),
    }),
  }),
  fc.record({ path: fc.constant("/items/query"), body: fc.record({ dataCollectionId: collectionId, query }), get: fc.constant(true) }),
);

const authorization = fc.oneof({ arbitrary: fc.constantFrom<"admin" | "anonymous">("admin", "anonymous"), weight: 5 }, fc.constant<"garbage">("garbage"));

type Envelope = { message?: unknown; details?: { applicationError?: { code?: unknown; description?: unknown } } };

/** The platform's error envelope: message, and the same text as description, with a code. */
function isEnvelope(body: Envelope): boolean {
  const error = body.details?.applicationError;
  return typeof body.message === "string" && typeof error?.code === "string" && error.code !== "" && error.description === body.message;
}

async function send(target: { path: string; body: unknown; get?: boolean }, caller: "admin" | "anonymous" | "garbage") {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (caller === "admin") headers.authorization = platform.config.apiKey;
  if (caller === "garbage") headers.authorization = "not-a-token";
  const base = `https://www.wixapis.com/wix-data/v2${target.path}`;
  return target.get
    ? fetch(`${base}?.r=${Buffer.from(bodyText(target.body)).toString("base64url")}`, { headers })
    : fetch(base, { method: "POST", headers, body: bodyText(target.body) });
}

describe("random raw requests", () => {
  it("never answer 5xx, and every refusal is the error envelope", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, authorization, async (target, caller) => {
        const reply = await send(target, caller);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        const text = await reply.text();
        expect(reply.status, text).toBeLessThan(500);
        const body = JSON.parse(text) as Envelope;
        if (reply.status !== 200) expect(isEnvelope(body), text).toBe(true);
      }),
      RUNS,
    );
    // The generators reach both sides: answers and refusals.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
  }, 60_000);
});

describe("random queries through the @wix/data client", () => {
  const operations = ["eq", "ne", "gt", "ge", "lt", "le", "contains", "startsWith", "endsWith", "hasSome", "hasAll", "isEmpty", "isNotEmpty"] as const;
  const clientQuery = fc.record({
    conditions: fc.array(
      fc.tuple(
        fc.constantFrom(...operations),
        fieldName,
        fc.oneof({ arbitrary: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.date({ noInvalidDate: true })), weight: 4 }, value),
      ),
      { maxLength: 3 },
    ),
    ascending: fc.array(fieldName, { maxLength: 2 }),
    limit: fc.integer({ min: 0, max: 1200 }),
    skip: fc.integer({ min: 0, max: 100 }),
    admin: fc.boolean(),
    collection: collectionId,
  });

  /** Every answer the platform gave while the client ran: a status under 500, refusals in the envelope. */
  const wireProblems: string[] = [];
  let answered = 0;
  beforeAll(() => {
    const routed = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const reply = await routed(input, init);
      answered++;
      const text = await reply.clone().text();
      const refused =
        reply.status !== 200 &&
        !(() => {
          try {
            return isEnvelope(JSON.parse(text) as Envelope);
          } catch {
            return false;
          }
        })();
      if (reply.status >= 500 || refused) wireProblems.push(`${reply.status} ${text.slice(0, 300)}`);
      return reply;
    };
    return () => {
      globalThis.fetch = routed;
    };
  });

  it("either find items or fail, and the platform never answers 5xx or outside its envelope", async () => {
    let found = 0;
    await fc.assert(
      fc.asyncProperty(clientQuery, async (input) => {
        const client = input.admin ? platform.adminClient() : platform.visitorClient();
        try {
          let built = client.items.query(input.collection) as unknown as Record<string, (...args: unknown[]) => unknown>;
          for (const [operation, field, operand] of input.conditions) {
            built = (operation === "isEmpty" || operation === "isNotEmpty" ? built[operation](field) : built[operation](field, operand)) as typeof built;
          }
          if (input.ascending.length) built = built.ascending(...input.ascending) as typeof built;
          built = (built.limit(input.limit) as typeof built).skip(input.skip) as typeof built;
          await (built.find as () => Promise<unknown>)();
          found++;
        } catch (error) {
          // Refused by the client before sending, or by the platform: either way an Error with a message.
          expect(error).toBeInstanceOf(Error);
        }
        expect(wireProblems).toEqual([]);
      }),
      { ...RUNS, numRuns: 150 },
    );
    expect(found).toBeGreaterThan(0);
    expect(answered).toBeGreaterThan(found);
  }, 60_000);
});
