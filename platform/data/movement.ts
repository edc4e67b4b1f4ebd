import fs from "node:fs";
import readline from "node:readline";
import { parse } from "csv-parse";
import { stringify } from "csv-stringify/sync";
import { isDateValue, isPlainObject } from "./query-compiler";
import type { CollectionField, StoredCollection } from "./collection";
import type { ItemData } from "./wire";

/**
 * The file side of data movement (docs/platform/data.md §17): reading CSV and JSONL files row by
 * row with their line numbers, and writing items as CSV or JSONL. CSV cells are typed by the
 * collection's fields (numbers, booleans, datetimes, arrays/objects as JSON); JSONL lines are
 * items in the wire form (`{"$date"}` dates).
 */

/** Write policies of an import: what happens to an item whose `_id` the collection has. */
export const IMPORT_MODES = ["OVERWRITE", "SKIP_EXISTING", "TRUNCATE_BEFORE"] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export type FileFormat = "CSV" | "JSONL";

/** One row of a source file: its item, or why it cannot be read. `line` is where the row ends (1 is the first line). */
export type SourceRow = { line: number; data?: ItemData; problem?: string };

const SYSTEM_DATE_COLUMNS = new Set(["_createdDate", "_updatedDate"]);

/** The format a file name's extension names (`.csv`, `.jsonl`), or undefined. */
export function formatOfName(name: string | undefined): FileFormat | undefined {
  const extension = name?.split(".").pop()?.toLowerCase();
  return extension === "csv" ? "CSV" : extension === "jsonl" ? "JSONL" : undefined;
}

/** The format of a file that names none: JSONL when its first non-blank character opens an object. */
export function sniffFormat(file: string): FileFormat {
  const handle = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(4096);
    const read = fs.readSync(handle, buffer, 0, buffer.length, 0);
    return buffer
      .subarray(0, read)
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trimStart()
      .startsWith("{")
      ? "JSONL"
      : "CSV";
  } finally {
    fs.closeSync(handle);
  }
}

/** A CSV cell as the field's type; empty cells are absent values. */
function cellValue(text: string, column: string, field: CollectionField | undefined): unknown {
  if (text === "") return undefined;
  const type = SYSTEM_DATE_COLUMNS.has(column) ? "DATETIME" : field?.type;
  switch (type) {
    case "NUMBER": {
      const value = Number(text);
      if (!Number.isFinite(value)) throw new Error(`column ${column}: [${text}] is not a number`);
      return value;
    }
    case "BOOLEAN":
      if (!/^(true|false)$/i.test(text)) throw new Error(`column ${column}: [${text}] is not true or false`);
      return text.toLowerCase() === "true";
    case "DATETIME": {
      const time = Date.parse(text);
      if (Number.isNaN(time)) throw new Error(`column ${column}: [${text}] is not a date and time`);
      return { $date: new Date(time).toISOString() };
    }
    case "ARRAY_STRING":
    case "ARRAY":
    case "ARRAY_DOCUMENT":
    case "MEDIA_GALLERY":
    case "OBJECT":
    case "ADDRESS":
    case "RICH_CONTENT":
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`column ${column}: [${text}] is not JSON`);
      }
    default:
      return text;
  }
}

async function* jsonlRows(file: string): AsyncGenerator<SourceRow> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, "utf8"), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    const content = line === 1 ? text.replace(/^\uFEFF/, "") : text;
    if (content.trim() === "") continue;
    let data: unknown;
    try {
      data = JSON.parse(content);
    } catch {
      yield { line, problem: "not valid JSON" };
      continue;
    }
    yield isPlainObject(data) ? { line, data } : { line, problem: "a line must hold one JSON object" };
  }
}

/** CSV records with a header row; a record whose cell count differs from the header's is a bad row, a broken file (e.g. an unclosed quote) an error. */
async function* csvRows(file: string, collection: StoredCollection): AsyncGenerator<SourceRow> {
  const fields = new Map(collection.fields.map((field) => [field.key, field]));
  const parser = fs.createReadStream(file).pipe(parse({ columns: true, info: true, bom: true, skip_empty_lines: true, relax_column_count: true }));
  for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number; error?: Error } }>) {
    if (info.error) {
      yield { line: info.lines, problem: info.error.message };
      continue;
    }
    try {
      const data: ItemData = {};
      for (const [column, cell] of Object.entries(record)) {
        const value = cellValue(cell, column, fields.get(column));
        if (value !== undefined) data[column] = value;
      }
      yield { line: info.lines, data };
    } catch (error) {
      yield { line: info.lines, problem: (error as Error).message };
    }
  }
}

/** A source file's rows in order, read as they are needed. */
export function readRows(file: string, format: FileFormat, collection: StoredCollection): AsyncGenerator<SourceRow> {
  return format === "JSONL" ? jsonlRows(file) : csvRows(file, collection);
}

/** The next `size` rows of a reader (fewer at the end of the file). */
export async function nextRows(rows: AsyncIterator<SourceRow>, size: number): Promise<SourceRow[]> {
  const batch: SourceRow[] = [];
  while (batch.length < size) {
    const next = await rows.next();
    if (next.done) break;
    batch.push(next.value);
  }
  return batch;
}

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (isDateValue(value)) return value.$date;
  if (Array.isArray(value) || isPlainObject(value)) return JSON.stringify(value);
  return String(value);
}

/** The system fields an export writes after the collection's fields. */
const TRAILING_SYSTEM_COLUMNS = ["_owner", "_createdDate", "_updatedDate", "_publishStatus"];

/**
 * CSV columns for an export: `_id`, the collection's fields (multi-reference links are not
 * item data), the other keys found on the items, then the system fields that occur.
 */
export function csvColumns(collection: StoredCollection, keysFound: Iterable<string>): string[] {
  const found = new Set(keysFound);
  const columns = ["_id", ...collection.fields.filter((field) => field.type !== "MULTI_REFERENCE").map((field) => field.key)];
  for (const key of found) if (!columns.includes(key) && !key.startsWith("_")) columns.push(key);
  return [...columns, ...TRAILING_SYSTEM_COLUMNS.filter((column) => column !== "_publishStatus" || found.has(column))];
}

/** Text for items in a format: CSV rows under `columns` (the header first when asked), or one JSON line per item. */
export function encodeItems(items: ItemData[], format: FileFormat, columns: string[], withHeader: boolean): string {
  if (format === "JSONL") return items.map((item) => `${JSON.stringify(item)}\n`).join("");
  const rows = items.map((item) => columns.map((column) => csvCell(item[column])));
  return stringify(withHeader ? [columns, ...rows] : rows);
}
