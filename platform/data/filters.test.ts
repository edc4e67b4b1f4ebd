import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection, idsOf } from "./test-support";

/** Every filter operator through the real `@wix/data` query builder and the direct filter form. */

let platform: TestPlatform;
const d = (iso: string) => new Date(iso);

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Things",
    [
      { key: "title", type: "TEXT" },
      { key: "n", type: "NUMBER" },
      { key: "flag", type: "BOOLEAN" },
      { key: "when", type: "DATETIME" },
      { key: "tags", type: "ARRAY_STRING" },
    ],
    { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  );
  await platform.adminClient().items.bulkInsert("Things", [
    { _id: "a", title: "Alpha", n: 1, flag: true, when: d("2024-01-01T00:00:00Z"), tags: ["red", "blue"], nested: { city: "Oslo", zip: 100 }, note: "" },
    { _id: "b", title: "alpha", n: 5, flag: false, when: d("2024-06-01T00:00:00Z"), tags: ["green"], nested: { city: "Bergen" }, note: null },
    { _id: "c", title: "Beta", n: "5", flag: true, tags: [], nested: { city: "oslo" } },
    { _id: "d", title: "gamma ray", n: 10.5, when: d("2025-01-01T00:00:00Z"), tags: ["red"], words: "The Sunday paper" },
    { _id: "e", n: -2, tags: "red" },
    { _id: "f", title: "Ωmega", n: 100, flag: false, tags: ["Red", "blue", "green"] },
  ]);
});
afterAll(() => platform.close());

type Query = ReturnType<ReturnType<TestPlatform["visitorClient"]>["items"]["query"]>;
type Filter = ReturnType<ReturnType<TestPlatform["visitorClient"]>["items"]["filter"]>;

