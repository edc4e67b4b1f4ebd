import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";
import type { DataAction, SpecialPermission } from "./collection";
import { specialPermissionsExist, specialPermissionsNotFound } from "./errors";

/**
 * The permissions API's special permissions: one set per member and collection (docs/platform/data.md §10).
 * No foreign key: a backup restore replaces the collection's row, and grants are settings that outlive it.
 */
export const migrateSpecialPermissions: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS data_special_permissions (
      id TEXT PRIMARY KEY,
      collection_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      allowed TEXT NOT NULL,
      UNIQUE (collection_id, user_id)
    );
  `);
};

type Row = { id: string; collection_id: string; user_id: string; allowed: string };

const toGrant = (row: Row): SpecialPermission => ({ id: row.id, userId: row.user_id, allowed: JSON.parse(row.allowed) as DataAction[] });

export class SpecialPermissionStore {
  constructor(private readonly db: Db) {}

  list(collectionId: string): SpecialPermission[] {
    const rows = this.db.prepare("SELECT * FROM data_special_permissions WHERE collection_id = ? ORDER BY rowid").all(collectionId) as Row[];
    return rows.map(toGrant);
  }

  /** A new set for a member of the collection; a second one for the same member is ALREADY_EXISTS. */
  add(collectionId: string, userId: string, allowed: DataAction[]): SpecialPermission {
    const id = randomUUID();
    const inserted = this.db
      .prepare("INSERT OR IGNORE INTO data_special_permissions (id, collection_id, user_id, allowed) VALUES (?, ?, ?, ?)")
      .run(id, collectionId, userId, JSON.stringify(allowed));
    if (inserted.changes === 0) throw specialPermissionsExist(collectionId, userId);
    return { id, userId, allowed };
  }

  /** Replaces what a set allows; returns it with the collection it belongs to. */
  update(id: string, allowed: DataAction[]): SpecialPermission & { collectionId: string } {
    if (this.db.prepare("UPDATE data_special_permissions SET allowed = ? WHERE id = ?").run(JSON.stringify(allowed), id).changes === 0) {
      throw specialPermissionsNotFound(id);
    }
    const row = this.db.prepare("SELECT * FROM data_special_permissions WHERE id = ?").get(id) as Row;
    return { ...toGrant(row), collectionId: row.collection_id };
  }

  /** Every set of a collection that is deleted. */
  clear(collectionId: string): void {
    this.db.prepare("DELETE FROM data_special_permissions WHERE collection_id = ?").run(collectionId);
  }

  remove(id: string): void {
    if (this.db.prepare("DELETE FROM data_special_permissions WHERE id = ?").run(id).changes === 0) throw specialPermissionsNotFound(id);
  }
}
