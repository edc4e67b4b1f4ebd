import type { Db, Migration } from "../types";

/**
 * Deleted collections kept for a while (docs/platform/data.md §2.1): `deleteDataCollection` moves a
 * collection's row, items and multi-reference links here, and `restoreDataCollection` brings them
 * back. Wix keeps a deleted collection restorable "for a limited amount of time"; the platform
 * keeps it for TRASH_DAYS, after which the pruning sweep drops it for good.
 */
export const TRASH_DAYS = 30;

export const migrateTrash: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS data_trash_collections (
      id TEXT PRIMARY KEY, doc TEXT NOT NULL, revision INTEGER NOT NULL, created_date TEXT NOT NULL, updated_date TEXT NOT NULL,
      deleted_date TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS data_trash_items (
      collection_id TEXT NOT NULL REFERENCES data_trash_collections (id) ON DELETE CASCADE,
      id TEXT NOT NULL, data TEXT NOT NULL, owner TEXT, created_date TEXT NOT NULL, updated_date TEXT NOT NULL,
      PRIMARY KEY (collection_id, id)
    );
    CREATE TABLE IF NOT EXISTS data_trash_references (
      trashed_id TEXT NOT NULL REFERENCES data_trash_collections (id) ON DELETE CASCADE,
      position INTEGER NOT NULL, collection_id TEXT NOT NULL, field TEXT NOT NULL, referring_id TEXT NOT NULL,
      referenced_collection_id TEXT NOT NULL, referenced_id TEXT NOT NULL
    );
  `);
};

export class TrashStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** Copies a live collection into the trash (replacing an older deletion of the same id); the caller then deletes it. */
  keep(id: string): void {
    this.db.prepare("DELETE FROM data_trash_collections WHERE id = ?").run(id);
    this.db
      .prepare("INSERT INTO data_trash_collections SELECT id, doc, revision, created_date, updated_date, ? FROM data_collections WHERE id = ?")
      .run(this.now().toISOString(), id);
    this.db
      .prepare("INSERT INTO data_trash_items SELECT collection_id, id, data, owner, created_date, updated_date FROM data_items WHERE collection_id = ?")
      .run(id);
    this.db
      .prepare(
        `INSERT INTO data_trash_references SELECT ?, position, collection_id, field, referring_id, referenced_collection_id, referenced_id
         FROM data_references WHERE collection_id = ? OR referenced_collection_id = ?`,
      )
      .run(id, id, id);
  }

  has(id: string): boolean {
    return this.db.prepare("SELECT 1 FROM data_trash_collections WHERE id = ?").get(id) !== undefined;
  }

  /**
   * Puts a trashed collection back as it was deleted: its row, its items, its links and the links
   * into it from collections that exist now; then empties its place in the trash.
   */
  restore(id: string): void {
    this.db
      .prepare(
        "INSERT INTO data_collections (id, doc, revision, created_date, updated_date) " +
          "SELECT id, doc, revision, created_date, updated_date FROM data_trash_collections WHERE id = ?",
      )
      .run(id);
    this.db
      .prepare("INSERT INTO data_items SELECT collection_id, id, data, owner, created_date, updated_date FROM data_trash_items WHERE collection_id = ?")
      .run(id);
    this.db
      .prepare(
        `INSERT OR IGNORE INTO data_references (collection_id, field, referring_id, referenced_collection_id, referenced_id)
         SELECT collection_id, field, referring_id, referenced_collection_id, referenced_id FROM data_trash_references AS link
         WHERE trashed_id = ?
           AND EXISTS (SELECT 1 FROM data_collections AS c WHERE c.id = link.collection_id)
           AND EXISTS (SELECT 1 FROM data_collections AS c WHERE c.id = link.referenced_collection_id)
         ORDER BY position`,
      )
      .run(id);
    this.db.prepare("DELETE FROM data_trash_collections WHERE id = ?").run(id);
  }

  /** Drops deletions older than TRASH_DAYS; answers how many. */
  prune(): number {
    const cutoff = new Date(this.now().getTime() - TRASH_DAYS * 24 * 60 * 60 * 1000).toISOString();
    return this.db.prepare("DELETE FROM data_trash_collections WHERE deleted_date < ?").run(cutoff).changes;
  }
}
