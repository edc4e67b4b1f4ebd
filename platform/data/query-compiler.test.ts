import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { compileFilter, compileSort } from "./query-compiler";
import { registerDataFunctions } from "./sql-functions";

/** The compiler on its own: the SQL it emits, and that SQL run against a real SQLite table. */

describe("compileFilter output", () => {
  it("binds values as parameters and never interpolates them", () => {
    const { sql, params } = compileFilter({ title: "x'); DROP TABLE t; --" });
    expect(sql).not.toContain("DROP");
    expect(params).toContain("x'); DROP TABLE t; --");
  });

  it("quotes field names into JSON paths and rejects unsafe ones", () => {
    expect(compileFilter({ "a.b": 1 }).sql).toContain(`'$."a"."b"'`);
    expect(() => compileFilter({ 'a"b': 1 })).toThrow(/Invalid field name/);
    expect(() => compileFilter({ "a..b": 1 })).toThrow(/Invalid field name/);
  });

  it("keeps quotes in field names inside the SQL literal", () => {
    const db = new Database(":memory:");
    registerDataFunctions(db);
    db.exec("CREATE TABLE t (id TEXT, data TEXT)");
    db.prepare("INSERT INTO t VALUES ('1', ?)").run(JSON.stringify({ "it's": 1 }));
    const where = compileFilter({ "it's": 1, "x') OR 1=1 --": { $exists: false } });
    expect(
      db
        .prepare(`SELECT id FROM t WHERE ${where.sql}`)
        .pluck()
        .all(...where.params),
    ).toEqual(["1"]);
    expect(
      db
        .prepare(`SELECT id FROM t ORDER BY ${compileSort([{ fieldName: "it's" }])}`)
        .pluck()
        .all(),
    ).toEqual(["1"]);
  });

  it("puts the scope into each OR branch so equality can seek an index", () => {
    const { sql, params } = compileFilter({ f: "v" }, { scope: { sql: "collection_id = ?", params: ["C"] } });
    expect(sql.match(/collection_id = \?/g)).toHaveLength(2);
    expect(params).toEqual(["C", "v", "C", "v"]);
  });

  it("maps system fields to columns only when asked", () => {
    expect(compileFilter({ _id: "a" }, { systemColumns: true }).sql).toContain("id = ?");
    expect(compileFilter({ _id: "a" }).sql).toContain(`json_extract(data, '$."_id"')`);
  });

  it("compiles multi-reference conditions to link lookups by referenced id", () => {
    const { sql, params } = compileFilter({ authors: { $hasAll: ["a", "b"] } }, { multiReferenceFields: ["authors"] });
    expect(sql.match(/FROM data_references/g)).toHaveLength(2);
    expect(params).toEqual(["authors", "a", "authors", "b"]);
    expect(compileFilter({ authors: null }, { multiReferenceFields: ["authors"] }).sql).toContain("NOT EXISTS");
    expect(() => compileFilter({ authors: 5 }, { multiReferenceFields: ["authors"] })).toThrow(/item ids/);
  });

  it("rejects $regex with WDE0070 and deep nesting with WDE0169", () => {
    expect(() => compileFilter({ a: { $regex: "x" } })).toThrow(expect.objectContaining({ code: "WDE0070", status: 400 }));
    let deep: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 60; i++) deep = { $and: [deep] };
    expect(() => compileFilter(deep)).toThrow(expect.objectContaining({ code: "WDE0169" }));
  });

  it("sorts by type rank then value, with a tie-breaker, and defaults when empty", () => {
    const sql = compileSort([{ fieldName: "a", order: "DESC" }], { tieBreaker: "id DESC" });
    expect(sql).toMatch(/^CASE WHEN .* END DESC, COALESCE\(.*\) DESC, id DESC$/);
    expect(compileSort([], { systemColumns: true, defaultSort: [{ fieldName: "_createdDate", order: "DESC" }] })).toBe("created_date DESC");
    expect(() => compileSort([{ fieldName: "a", order: "UP" }])).toThrow(/invalid sort order \[UP\]/);
  });
});

describe("compiled SQL against SQLite", () => {
  const db = new Database(":memory:");
  registerDataFunctions(db);
  db.exec("CREATE TABLE t (id TEXT, data TEXT)");
  const rows: Record<string, unknown>[] = [
    { _id: "1", v: 5 },
    { _id: "2", v: "5" },
    { _id: "3", v: true },
    { _id: "4", v: 1 },
    { _id: "5", v: [5, 6] },
    { _id: "6", v: { $date: "2024-01-01T00:00:00.000Z" } },
    { _id: "7", v: null },
    { _id: "8" },
    { _id: "9", v: "Ärger" },
  ];
  const insert = db.prepare("INSERT INTO t VALUES (?, ?)");
  for (const row of rows) insert.run(row._id, JSON.stringify(row));
  const ids = (filter: unknown) => {
    const where = compileFilter(filter);
    return db
      .prepare(`SELECT id FROM t WHERE ${where.sql} ORDER BY id`)
      .pluck()
      .all(...where.params) as string[];
  };
  const sorted = (order: "ASC" | "DESC") =>
    db
      .prepare(`SELECT id FROM t ORDER BY ${compileSort([{ fieldName: "v", order }], { tieBreaker: "id ASC" })}`)
      .pluck()
      .all();

  it.each([
    ["number 5 is not string 5 nor true", { v: 5 }, ["1", "5"]],
    ["boolean true is not 1", { v: true }, ["3"]],
    ["number 1 is not true", { v: 1 }, ["4"]],
    ["range on numbers ignores other types", { v: { $gte: 1 } }, ["1", "4", "5"]],
    ["null is missing or null", { v: null }, ["7", "8"]],
    ["$ne keeps missing", { v: { $ne: 5 } }, ["2", "3", "4", "6", "7", "8", "9"]],
    ["date comparison", { v: { $lt: { $date: "2025-01-01T00:00:00Z" } } }, ["6"]],
    ["non-ASCII folding", { v: { $startsWith: "är" } }, ["9"]],
    ["both bounds in one object form one range", { v: { $gte: 1, $lt: 6 } }, ["1", "4", "5"]],
    ["bounds of different types stay separate conditions", { v: { $gte: 1, $lt: "z" } }, []],
  ])("%s", (_name, filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it("orders mixed types: missing/null < numbers < text < arrays < booleans < dates", () => {
    expect(sorted("ASC")).toEqual(["7", "8", "4", "1", "2", "9", "5", "3", "6"]);
    expect(sorted("DESC")).toEqual(["6", "3", "5", "9", "2", "1", "4", "7", "8"]);
  });

  it("uses the field index for equality when one exists", () => {
    db.exec(
      "CREATE TABLE items (collection_id TEXT, id TEXT, data TEXT);" +
        ` CREATE INDEX items_v ON items (collection_id, json_type(data, '$."v"'), json_extract(data, '$."v"'))`,
    );
    const where = compileFilter({ v: "x" }, { scope: { sql: "collection_id = ?", params: ["C"] } });
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM items WHERE ${where.sql}`).all(...where.params) as { detail: string }[];
    expect(plan.map((step) => step.detail).join("\n")).toMatch(/USING INDEX items_v \(collection_id=\? AND <expr>=\? AND <expr>=\?\)/);
  });
});
