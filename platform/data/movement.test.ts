import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { seedDemoContent } from "../seed/seed";
import { exportItems, importItems } from "./movement";
import { DataStore, migrateData } from "./store";

/** CSV/JSONL import and export against a real SQLite store. */

let store: DataStore;
beforeEach(() => {
  const db = new Database(":memory:");
  migrateData(db);
  store = new DataStore(db);
  store.createCollection({
    id: "Peaks",
    fields: [
      { key: "name", type: "TEXT" },
      { key: "height", type: "NUMBER" },
      { key: "climbed", type: "BOOLEAN" },
      { key: "firstAscent", type: "DATETIME" },
      { key: "tags", type: "ARRAY_STRING" },
    ],
    permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  });
  store.insertItem("Peaks", { _id: "k2", name: "K2", height: 8611 }, null);
});

const csv = `_id,name,height,climbed,firstAscent,tags
everest,Everest,8849,true,1953-05-29T11:30:00Z,"[""himalaya""]"
k2,K2 (new),8611,TRUE,,
,Nameless,,,,
`;

describe("import", () => {
  it("types CSV cells by the collection's fields; SKIP_EXISTING keeps stored items", () => {
    const report = importItems(store, "Peaks", csv, "csv", "SKIP_EXISTING");
    expect(report).toEqual({ inserted: 2, updated: 0, skipped: 1, badRows: [] });
    expect(store.findItem("Peaks", "everest")).toMatchObject({ height: 8849, climbed: true, firstAscent: { $date: "1953-05-29T11:30:00.000Z" }, tags: ["himalaya"] });
    expect(store.findItem("Peaks", "k2")?.name).toBe("K2");
  });

  it("OVERWRITE replaces existing items", () => {
    expect(importItems(store, "Peaks", csv, "csv", "OVERWRITE")).toMatchObject({ inserted: 2, updated: 1 });
    expect(store.findItem("Peaks", "k2")).toMatchObject({ name: "K2 (new)", climbed: true });
  });

  it("TRUNCATE_BEFORE empties the collection first", () => {
    importItems(store, "Peaks", `{"_id":"a","name":"A"}\n\n{"_id":"b","when":{"$date":"2020-01-01T00:00:00Z"}}\n`, "jsonl", "TRUNCATE_BEFORE");
    expect(store.count("Peaks", {})).toBe(2);
    expect(store.findItem("Peaks", "k2")).toBeUndefined();
    expect(store.findItem("Peaks", "b")?.when).toEqual({ $date: "2020-01-01T00:00:00.000Z" });
  });

  it("reports every bad row with its line number and changes nothing", () => {
    const bad = `_id,name,height,climbed
ok,Fine,1,true
h,Bad height,tall,true
c,Bad flag,2,maybe
ok,Duplicate,3,false
`;
    const report = importItems(store, "Peaks", bad, "csv", "TRUNCATE_BEFORE");
    expect(report.badRows.map((row) => row.line)).toEqual([3, 4, 5]);
    expect(report.badRows[0].message).toContain("not a number");
    expect(store.count("Peaks", {})).toBe(1);
    expect(store.findItem("Peaks", "ok")).toBeUndefined();
  });

  it("reports broken JSONL lines", () => {
    const report = importItems(store, "Peaks", `{"_id":"x"}\n{oops\n{"$bad":1}\n`, "jsonl", "OVERWRITE");
    expect(report.badRows).toEqual([
      { line: 2, message: "not valid JSON" },
      { line: 3, message: expect.stringContaining("dollar") },
    ]);
    expect(store.findItem("Peaks", "x")).toBeUndefined();
  });

  it("refuses an unknown collection", () => {
    expect(() => importItems(store, "Nope", "", "csv", "OVERWRITE")).toThrow(/Nope collection does not exist/);
  });
});

describe("export", () => {
  it("round-trips through CSV and JSONL", () => {
    importItems(store, "Peaks", csv, "csv", "OVERWRITE");
    const items = () => exportItems(store, "Peaks", "jsonl").trim().split("\n").map((line) => JSON.parse(line) as unknown);
    for (const format of ["csv", "jsonl"] as const) {
      const text = exportItems(store, "Peaks", format);
      const before = items();
      expect(importItems(store, "Peaks", text, format, "TRUNCATE_BEFORE").inserted).toBe(3);
      expect(items()).toEqual(before);
    }
  });

  it("writes CSV columns: _id, fields, then system fields", () => {
    expect(exportItems(store, "Peaks", "csv").split("\n")[0]).toBe("_id,name,height,climbed,firstAscent,tags,_owner,_createdDate,_updatedDate");
  });

  it("exports the demo content", () => {
    seedDemoContent(store.db);
    expect(exportItems(store, "Peaks", "jsonl").trim().split("\n")).toHaveLength(1);
  });
});
