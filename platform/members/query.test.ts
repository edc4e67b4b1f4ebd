import { describe, expect, it } from "vitest";
import { PlatformError } from "../http/errors";
import { matchesFilter, pagingSchema, runQuery, sortSchema } from "./query";

const people = [
  { id: "a", createdDate: "2026-01-01T00:00:00.000Z", profile: { nickname: "Ada", slug: "ada" }, tags: ["x", "y"], age: 30 },
  { id: "b", createdDate: "2026-02-01T00:00:00.000Z", profile: { nickname: "bo", slug: "bo" }, tags: ["y"], age: 20 },
  { id: "c", createdDate: "2026-03-01T00:00:00.000Z", profile: { nickname: "Cy", slug: "cy-2" }, age: null },
];
const ids = (filter: unknown) => people.filter((person) => matchesFilter(person, filter)).map((person) => person.id);

describe("matchesFilter", () => {
  it("compares plain values, nested paths and nulls", () => {
    expect(ids({ "profile.slug": "bo" })).toEqual(["b"]);
    expect(ids({ age: null })).toEqual(["c"]);
    expect(ids({ missing: null })).toEqual(["a", "b", "c"]);
    expect(ids({})).toEqual(["a", "b", "c"]);
  });

  it("applies comparison, text, set and array operators", () => {
    expect(ids({ age: { $gte: 20, $lt: 30 } })).toEqual(["b"]);
    expect(ids({ createdDate: { $gt: { $date: "2026-01-15T00:00:00.000Z" } } })).toEqual(["b", "c"]);
    expect(ids({ "profile.nickname": { $startsWith: "B" } })).toEqual(["b"]);
    expect(ids({ "profile.slug": { $contains: "-" } })).toEqual(["c"]);
    expect(ids({ "profile.slug": { $endsWith: "DA" } })).toEqual(["a"]);
    expect(ids({ id: { $in: ["a", "c"] } })).toEqual(["a", "c"]);
    expect(ids({ id: { $ne: "a" } })).toEqual(["b", "c"]);
    expect(ids({ tags: { $hasSome: ["x"] } })).toEqual(["a"]);
    expect(ids({ tags: { $hasAll: ["x", "y"] } })).toEqual(["a"]);
    expect(ids({ age: { $exists: false } })).toEqual(["c"]);
  });

  it("combines with $and, $or and $not", () => {
    expect(ids({ $or: [{ id: "a" }, { id: "c" }] })).toEqual(["a", "c"]);
    expect(ids({ $and: [{ tags: { $hasSome: ["y"] } }, { age: { $lt: 25 } }] })).toEqual(["b"]);
    expect(ids({ $not: { id: "a" } })).toEqual(["b", "c"]);
  });

  it("refuses unknown operators and malformed operands with a 400", () => {
    for (const filter of [{ id: { $regex: "a" } }, { $nor: [] }, { id: { $in: "a" } }, { id: { $startsWith: 1 } }, "id = a"]) {
      expect(() => ids(filter)).toThrow(PlatformError);
      try {
        ids(filter);
      } catch (error) {
        expect(error).toMatchObject({ status: 400, code: "INVALID_ARGUMENT" });
      }
    }
  });
});

describe("runQuery", () => {
  const sort = (value: unknown) => sortSchema.parse(value);
  const paging = (value: unknown) => pagingSchema.parse(value);

  it("sorts by several fields, keeps the input order on ties, and puts missing values first", () => {
    const byAge = runQuery(people, undefined, sort([{ fieldName: "age", order: "DESC" }]), paging({}));
    expect(byAge.items.map((person) => person.id)).toEqual(["a", "b", "c"]);
    const byNickname = runQuery(people, undefined, sort([{ fieldName: "profile.nickname" }]), paging({}));
    expect(byNickname.items.map((person) => person.id)).toEqual(["a", "c", "b"]);
  });

  it("pages and counts every match in metadata", () => {
    const page = runQuery(people, { age: { $exists: true } }, sort([]), paging({ limit: "1", offset: "1" }));
    expect(page.items.map((person) => person.id)).toEqual(["b"]);
    expect(page.metadata).toEqual({ count: 1, offset: 1, total: 2, tooManyToCount: false });
  });

  it("rejects paging outside its bounds", () => {
    expect(pagingSchema.safeParse({ limit: 5000 }).success).toBe(false);
    expect(pagingSchema.safeParse({ offset: -1 }).success).toBe(false);
  });
});
