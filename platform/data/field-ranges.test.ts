import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MEMBER } from "../seed/seed";
import { demoCollections, demoItems, demoTrailReports, TRAIL_REPORTS } from "../seed/demo-content";
import { startTestPlatform, type TestPlatform } from "../testing";
import { fieldRangeViolations } from "./field-ranges";
import { codeOf, createCollection, failureOf, memberClient } from "./test-support";

/**
 * Field limits (`stringLengthRange`, `numberRange`, `arraySizeRange`) declared through the real
 * `@wix/data` collections module and enforced on every write of the items module.
 */

let platform: TestPlatform;
const admin = () => platform.adminClient();
const anyone = { read: "ANYONE", insert: "ANYONE", update: "ANYONE", remove: "ANYONE" } as const;
const ok = { name: "Ada", score: 5, tags: ["a"] };
type Violations = { violations?: { field: string; violatedRule: string }[] };

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Limited",
    [
      { key: "name", type: "TEXT", stringLengthRange: { minLength: 2, maxLength: 5 } },
      { key: "score", type: "NUMBER", numberRange: { min: 0, max: 10 } },
      { key: "tags", type: "ARRAY_STRING", arraySizeRange: { maxSize: 2 } },
      { key: "note", type: "TEXT" },
    ] as never,
    anyone,
  );
});
afterAll(() => platform.close());

describe("declared field limits", () => {
  it("read back as declared", async () => {
    const { fields } = await admin().collections.getDataCollection("Limited");
    expect(fields?.find((field) => field.key === "name")?.stringLengthRange).toEqual({ minLength: 2, maxLength: 5 });
    expect(fields?.find((field) => field.key === "score")?.numberRange).toEqual({ min: 0, max: 10 });
    expect(fields?.find((field) => field.key === "tags")?.arraySizeRange).toEqual({ maxSize: 2 });
  });

  it("refuse an insert outside them with WDE0076 naming each field, whoever writes; values inside, absent or null pass", async () => {
    for (const items of [admin().items, platform.visitorClient().items]) {
      const failure = await failureOf(items.insert("Limited", { name: "Adalbert", score: 11, tags: ["a", "b", "c"] }));
      expect(failure.details?.applicationError?.code).toBe("WDE0076");
      expect(failure.message).toContain("[name] must be at most 5 characters long");
      expect(failure.message).toContain("[score] must be at most 10");
      expect(failure.message).toContain("[tags] must be at most 2 elements long");
      expect(await codeOf(items.insert("Limited", { name: "A" }))).toBe("WDE0076");
      expect(await codeOf(items.insert("Limited", { score: -1 }))).toBe("WDE0076");
    }
    expect(await admin().items.insert("Limited", { ...ok, note: "x".repeat(10_000) })).toMatchObject({ name: "Ada" });
    expect(await admin().items.insert("Limited", { name: null, score: "not a number", tags: "not a list" })).toMatchObject({ score: "not a number" });
    expect(await admin().items.count("Limited")).toBe(2);
  });

  it("hold on update, save and patch, and nothing is written when refused", async () => {
    const { _id } = await admin().items.insert("Limited", ok);
    expect(await codeOf(admin().items.update("Limited", { _id, ...ok, name: "toolong" }))).toBe("WDE0076");
    expect(await codeOf(admin().items.save("Limited", { _id, ...ok, score: 100 }))).toBe("WDE0076");
    expect(await codeOf(admin().items.save("Limited", { _id: "new-one", ...ok, score: 100 }))).toBe("WDE0076");
    expect(await codeOf(admin().items.patch("Limited", _id!).setField("tags", ["a", "b", "c"]).run())).toBe("WDE0076");
    expect(await codeOf(admin().items.patch("Limited", _id!).incrementField("score", 6).run())).toBe("WDE0076");
    expect(await admin().items.get("Limited", _id!)).toMatchObject(ok);
    expect(await admin().items.get("Limited", "new-one")).toBeNull();
    expect(await admin().items.patch("Limited", _id!).incrementField("score", 5).run()).toMatchObject({ score: 10 });
  });

  it("in bulk writes, refuse only the entries outside them, each with its violations", async () => {
    const inserted = await admin().items.bulkInsert("Limited", [
      { _id: "b1", ...ok },
      { _id: "b2", ...ok, name: "x" },
      { _id: "b3", ...ok, score: 3 },
    ]);
    expect(inserted.insertedItemIds).toEqual(["b1", "b3"]);
    expect(inserted.errors.map((error) => [error.originalIndex, error.code])).toEqual([[1, "WDE0076"]]);
    expect((inserted.errors[0] as Violations).violations?.map((violation) => [violation.field, violation.violatedRule])).toEqual([["name", "MIN_LENGTH"]]);
    const updated = await admin().items.bulkUpdate("Limited", [
      { _id: "b1", ...ok, tags: ["a", "b", "c"] },
      { _id: "b3", ...ok, score: 4 },
    ]);
    expect([updated.updated, updated.errors.map((error) => error.code)]).toEqual([1, ["WDE0076"]]);
    const saved = await admin().items.bulkSave("Limited", [
      { _id: "b1", ...ok, score: -5 },
      { _id: "b4", ...ok, name: "abcdef" },
    ]);
    expect([saved.inserted + saved.updated, saved.errors.map((error) => error.code)]).toEqual([0, ["WDE0076", "WDE0076"]]);
    const patched = await admin().items.bulkPatch("Limited", ["b1", "b3"]).setField("name", "abcdefg").run();
    expect([patched.updated, patched.errors.map((error) => error.code)]).toEqual([0, ["WDE0076", "WDE0076"]]);
  });

  it("are refused when they cannot hold (a minimum above the maximum, two kinds on one field, a negative length)", async () => {
    const declare = (field: Record<string, unknown>) =>
      codeOf(createCollection(platform, `Bad${Math.random().toString(36).slice(2, 8)}`, [{ key: "f", type: "TEXT", ...field }] as never, anyone));
    expect(await declare({ stringLengthRange: { minLength: 5, maxLength: 2 } })).toBe("WDE0075");
    expect(await declare({ stringLengthRange: { maxLength: 5 }, numberRange: { max: 1 } })).toBe("WDE0075");
    expect(await declare({ stringLengthRange: { maxLength: -1 } })).toBe("WDE0075");
  });

  it("go with the field: a field updated without its range takes any length again", async () => {
    await admin().collections.updateDataCollectionField("Limited", { field: { key: "note", type: "TEXT", stringLengthRange: { maxLength: 3 } } as never });
    expect(await codeOf(admin().items.insert("Limited", { note: "four" }))).toBe("WDE0076");
    await admin().collections.updateDataCollectionField("Limited", { field: { key: "note", type: "TEXT" } as never });
    expect(await admin().items.insert("Limited", { note: "four" })).toMatchObject({ note: "four" });
  });
});

