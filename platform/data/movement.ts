import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { PlatformError } from "../http/errors";
import { isDateValue, isPlainObject } from "./query-compiler";
import type { CollectionField, DataStore, StoredCollection } from "./store";
import { normaliseItemData, type ItemData } from "./wire";

/**
 * Data movement for the CLI: CSV and JSONL in and out of a collection. CSV cells are typed by
 * the collection's fields (numbers, booleans, datetimes, arrays/objects as JSON); JSONL lines
 * are items in the wire form (`{"$date"}` dates). Imports are all-or-nothing.
 */

export type ImportMode = "OVERWRITE" | "SKIP_EXISTING" | "TRUNCATE_BEFORE";
export type MovementFormat = "csv" | "jsonl";

export type BadRow = { line: number; message: string };
export type ImportReport = { inserted: number; updated: number; skipped: number; badRows: BadRow[] };

const SYSTEM_DATE_COLUMNS = new Set(["_createdDate", "_updatedDate"]);

export function formatOf(file: string, explicit?: string): MovementFormat {
  const format = (explicit ?? file.split(".").pop() ?? "").toLowerCase();
  if (format === "csv" || format === "jsonl") return format;
  throw new Error(`Unknown format [${format}]: use .csv or .jsonl files, or --format csv|jsonl.`);
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

type ParsedRow = { line: number; data?: ItemData; error?: string };

function parseRows(collection: StoredCollection, text: string, format: MovementFormat): ParsedRow[] {
  const fields = new Map(collection.fields.map((field) => [field.key, field]));
  if (format === "jsonl") {
    return text.split(/\r?\n/).flatMap((line, index): ParsedRow[] => {
      if (line.trim() === "") return [];
      try {
        return [{ line: index + 1, data: JSON.parse(line) as ItemData }];
      } catch {
        return [{ line: index + 1, error: "not valid JSON" }];
      }
    });
  }
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, { columns: true, info: true, skip_empty_lines: true, bom: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    return [{ line, error: (error as Error).message }];
  }
  return records.map(({ record, info }) => {
    try {
      const data: ItemData = {};
      for (const [column, cell] of Object.entries(record)) {
        const value = cellValue(cell, column, fields.get(column));
        if (value !== undefined) data[column] = value;
      }
      return { line: info.lines, data };
    } catch (error) {
      return { line: info.lines, error: (error as Error).message };
    }
  });
}

/**
 * Imports every row or none: bad rows are all reported with their line numbers and the
 * transaction is rolled back, so nothing already stored is lost.
 */
export function importItems(store: DataStore, collectionId: string, text: string, format: MovementFormat, mode: ImportMode): ImportReport {
  const collection = store.getCollection(collectionId);
  const rows = parseRows(collection, text, format);
  const report: ImportReport = { inserted: 0, updated: 0, skipped: 0, badRows: [] };
  const seen = new Map<string, number>();
  const valid: { line: number; data: ItemData }[] = [];
  for (const row of rows) {
    if (row.error !== undefined || !row.data) {
      report.badRows.push({ line: row.line, message: row.error ?? "empty row" });
      continue;
    }
    try {
      const data = normaliseItemData(row.data, collectionId);
      const id = data._id as string | undefined;
      if (id !== undefined && seen.has(id)) throw new PlatformError(400, "WDE0074", `duplicate _id [${id}] (also on line ${seen.get(id)})`);
      if (id !== undefined) seen.set(id, row.line);
      valid.push({ line: row.line, data });
    } catch (error) {
      report.badRows.push({ line: row.line, message: (error as Error).message });
    }
  }
  if (report.badRows.length > 0) return report;
  store.transaction(() => {
    if (mode === "TRUNCATE_BEFORE") store.truncate(collectionId);
    for (const { data } of valid) {
      const owner = typeof data._owner === "string" ? data._owner : null;
      const exists = typeof data._id === "string" && store.findItem(collectionId, data._id) !== undefined;
      if (!exists) {
        store.insertItem(collectionId, data, owner, true);
        report.inserted++;
      } else if (mode === "OVERWRITE") {
        store.replaceItem(collectionId, data._id as string, data, owner);
        report.updated++;
      } else {
        report.skipped++;
      }
    }
  });
  return report;
}

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (isDateValue(value)) return value.$date;
  if (Array.isArray(value) || isPlainObject(value)) return JSON.stringify(value);
  return String(value);
}

/** Every item of a collection in creation order, as CSV (columns: `_id`, the fields, then the other system fields) or JSONL. */
export function exportItems(store: DataStore, collectionId: string, format: MovementFormat): string {
  const collection = store.getCollection(collectionId);
  const rows = store.db
    .prepare("SELECT data FROM data_items WHERE collection_id = ? ORDER BY created_date, id")
    .pluck()
    .all(collectionId) as string[];
  const items = rows.map((row) => JSON.parse(row) as ItemData);
  if (format === "jsonl") return items.map((item) => JSON.stringify(item)).join("\n") + (items.length > 0 ? "\n" : "");
  const columns = ["_id", ...collection.fields.filter((f) => f.type !== "MULTI_REFERENCE").map((f) => f.key)];
  for (const item of items) for (const key of Object.keys(item)) if (!columns.includes(key) && !key.startsWith("_")) columns.push(key);
  columns.push("_owner", "_createdDate", "_updatedDate");
  return stringify([columns, ...items.map((item) => columns.map((column) => csvCell(item[column])))]);
}