const builderCases: [string, (q: Query, f: () => Filter) => Query, string[]][] = [
  ["eq text is case-sensitive (Alpha)", (q) => q.eq("title", "Alpha"), ["a"]],
  ["eq text is case-sensitive (alpha)", (q) => q.eq("title", "alpha"), ["b"]],
  ["eq number 5 does not match the string '5'", (q) => q.eq("n", 5), ["b"]],
  ["eq string '5' does not match the number 5", (q) => q.eq("n", "5"), ["c"]],
  ["eq boolean true", (q) => q.eq("flag", true), ["a", "c"]],
  ["eq boolean false", (q) => q.eq("flag", false), ["b", "f"]],
  ["eq Date", (q) => q.eq("when", d("2024-01-01T00:00:00Z")), ["a"]],
  ["eq on an array field matches an element, and a scalar", (q) => q.eq("tags", "red"), ["a", "d", "e"]],
  ["eq on a nested dotted path", (q) => q.eq("nested.city", "Oslo"), ["a"]],
  ["eq on a nested number", (q) => q.eq("nested.zip", 100), ["a"]],
  ["eq with no match", (q) => q.eq("title", "nothing"), []],
  ["ne includes missing values", (q) => q.ne("title", "Alpha"), ["b", "c", "d", "e", "f"]],
  ["ne on an array excludes items where any element matches", (q) => q.ne("tags", "red"), ["b", "c", "f"]],
  ["ne number keeps other types", (q) => q.ne("n", 5), ["a", "c", "d", "e", "f"]],
  ["gt number skips strings", (q) => q.gt("n", 5), ["d", "f"]],
  ["ge number", (q) => q.ge("n", 5), ["b", "d", "f"]],
  ["lt number", (q) => q.lt("n", 1), ["e"]],
  ["le number", (q) => q.le("n", 1), ["a", "e"]],
  ["between is end-exclusive", (q) => q.between("n", 1, 10.5), ["a", "b"]],
  ["gt text in code-point order", (q) => q.gt("title", "alpha"), ["d", "f"]],
  ["lt text: uppercase sorts before lowercase", (q) => q.lt("title", "B"), ["a"]],
  ["ge text includes equal", (q) => q.ge("title", "gamma ray"), ["d", "f"]],
  ["between text", (q) => q.between("title", "A", "a"), ["a", "c"]],
  ["gt Date", (q) => q.gt("when", d("2024-03-01T00:00:00Z")), ["b", "d"]],
  ["le Date", (q) => q.le("when", d("2024-06-01T00:00:00Z")), ["a", "b"]],
  ["between Dates", (q) => q.between("when", d("2024-01-01T00:00:00Z"), d("2025-01-01T00:00:00Z")), ["a", "b"]],
  ["gt boolean: true > false", (q) => q.gt("flag", false as never), ["a", "c"]],
  ["contains folds case", (q) => q.contains("title", "ALP"), ["a", "b"]],
  ["contains in the middle", (q) => q.contains("words", "sun"), ["d"]],
  ["contains on array elements", (q) => q.contains("tags", "ree"), ["b", "f"]],
  ["startsWith folds case", (q) => q.startsWith("title", "GA"), ["d"]],
  ["startsWith folds non-ASCII case", (q) => q.startsWith("title", "ω"), ["f"]],
  ["endsWith folds case", (q) => q.endsWith("title", "RAY"), ["d"]],
  ["endsWith on nested path", (q) => q.endsWith("nested.city", "LO"), ["a", "c"]],
  ["hasSome on an array field", (q) => q.hasSome("tags", ["red", "green"]), ["a", "b", "d", "e", "f"]],
  ["hasSome is case-sensitive", (q) => q.hasSome("tags", ["Red"]), ["f"]],
  ["hasSome on a scalar field", (q) => q.hasSome("title", ["Alpha", "Beta"]), ["a", "c"]],
  ["hasSome with numbers", (q) => q.hasSome("n", [1, 100]), ["a", "f"]],
  ["hasSome with Dates", (q) => q.hasSome("when", [d("2024-01-01T00:00:00Z"), d("2025-01-01T00:00:00Z")]), ["a", "d"]],
  ["hasAll needs every value", (q) => q.hasAll("tags", ["red", "blue"]), ["a"]],
  ["hasAll with one value", (q) => q.hasAll("tags", ["blue"]), ["a", "f"]],
  ["isEmpty matches missing and null, not empty string", (q) => q.isEmpty("note"), ["b", "c", "d", "e", "f"]],
  ["isEmpty on a missing field", (q) => q.isEmpty("title"), ["e"]],
  ["isNotEmpty includes the empty string", (q) => q.isNotEmpty("note"), ["a"]],
  ["isNotEmpty on a dotted path", (q) => q.isNotEmpty("nested.zip"), ["a"]],
  ["several conditions AND", (q) => q.gt("n", 0).eq("flag", true), ["a"]],
  ["conditions on one field AND", (q) => q.ge("n", 1).lt("n", 10), ["a", "b"]],
  ["or", (q, f) => q.eq("title", "Alpha").or(f().eq("n", 10.5) as never), ["a", "d"]],
  ["not alone", (q, f) => q.not(f().eq("flag", true) as never), ["b", "d", "e", "f"]],
  ["and then not", (q, f) => q.hasSome("tags", ["red"]).not(f().eq("title", "Alpha") as never), ["d", "e"]],
  ["and with a filter", (q, f) => q.and(f().eq("flag", false) as never).gt("n", 10), ["f"]],
];

describe("filter operators through the query builder", () => {
  it.each(builderCases)("%s", async (_name, build, expected) => {
    const client = platform.visitorClient();
    const result = await build(client.items.query("Things"), () => client.items.filter()).find();
    expect(idsOf(result.items)).toEqual(expected);
  });
});

