import type { Db } from "../types";

/** A collection's row as a backup file keeps it. */
export type SnapshotCollection = { id: string; doc: string; revision: number; created_date: string; updated_date: string };

/**
 * The store of a backup file's tables (collections, items, multi-reference links), attached to
 * the platform's connection under its own schema name: the item SQL of backups and
 * restorations, which docs/platform/data.md keeps in stores.
 */
export class BackupFile {
  constructor(
    private readonly db: Db,
    private readonly schema: string,
  ) {}

  attach(file: string): void {
    this.db.prepare("ATTACH DATABASE ? AS " + this.schema).run(file);
  }

  detach(): void {
    this.db.exec(`DETACH DATABASE ${this.schema}`);
  }

  /** The tables a backup file holds, created like the live ones. */
  createTables(): void {
    const schema = this.schema;
    this.db.exec(`
      CREATE TABLE ${schema}.data_collections (
        id TEXT PRIMARY KEY, doc TEXT NOT NULL, revision INTEGER NOT NULL, created_date TEXT NOT NULL, updated_date TEXT NOT NULL
      );
      CREATE TABLE ${schema}.data_items (
        collection_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, owner TEXT, created_date TEXT NOT NULL, updated_date TEXT NOT NULL,
        PRIMARY KEY (collection_id, id)
      );
      CREATE TABLE ${schema}.data_references (
        position INTEGER PRIMARY KEY, collection_id TEXT NOT NULL, field TEXT NOT NULL, referring_id TEXT NOT NULL,
        referenced_collection_id TEXT NOT NULL, referenced_id TEXT NOT NULL
      );
    `);
  }

  /** Copies up to `limit` live items after `afterRowid` into the file; null when none are left. */
  copyItemsAfter(afterRowid: number, limit: number): { last: number; copied: number } | null {
    const last = this.db
      .prepare("SELECT max(position) FROM (SELECT rowid AS position FROM main.data_items WHERE rowid > ? ORDER BY rowid LIMIT ?)")
      .pluck()
      .get(afterRowid, limit) as number | null;
    if (last === null) return null;
    const copied = this.db
      .prepare(
        `INSERT INTO ${this.schema}.data_items SELECT collection_id, id, data, owner, created_date, updated_date` +
          " FROM main.data_items WHERE rowid > ? AND rowid <= ?",
      )
      .run(afterRowid, last).changes;
    return { last, copied };
  }

  /** Links and collections last, in one step, so every copied link has its collection; answers the copied collections. */
  copyLinksAndCollections(): { id: string; doc: string }[] {
    this.db.transaction(() => {
      this.db.exec(`INSERT INTO ${this.schema}.data_references SELECT * FROM main.data_references`);
      this.db.exec(`INSERT INTO ${this.schema}.data_collections SELECT * FROM main.data_collections`);
    })();
    return this.db.prepare(`SELECT id, doc FROM ${this.schema}.data_collections ORDER BY id`).all() as { id: string; doc: string }[];
  }

  collection(id: string): SnapshotCollection | undefined {
    return this.db.prepare(`SELECT * FROM ${this.schema}.data_collections WHERE id = ?`).get(id) as SnapshotCollection | undefined;
  }

  /**
   * Replaces the live collection `target.id` with the file's collection `source`: its row as
   * given, the file's items and its multi-reference links.
   */
  restoreCollection(source: string, target: SnapshotCollection): void {
    const schema = this.schema;
    // The target's current content goes; other collections are left as they are, and its
    // user indexes stay (a unique one can make the restoration fail).
    this.db.prepare("DELETE FROM main.data_references WHERE collection_id = ? OR referenced_collection_id = ?").run(target.id, target.id);
    this.db.prepare("DELETE FROM main.data_items WHERE collection_id = ?").run(target.id);
    this.db.prepare("DELETE FROM main.data_collections WHERE id = ?").run(target.id);
    this.db
      .prepare("INSERT INTO main.data_collections (id, doc, revision, created_date, updated_date) VALUES (?, ?, ?, ?, ?)")
      .run(target.id, target.doc, target.revision, target.created_date, target.updated_date);
    this.db
      .prepare(`INSERT INTO main.data_items SELECT ?, id, data, owner, created_date, updated_date FROM ${schema}.data_items WHERE collection_id = ?`)
      .run(target.id, source);
    // Links from the restored collection, and links into it from collections that exist now.
    this.db
      .prepare(
        `INSERT OR IGNORE INTO main.data_references (collection_id, field, referring_id, referenced_collection_id, referenced_id)
         SELECT CASE WHEN collection_id = ? THEN ? ELSE collection_id END, field, referring_id,
                CASE WHEN referenced_collection_id = ? THEN ? ELSE referenced_collection_id END, referenced_id
         FROM ${schema}.data_references
         WHERE (collection_id = ? OR referenced_collection_id = ?)
           AND EXISTS (SELECT 1 FROM main.data_collections AS c WHERE c.id = CASE WHEN collection_id = ? THEN ? ELSE collection_id END)
         ORDER BY position`,
      )
      .run(source, target.id, source, target.id, source, source, source, target.id);
  }
}
