import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { csvColumns, encodeItems, formatOfName, nextRows, readRows, sniffFormat, type FileFormat } from "./movement";
import type { StoredCollection } from "./collection";

/** The file side of data movement: reading rows with their lines and types, writing CSV and JSONL. */

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "movement-test-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const peaks: StoredCollection = {
  id: "Peaks",
  fields: [
    { key: "name", type: "TEXT" },
    { key: "height", type: "NUMBER" },
    { key: "climbed", type: "BOOLEAN" },
    { key: "firstAscent", type: "DATETIME" },
    { key: "tags", type: "ARRAY_STRING" },
    { key: "routes", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Routes" } } },
  ],
  permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  revision: 1,
  createdDate: "2026-01-01T00:00:00.000Z",
  updatedDate: "2026-01-01T00:00:00.000Z",
  specialPermissions: [],
};

let files = 0;
function fileWith(text: string): string {
  const file = path.join(folder, `f${files++}`);
  fs.writeFileSync(file, text);
  return file;
}

async function rowsOf(text: string, format: FileFormat) {
  const rows = [];
  for await (const row of readRows(fileWith(text), format, peaks)) rows.push(row);
  return rows;
}

describe("reading rows", () => {
  it("types CSV cells by the collection's fields; empty cells are absent", async () => {
    const rows = await rowsOf(
      "\uFEFF_id,name,height,climbed,firstAscent,tags,_createdDate\n" +
        'everest,Everest,8849,TRUE,1953-05-29T11:30:00Z,"[""himalaya""]",2020-01-01T00:00:00Z\n' +
        ",Nameless,,,,,\n",
      "CSV",
    );
    expect(rows).toEqual([
      {
        line: 2,
        data: {
          _id: "everest",
          name: "Everest",
          height: 8849,
          climbed: true,
          firstAscent: { $date: "1953-05-29T11:30:00.000Z" },
          tags: ["himalaya"],
          _createdDate: { $date: "2020-01-01T00:00:00.000Z" },
        },
      },
      { line: 3, data: { name: "Nameless" } },
    ]);
  });

  it("reports each bad CSV row with the line it ends on, and reads on", async () => {
    const rows = await rowsOf(
      `_id,name,height,climbed\nok,Fine,1,true\nh,Bad height,tall,true\nc,Bad flag,2,maybe\nshort,Short\n"multi\nline",M,3,false\n`,
      "CSV",
    );
    expect(rows.map((row) => [row.line, row.problem ?? "ok"])).toEqual([
      [2, "ok"],
      [3, "column height: [tall] is not a number"],
      [4, "column climbed: [maybe] is not true or false"],
      [5, expect.stringContaining("Invalid Record Length")],
      [7, "ok"],
    ]);
  });

  it("reads JSONL lines as items, skipping blank lines, and reports broken ones", async () => {
    const rows = await rowsOf(`{"_id":"a","when":{"$date":"2020-01-01T00:00:00Z"}}\n\n{oops\n[1,2]\n{"_id":"b"}`, "JSONL");
    expect(rows).toEqual([
      { line: 1, data: { _id: "a", when: { $date: "2020-01-01T00:00:00Z" } } },
      { line: 3, problem: "not valid JSON" },
      { line: 4, problem: "a line must hold one JSON object" },
      { line: 5, data: { _id: "b" } },
    ]);
  });

  it("stops at a CSV file that cannot be parsed (an unclosed quote)", async () => {
    await expect(rowsOf(`_id,name\na,"open\n`, "CSV")).rejects.toThrow(/Quote Not Closed/);
  });

  it("reads batches of rows on demand", async () => {
    const rows = readRows(fileWith(Array.from({ length: 5 }, (_, i) => `{"n":${i}}`).join("\n")), "JSONL", peaks);
    expect((await nextRows(rows, 3)).map((row) => row.data?.n)).toEqual([0, 1, 2]);
    expect((await nextRows(rows, 3)).map((row) => row.data?.n)).toEqual([3, 4]);
    expect(await nextRows(rows, 3)).toEqual([]);
  });

  it("knows a file's format by its name, or by its first character", () => {
    expect([formatOfName("a.CSV"), formatOfName("b.jsonl"), formatOfName("c.txt"), formatOfName(undefined)]).toEqual(["CSV", "JSONL", undefined, undefined]);
    expect(sniffFormat(fileWith(`\n  {"a":1}`))).toBe("JSONL");
    expect(sniffFormat(fileWith(`a,b\n1,2`))).toBe("CSV");
  });
});

describe("writing items", () => {
  const items = [
    {
      _id: "k2",
      name: "K2",
      height: 8611,
      tags: ["karakoram"],
      extra: { a: 1 },
      _owner: "o",
      _createdDate: { $date: "2020-01-01T00:00:00.000Z" },
      _updatedDate: { $date: "2020-01-02T00:00:00.000Z" },
    },
    { _id: "x", climbed: false, _createdDate: { $date: "2020-01-03T00:00:00.000Z" }, _updatedDate: { $date: "2020-01-03T00:00:00.000Z" } },
  ];

  it("lays CSV columns out as _id, the fields (no multi-references), other keys, then system fields", () => {
    const keys = items.flatMap((item) => Object.keys(item));
    expect(csvColumns(peaks, keys)).toEqual(["_id", "name", "height", "climbed", "firstAscent", "tags", "extra", "_owner", "_createdDate", "_updatedDate"]);
    expect(csvColumns(peaks, [...keys, "_publishStatus"]).at(-1)).toBe("_publishStatus");
  });

  it("round-trips items through CSV and JSONL", async () => {
    const columns = csvColumns(
      peaks,
      items.flatMap((item) => Object.keys(item)),
    );
    for (const format of ["CSV", "JSONL"] as const) {
      const text = encodeItems(items.slice(0, 1), format, columns, true) + encodeItems(items.slice(1), format, columns, false);
      expect((await rowsOf(text, format)).map((row) => row.data)).toEqual(
        format === "CSV" ? items.map(({ extra, ...rest }) => ({ ...rest, ...(extra && { extra: JSON.stringify(extra) }) })) : items,
      );
    }
  });
});