const directCases: [string, Record<string, unknown>, string[]][] = [
  ["explicit $eq", { title: { $eq: "Beta" } }, ["c"]],
  ["several operators on one field AND", { n: { $gte: 1, $lt: 10 } }, ["a", "b"]],
  ["bare values on several fields AND", { flag: true, title: "Beta" }, ["c"]],
  ["$not in object form", { $not: { flag: true } }, ["b", "d", "e", "f"]],
  ["$not in array form", { $not: [{ flag: true }] }, ["b", "d", "e", "f"]],
  ["field-level $not", { n: { $not: { $gt: 5 } } }, ["a", "b", "c", "e"]],
  ["$exists true: present and not null", { note: { $exists: true } }, ["a"]],
  ["$exists false: missing or null", { flag: { $exists: false } }, ["d", "e"]],
  ["$in alias", { n: { $in: [5, "5"] } }, ["b", "c"]],
  ["an array value matches the whole array exactly", { tags: ["red", "blue"] }, ["a"]],
  ["an array value in another order does not match", { tags: ["blue", "red"] }, []],
  ["an object value matches exactly", { nested: { city: "Bergen" } }, ["b"]],
  ["{$date} operand", { when: { $gte: { $date: "2024-06-01T00:00:00.000Z" } } }, ["b", "d"]],
  ["{$date} operand without milliseconds", { when: { $date: "2024-01-01T00:00:00Z" } }, ["a"]],
  ["empty filter matches all", {}, ["a", "b", "c", "d", "e", "f"]],
  ["{} inside $and matches all", { $and: [{}, { flag: false }] }, ["b", "f"]],
  ["$or of $and", { $or: [{ $and: [{ flag: true }, { n: 1 }] }, { title: "gamma ray" }] }, ["a", "d"]],
  ["null bare value = isEmpty", { title: null }, ["e"]],
  ["$ne null = isNotEmpty", { when: { $ne: null } }, ["a", "b", "d"]],
  ["$hasSome with an empty list matches nothing", { tags: { $hasSome: [] } }, []],
  ["system field _id", { _id: { $in: ["a", "f", "zz"] } }, ["a", "f"]],
  ["system field _id range", { _id: { $gt: "d" } }, ["e", "f"]],
  [
    "$matches (urlized) with ignoreCase",
    {
      title: {
        $matches: {
          ignoreCase: true,
          spec: [
            { type: "literal", value: "gamma" },
            { type: "anyOf", value: " \t\n-" },
            { type: "literal", value: "RAY" },
          ],
        },
      },
    },
    ["d"],
  ],
];

describe("filter forms sent by direct requests", () => {
  it.each(directCases)("%s", async (_name, filter, expected) => {
    const result = await platform.visitorClient().items.query("Things", { filter } as never);
    expect(idsOf((result as unknown as { items: { _id: string }[] }).items)).toEqual(expected);
  });

  it("count uses the same filter", async () => {
    const client = platform.visitorClient();
    expect(await client.items.query("Things").eq("tags", "red").count()).toBe(3);
  });

  it("filters on _createdDate with a Date", async () => {
    const result = await platform
      .visitorClient()
      .items.query("Things")
      .gt("_createdDate", new Date(Date.now() - 60_000))
      .find();
    expect(result.items).toHaveLength(6);
  });
});

describe("rejected filters", () => {
  it("rejects $regex with WDE0070", async () => {
    expect(await codeOf(platform.visitorClient().items.query("Things").eq("title", { $regex: "A.*" }).find())).toBe("WDE0070");
  });
  it("rejects an unknown operator with WDE0075", async () => {
    expect(await codeOf(platform.visitorClient().items.query("Things", { filter: { title: { $near: 1 } } } as never))).toBe("WDE0075");
  });
  it("rejects a field name starting with $", async () => {
    expect(await codeOf(platform.visitorClient().items.query("Things", { filter: { $where: "1" } } as never))).toBe("WDE0075");
  });
  it("rejects an operand of the wrong type with the client's own code for it (WDE0058)", async () => {
    expect(await codeOf(platform.visitorClient().items.query("Things", { filter: { n: { $gt: { a: 1 } } } } as never))).toBe("WDE0058");
  });
  it("rejects $hasSome without an array (WDE0057)", async () => {
    expect(await codeOf(platform.visitorClient().items.query("Things", { filter: { tags: { $hasSome: "red" } } } as never))).toBe("WDE0057");
  });
});
