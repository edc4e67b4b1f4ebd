import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../db";
import { PlatformError } from "../http/errors";
import { compileFilter, compileSort, type SortSpec } from "./query-compiler";
import { dateValue, toWireItem, type StoredItem, type WireDataItem } from "./wire";

export type PermissionRole = "ADMIN" | "SITE_MEMBER_AUTHOR" | "SITE_MEMBER" | "ANYONE";
export type CollectionPermissions = Record<"read" | "insert" | "update" | "remove", PermissionRole>;

export type CollectionField = {
  key: string;
  displayName: string;
  type: string;
  typeMetadata?: Record<string, unknown>;
};

export type CollectionDefinition = {
  id: string;
  displayName: string;
  displayField?: string;
  fields: CollectionField[];
  permissions: CollectionPermissions;
};

export const migrateData: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS data_collections (
      id TEXT PRIMARY KEY,
      doc TEXT NOT NULL,
      created_date TEXT NOT NULL,
      updated_date TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS data_items (
      collection_id TEXT NOT NULL REFERENCES data_collections (id) ON DELETE CASCADE,
      id TEXT NOT NULL,
      data TEXT NOT NULL,
      owner TEXT,
      created_date TEXT NOT NULL,
      updated_date TEXT NOT NULL,
      PRIMARY KEY (collection_id, id)
    );
    CREATE INDEX IF NOT EXISTS data_items_created ON data_items (collection_id, created_date, id);
    CREATE INDEX IF NOT EXISTS data_items_updated ON data_items (collection_id, updated_date, id);
    CREATE INDEX IF NOT EXISTS data_items_owner ON data_items (collection_id, owner);
  `);
};

export type QueryPage = { items: WireDataItem[]; total?: number; hasNext: boolean };

export class DataStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  createCollection(definition: CollectionDefinition): void {
    const stamp = this.now().toISOString();
    this.db
      .prepare("INSERT INTO data_collections (id, doc, created_date, updated_date) VALUES (?, ?, ?, ?)")
      .run(definition.id, JSON.stringify(definition), stamp, stamp);
  }

  getCollection(id: string): CollectionDefinition {
    const row = this.db.prepare("SELECT doc FROM data_collections WHERE id = ?").get(id) as { doc: string } | undefined;
    if (!row) throw new PlatformError(404, "WDE0025", `The ${id} collection does not exist. You cannot work with a collection using its display name.`, { collectionId: id });
    return JSON.parse(row.doc) as CollectionDefinition;
  }

  countCollections(): number {
    return (this.db.prepare("SELECT count(*) AS n FROM data_collections").get() as { n: number }).n;
  }

  /** Inserts an item, stamping the system fields; the caller becomes its `_owner`. */
  insert(collectionId: string, data: Record<string, unknown>, owner: string | null): WireDataItem {
    this.getCollection(collectionId);
    const id = typeof data._id === "string" && data._id !== "" ? data._id : randomUUID();
    const created = typeof data._createdDate === "object" && data._createdDate ? data._createdDate : dateValue(this.now());
    const stored = { ...data, _id: id, _owner: owner ?? undefined, _createdDate: created, _updatedDate: created };
    const createdIso = (created as { $date: string }).$date;
    try {
      this.db
        .prepare(
          "INSERT INTO data_items (collection_id, id, data, owner, created_date, updated_date) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .run(collectionId, id, JSON.stringify(stored), owner, createdIso, createdIso);
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
        throw new PlatformError(409, "WDE0074", `Item [${id}] already exists in collection [${collectionId}].`, { itemId: id });
      }
      throw error;
    }
    return toWireItem({ collection_id: collectionId, id, data: JSON.stringify(stored) });
  }

  query(
    collectionId: string,
    options: { filter?: unknown; sort?: SortSpec[]; limit: number; offset: number; fields?: string[]; countTotal: boolean },
  ): QueryPage {
    this.getCollection(collectionId);
    const where = compileFilter(options.filter);
    const rows = this.db
      .prepare(
        `SELECT collection_id, id, data FROM data_items WHERE collection_id = ? AND (${where.sql}) ORDER BY ${compileSort(options.sort)} LIMIT ? OFFSET ?`,
      )
      .all(collectionId, ...where.params, options.limit + 1, options.offset) as StoredItem[];
    const hasNext = rows.length > options.limit;
    const items = rows.slice(0, options.limit).map((row) => toWireItem(row, options.fields));
    const total = options.countTotal
      ? (this.db
          .prepare(`SELECT count(*) AS n FROM data_items WHERE collection_id = ? AND (${where.sql})`)
          .get(collectionId, ...where.params) as { n: number }).n
      : undefined;
    return { items, total, hasNext };
  }
}
