import type { Db } from "../types";
import { FOLD_FUNCTION, jsonPath } from "./query-compiler";

// The SQLite indexes on `data_items` behind the user indexes: the SQL on the item table that
// `indexes.ts` needs, kept in a store of its own (docs/platform/data.md §1), while `indexes.ts`
// keeps the records of its own table.

export type IndexField = { path: string; order: "ASC" | "DESC" };
export type IndexSpec = { name: string; fields: IndexField[]; unique: boolean; caseInsensitive: boolean };

/** What the SQLite index is built from: the spec, the collection it leads with, and its SQLite name. */
type IndexShape = Omit<IndexSpec, "name"> & { collectionId: string; sqlName: string };

/** The indexed expressions of one field, in the compiler's form (`wix_fold` for case-insensitive indexes). */
function fieldColumns(field: IndexField, caseInsensitive: boolean): string[] {
  const path = jsonPath(field.path);
  const value = `json_extract(data, '${path}')`;
  return [`json_type(data, '${path}')`, `${caseInsensitive ? `${FOLD_FUNCTION}(${value})` : value} ${field.order}`];
}

export function createItemIndex(db: Db, index: IndexShape): void {
  const columns = ["collection_id", ...index.fields.flatMap((field) => fieldColumns(field, index.caseInsensitive))];
  db.exec(`CREATE ${index.unique ? "UNIQUE " : ""}INDEX IF NOT EXISTS ${index.sqlName} ON data_items (${columns.join(", ")})`);
}

export function dropItemIndex(db: Db, sqlName: string): void {
  db.exec(`DROP INDEX IF EXISTS ${sqlName}`);
}

export function itemIndexExists(db: Db, sqlName: string): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?").get(sqlName);
}

/** An item whose indexed values another item of the collection shares (what stopped a unique build). */
export function duplicateItem(db: Db, index: IndexShape): string | null {
  const key = index.fields
    .flatMap((field) => fieldColumns({ ...field, order: "ASC" }, index.caseInsensitive).map((column) => column.replace(/ ASC$/, "")))
    .join(", ");
  return (
    (db
      .prepare(
        `SELECT id FROM data_items WHERE collection_id = ? AND (${key}) IN ` +
          `(SELECT ${key} FROM data_items WHERE collection_id = ? GROUP BY ${key} HAVING count(*) > 1) ORDER BY id LIMIT 1`,
      )
      .pluck()
      .get(index.collectionId, index.collectionId) as string | undefined) ?? null
  );
}
