import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";
import { DocumentTable } from "./documents";
import type { DataStore } from "./store";
import type { CollectionDefinition } from "./collection";

/**
 * Backups of the data service (`@wix/data` `backups`): each is a SQLite file under the data
 * folder holding the collections, items and multi-reference links as they were. Taking a backup
 * and restoring one run after the request that asked, so their states can be followed.
 */

export type BackupStatus = "PENDING" | "READY" | "FAILED" | "DELETED" | "CANCELED";
export type RestorationStatus = "PENDING" | "COMPLETED" | "FAILED";

export type Backup = {
  id: string;
  status: BackupStatus;
  type: "ON_DEMAND";
  requestedDate: string;
  startedDate: string | null;
  finishedDate: string | null;
  deletedDate: string | null;
  sizeInBytes: string | null;
  collections: { id: string; displayName: string | null }[];
};

/** A collection to restore, and where to (by default: the same id and display name). */
export type RestorationCollection = { dataCollectionId: string; restoreDestination?: { dataCollectionId?: string; displayName?: string | null } };

export type Restoration = {
  id: string;
  backup: Backup;
  status: RestorationStatus;
  requestedDate: string;
  startedDate: string | null;
  finishedDate: string | null;
  restorationCollections: RestorationCollection[];
};

export const migrateBackups: Migration = (db) => db.exec(DocumentTable.schema("data_backups") + DocumentTable.schema("data_restorations"));

/** Items copied into a backup per turn of the event loop. */
const COPY_BATCH_ROWS = 2_000;

/** The tables a backup file holds, created like the live ones. */
const SNAPSHOT_SCHEMA = (schema: string) => `
  CREATE TABLE ${schema}.data_collections (id TEXT PRIMARY KEY, doc TEXT NOT NULL, revision INTEGER NOT NULL, created_date TEXT NOT NULL, updated_date TEXT NOT NULL);
  CREATE TABLE ${schema}.data_items (collection_id TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, owner TEXT, created_date TEXT NOT NULL, updated_date TEXT NOT NULL, PRIMARY KEY (collection_id, id));
  CREATE TABLE ${schema}.data_references (position INTEGER PRIMARY KEY, collection_id TEXT NOT NULL, field TEXT NOT NULL, referring_id TEXT NOT NULL, referenced_collection_id TEXT NOT NULL, referenced_id TEXT NOT NULL);
`;

/** Backup files live in the platform's data folder. */
export function backupFolder(dataDir: string): string {
  return path.join(dataDir, "backups");
}

export class BackupStore {
  private readonly db: Db;
  private readonly backups: DocumentTable<Backup>;
  private readonly restorations: DocumentTable<Restoration>;

  constructor(
    private readonly store: DataStore,
    private readonly folder: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.db = store.db;
    this.backups = new DocumentTable(this.db, "data_backups");
    this.restorations = new DocumentTable(this.db, "data_restorations");
  }