describe("the demo collections' limits", () => {
  it("hold the trail reports to the site's form (title 120, body 4,000, rating 1 to 5)", async () => {
    const dana = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const items = memberClient(platform, dana).items;
    const report = { trail: "trail-cedar-creek", title: "t".repeat(120), body: "b".repeat(4000), rating: 5, hikedOn: "2026-11-01" };
    const written = await items.insert(TRAIL_REPORTS, report);
    expect(written).toMatchObject({ title: report.title });
    expect(await codeOf(items.insert(TRAIL_REPORTS, { ...report, title: "t".repeat(121) }))).toBe("WDE0076");
    expect(await codeOf(items.insert(TRAIL_REPORTS, { ...report, body: "b".repeat(450_000) }))).toBe("WDE0076");
    expect(await codeOf(items.insert(TRAIL_REPORTS, { ...report, body: "" }))).toBe("WDE0076");
    expect(await codeOf(items.insert(TRAIL_REPORTS, { ...report, rating: 6 }))).toBe("WDE0076");
    expect(await codeOf(items.patch(TRAIL_REPORTS, written._id!).setField("body", "b".repeat(4001)).run())).toBe("WDE0076");
  });

  it("are kept by the seeded items", () => {
    const seeded = { ...demoItems(), [TRAIL_REPORTS]: demoTrailReports().map((report) => report.item) };
    for (const [collectionId, items] of Object.entries(seeded)) {
      const { fields } = demoCollections.find((collection) => collection.id === collectionId)!;
      for (const item of items) expect(fieldRangeViolations(fields, item), `${collectionId} ${item._id}`).toEqual([]);
    }
  });
});
