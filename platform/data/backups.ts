import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";
import { DocumentTable } from "./documents";
import { BackupFile } from "./backup-file";
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

  /** Where a backup's SQLite file is (the Studio offers it for download). */
  fileOf(id: string): string {
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
    const snapshot = new BackupFile(this.db, `backup_${backup.id.replaceAll("-", "")}`);
    const file = this.fileOf(backup.id);
    let attached = false;
    let afterRowid = 0;
    let itemsCopied = 0;
    const fail = () => {
      try {
        if (attached) snapshot.detach();
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
        const batch = snapshot.copyItemsAfter(afterRowid, COPY_BATCH_ROWS);
        if (batch) {
          itemsCopied += batch.copied;
          afterRowid = batch.last;
          onProgress?.(itemsCopied);
          setImmediate(copyItems);
          return;
        }
        const collections = snapshot.copyLinksAndCollections();
        snapshot.detach();
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
        snapshot.attach(file);
        attached = true;
        snapshot.createTables();
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
      const snapshot = new BackupFile(this.db, `restore_${restoration.id.replaceAll("-", "")}`);
      let status: RestorationStatus = "COMPLETED";
      try {
        snapshot.attach(this.fileOf(backup.id));
        try {
          this.db.transaction(() => {
            for (const choice of restorationCollections) this.restoreCollection(snapshot, choice);
          })();
        } finally {
          snapshot.detach();
        }
      } catch {
        status = "FAILED";
      }
      const saved = this.saveRestoration({ ...restoration, status, startedDate: started, finishedDate: this.stamp() });
      onSettled?.(saved);
    });
    return restoration;
  }

  private restoreCollection(snapshot: BackupFile, choice: RestorationCollection): void {
    const source = choice.dataCollectionId;
    const target = choice.restoreDestination?.dataCollectionId ?? source;
    const row = snapshot.collection(source);
    if (!row) throw new Error(`collection ${source} is not in the backup`);
    const definition = { ...(JSON.parse(row.doc) as CollectionDefinition), id: target };
    const displayName = choice.restoreDestination?.displayName;
    if (displayName) definition.displayName = displayName;
    snapshot.restoreCollection(source, { ...row, id: target, doc: JSON.stringify(definition) });
    this.store.indexFields(definition);
  }
}