  /** On start: work a stopped platform left unfinished cannot be trusted, so it failed. */
  failUnfinished(): void {
    for (const backup of this.listBackups()) if (backup.status === "PENDING") this.saveBackup({ ...backup, status: "FAILED", finishedDate: this.stamp() });
    for (const restoration of this.listRestorations()) {
      if (restoration.status === "PENDING") this.saveRestoration({ ...restoration, status: "FAILED", finishedDate: this.stamp() });
    }
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private fileOf(id: string): string {
    return path.join(this.folder, `${id}.sqlite`);
  }

  // Records

  private saveBackup(backup: Backup): Backup {
    return this.backups.save(backup, backup.requestedDate);
  }

  private saveRestoration(restoration: Restoration): Restoration {
    return this.restorations.save(restoration, restoration.requestedDate);
  }

  findBackup(id: string): Backup | undefined {
    return this.backups.find(id);
  }

  /** Newest first. */
  listBackups(): Backup[] {
    return this.backups.list();
  }

  /** Newest first. */
  listRestorations(): Restoration[] {
    return this.restorations.list();
  }

  // Taking a backup

  /**
   * Records a PENDING backup and copies the data into its file after the current request, items
   * in batches so other requests are served in between; READY when done, FAILED if anything
   * goes wrong. `onSettled` hears the final state and `onProgress` the items copied so far
   * (tools wait on them).
   */
  createBackup(onSettled?: (backup: Backup) => void, onProgress?: (itemsCopied: number) => void): Backup {
    const backup = this.saveBackup({
      id: randomUUID(),
      status: "PENDING",
      type: "ON_DEMAND",
      requestedDate: this.stamp(),
      startedDate: null,
      finishedDate: null,
      deletedDate: null,
      sizeInBytes: null,
      collections: [],
    });
    const schema = `backup_${backup.id.replaceAll("-", "")}`;
    const file = this.fileOf(backup.id);
    let attached = false;
    let afterRowid = 0;
    let itemsCopied = 0;
    const fail = () => {
      try {
        if (attached) this.db.exec(`DETACH DATABASE ${schema}`);
        fs.rmSync(file, { force: true });
      } catch {
        // Cleaning up is best effort: when the folder could not be made there is nothing to remove.
      }
      settle({ ...backup, status: "FAILED", finishedDate: this.stamp() });
    };
    // Saved whether or not anyone listens (an optional call would skip evaluating its argument).
    const settle = (final: Backup) => {
      const saved = this.saveBackup(final);
      onSettled?.(saved);
    };
    const copyItems = () => {
      try {
        const last = this.db.prepare("SELECT max(position) FROM (SELECT rowid AS position FROM main.data_items WHERE rowid > ? ORDER BY rowid LIMIT ?)").pluck().get(afterRowid, COPY_BATCH_ROWS) as number | null;
        if (last !== null) {
          itemsCopied += this.db
            .prepare(`INSERT INTO ${schema}.data_items SELECT collection_id, id, data, owner, created_date, updated_date FROM main.data_items WHERE rowid > ? AND rowid <= ?`)
            .run(afterRowid, last).changes;
          afterRowid = last;
          onProgress?.(itemsCopied);
          setImmediate(copyItems);
          return;
        }
        // Links and collections last, in one step, so every copied link has its collection.
        this.db.transaction(() => {
          this.db.exec(`INSERT INTO ${schema}.data_references SELECT * FROM main.data_references`);
          this.db.exec(`INSERT INTO ${schema}.data_collections SELECT * FROM main.data_collections`);
        })();
        const collections = this.db.prepare(`SELECT id, doc FROM ${schema}.data_collections ORDER BY id`).all() as { id: string; doc: string }[];
        this.db.exec(`DETACH DATABASE ${schema}`);
        attached = false;
        settle({
          ...backup,
          status: "READY",
          startedDate: backup.startedDate ?? this.stamp(),
          finishedDate: this.stamp(),
          sizeInBytes: String(fs.statSync(file).size),
          collections: collections.map(({ id, doc }) => ({ id, displayName: (JSON.parse(doc) as CollectionDefinition).displayName ?? null })),
        });
      } catch {
        fail();
      }
    };
    setImmediate(() => {
      try {
        backup.startedDate = this.stamp();
        this.saveBackup(backup);
        fs.mkdirSync(this.folder, { recursive: true });
        this.db.prepare("ATTACH DATABASE ? AS " + schema).run(file);
        attached = true;
        this.db.exec(SNAPSHOT_SCHEMA(schema));
        copyItems();
      } catch {
        fail();
      }
    });
    return backup;
  }

  /** Removes the backup's file; the record stays, DELETED. */
  deleteBackup(backup: Backup): Backup {
    fs.rmSync(this.fileOf(backup.id), { force: true });
    return this.saveBackup({ ...backup, status: "DELETED", deletedDate: this.stamp() });
  }

  // Restoring

  /**
   * Records a PENDING restoration and restores after the current request, in one transaction:
   * each chosen collection (all of the backup's without a choice) gets back exactly its
   * definition, items and multi-reference links of the backup, under its own id or the chosen
   * destination. COMPLETED, or FAILED with nothing changed.
   */
  restore(backup: Backup, chosen: RestorationCollection[] | undefined, onSettled?: (restoration: Restoration) => void): Restoration {
    const restorationCollections = chosen ?? backup.collections.map((collection) => ({ dataCollectionId: collection.id }));
    const restoration = this.saveRestoration({
      id: randomUUID(),
      backup,
      status: "PENDING",
      requestedDate: this.stamp(),
      startedDate: null,
      finishedDate: null,
      restorationCollections,
    });
    setImmediate(() => {
      const started = this.stamp();
      const schema = `restore_${restoration.id.replaceAll("-", "")}`;
      let status: RestorationStatus = "COMPLETED";
      try {
        this.db.prepare("ATTACH DATABASE ? AS " + schema).run(this.fileOf(backup.id));
        try {
          this.db.transaction(() => {
            for (const choice of restorationCollections) this.restoreCollection(schema, choice);
          })();
        } finally {
          this.db.exec(`DETACH DATABASE ${schema}`);
        }
      } catch {
        status = "FAILED";
      }
      const saved = this.saveRestoration({ ...restoration, status, startedDate: started, finishedDate: this.stamp() });
      onSettled?.(saved);
    });
    return restoration;
  }

  private restoreCollection(schema: string, choice: RestorationCollection): void {
    const source = choice.dataCollectionId;
    const target = choice.restoreDestination?.dataCollectionId ?? source;
    const row = this.db.prepare(`SELECT * FROM ${schema}.data_collections WHERE id = ?`).get(source) as
      | { doc: string; revision: number; created_date: string; updated_date: string }
      | undefined;
    if (!row) throw new Error(`collection ${source} is not in the backup`);
    const definition = { ...(JSON.parse(row.doc) as CollectionDefinition), id: target };
    const displayName = choice.restoreDestination?.displayName;
    if (displayName) definition.displayName = displayName;

    // The target's current content goes; other collections are left as they are, and its
    // user indexes stay (a unique one can make the restoration fail).
    this.db.prepare("DELETE FROM main.data_references WHERE collection_id = ? OR referenced_collection_id = ?").run(target, target);
    this.db.prepare("DELETE FROM main.data_items WHERE collection_id = ?").run(target);
    this.db.prepare("DELETE FROM main.data_collections WHERE id = ?").run(target);
    this.db
      .prepare("INSERT INTO main.data_collections (id, doc, revision, created_date, updated_date) VALUES (?, ?, ?, ?, ?)")
      .run(target, JSON.stringify(definition), row.revision, row.created_date, row.updated_date);
    this.db
      .prepare(`INSERT INTO main.data_items SELECT ?, id, data, owner, created_date, updated_date FROM ${schema}.data_items WHERE collection_id = ?`)
      .run(target, source);
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
      .run(source, target, source, target, source, source, source, target);
    this.store.indexFields(definition);
  }
}
