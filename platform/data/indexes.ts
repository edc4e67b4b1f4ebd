import { createHash, randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";
import { indexBuildFailed } from "./errors";
import { createItemIndex, dropItemIndex, duplicateItem, itemIndexExists, type IndexSpec } from "./item-indexes";

/**
 * User indexes of collections (`@wix/data` `indexes`): each is a real SQLite expression index on
 * `data_items`, led by `collection_id` and then, per field, the value's JSON type and the value,
 * the shape the query compiler's type-strict comparisons seek. Builds and drops run after the
 * request that asked for them, so the states BUILDING and DROPPING can be seen.
 */

export type IndexStatus = "UNKNOWN" | "BUILDING" | "ACTIVE" | "DROPPING" | "DROPPED" | "FAILED" | "INVALID";
export type StoredIndex = IndexSpec & {
  id: string;
  collectionId: string;
  status: IndexStatus;
  failure?: { code: string; description: string; itemId: string | null };
  sqlName: string;
};

/** Per collection, as the collections API reports in `capabilities.indexLimits`. */
export const INDEX_LIMITS = { regular: 3, unique: 1, total: 4 };

export type IndexRow = { id: string; collection_id: string; name: string; spec: string; status: IndexStatus; failure: string | null; sql_name: string };

export const migrateIndexes: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS data_indexes (
      id TEXT PRIMARY KEY,
      collection_id TEXT NOT NULL,
      name TEXT NOT NULL,
      spec TEXT NOT NULL,
      status TEXT NOT NULL,
      failure TEXT,
      sql_name TEXT NOT NULL,
      created_date TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS data_indexes_collection ON data_indexes (collection_id, created_date);
  `);
};

export class IndexStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {
    // Work a stopped platform left unfinished: builds and drops start again; an index whose
    // SQLite index is gone no longer reflects the data.
    for (const index of this.all()) {
      if (index.status === "BUILDING") this.scheduleBuild(index);
      if (index.status === "DROPPING") this.scheduleDrop(index);
      if (index.status === "ACTIVE" && !itemIndexExists(this.db, index.sqlName)) this.setStatus(index.id, "INVALID");
    }
  }

  private all(): StoredIndex[] {
    return (this.db.prepare("SELECT * FROM data_indexes").all() as IndexRow[]).map(fromRow);
  }

  list(collectionId: string): StoredIndex[] {
    return (this.db.prepare("SELECT * FROM data_indexes WHERE collection_id = ? ORDER BY created_date, id").all(collectionId) as IndexRow[]).map(fromRow);
  }

  find(collectionId: string, name: string): StoredIndex | undefined {
    const row = this.db.prepare("SELECT * FROM data_indexes WHERE collection_id = ? AND name = ? AND status <> 'DROPPED'").get(collectionId, name) as
      IndexRow | undefined;
    return row && fromRow(row);
  }

  /** Indexes that count against the limits: every one not dropped and not failed. */
  inUse(collectionId: string): StoredIndex[] {
    return this.list(collectionId).filter((index) => index.status !== "DROPPED" && index.status !== "FAILED");
  }

  /** Records the index as BUILDING and builds it after the current request. */
  create(collectionId: string, spec: IndexSpec): StoredIndex {
    const id = randomUUID();
    const sqlName = `data_user_index_${createHash("sha1").update(`${collectionId}\u0000${id}`).digest("hex").slice(0, 20)}`;
    this.db
      .prepare("INSERT INTO data_indexes (id, collection_id, name, spec, status, sql_name, created_date) VALUES (?, ?, ?, ?, 'BUILDING', ?, ?)")
      .run(id, collectionId, spec.name, JSON.stringify(spec), sqlName, this.now().toISOString());
    const index = this.get(id);
    this.scheduleBuild(index);
    return index;
  }

  /** Marks the index DROPPING and drops it after the current request. */
  drop(index: StoredIndex): void {
    this.setStatus(index.id, "DROPPING");
    this.scheduleDrop(index);
  }

  /** Drops every index of a collection at once (the collection is being deleted). */
  dropAll(collectionId: string): void {
    for (const index of this.list(collectionId)) dropItemIndex(this.db, index.sqlName);
    this.db.prepare("DELETE FROM data_indexes WHERE collection_id = ?").run(collectionId);
  }

  private get(id: string): StoredIndex {
    return fromRow(this.db.prepare("SELECT * FROM data_indexes WHERE id = ?").get(id) as IndexRow);
  }

  private setStatus(id: string, status: IndexStatus, failure?: StoredIndex["failure"]): void {
    this.db.prepare("UPDATE data_indexes SET status = ?, failure = ? WHERE id = ?").run(status, failure ? JSON.stringify(failure) : null, id);
  }

  private scheduleBuild(index: StoredIndex): void {
    setImmediate(() => {
      // Dropped or gone before the build began: nothing to build.
      const current = this.db.prepare("SELECT status FROM data_indexes WHERE id = ?").pluck().get(index.id);
      if (current !== "BUILDING") return;
      try {
        createItemIndex(this.db, index);
        this.setStatus(index.id, "ACTIVE");
      } catch (error) {
        const duplicate = (error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE";
        this.setStatus(index.id, "FAILED", indexBuildFailed(duplicate ? "WDE0113" : "WDE0112", duplicate ? duplicateItem(this.db, index) : null));
      }
    });
  }

  private scheduleDrop(index: StoredIndex): void {
    setImmediate(() => {
      dropItemIndex(this.db, index.sqlName);
      this.setStatus(index.id, "DROPPED");
    });
  }
}

export function fromRow(row: IndexRow): StoredIndex {
  const spec = JSON.parse(row.spec) as IndexSpec;
  return {
    ...spec,
    id: row.id,
    collectionId: row.collection_id,
    status: row.status,
    ...(row.failure && { failure: JSON.parse(row.failure) as StoredIndex["failure"] }),
    sqlName: row.sql_name,
  };
}

/** The REST shape of an index (the SDK renames `id` to `_id`). */
export function wireIndex(index: StoredIndex) {
  return {
    id: index.id,
    name: index.name,
    fields: index.fields,
    status: index.status,
    unique: index.unique,
    caseInsensitive: index.caseInsensitive,
    source: "USER",
    ...(index.failure && { failure: index.failure }),
  };
}
