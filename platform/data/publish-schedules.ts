import type { Db, Migration } from "../types";
import type { PublishStatus } from "./collection";

export const migratePublishSchedules: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS data_publish_schedules (
      collection_id TEXT NOT NULL,
      item_id TEXT NOT NULL,
      status TEXT NOT NULL,
      due_at TEXT NOT NULL,
      PRIMARY KEY (collection_id, item_id, status)
    );
    CREATE INDEX IF NOT EXISTS data_publish_schedules_due ON data_publish_schedules (due_at);
  `);
};

export type ScheduledChange = { collectionId: string; itemId: string; status: PublishStatus; dueAt: string };

/** Scheduled status changes: at most one to each status per item (a later schedule replaces it). */
export class PublishScheduleStore {
  constructor(private readonly db: Db) {}

  schedule(collectionId: string, itemId: string, status: PublishStatus, dueAt: Date): void {
    this.db
      .prepare(
        "INSERT INTO data_publish_schedules (collection_id, item_id, status, due_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET due_at = excluded.due_at",
      )
      .run(collectionId, itemId, status, dueAt.toISOString());
  }

  /** Cancels every scheduled change of an item. */
  cancel(collectionId: string, itemId: string): void {
    this.db.prepare("DELETE FROM data_publish_schedules WHERE collection_id = ? AND item_id = ?").run(collectionId, itemId);
  }

  cancelCollection(collectionId: string): void {
    this.db.prepare("DELETE FROM data_publish_schedules WHERE collection_id = ?").run(collectionId);
  }

  /** An item's pending changes, soonest first. */
  forItem(collectionId: string, itemId: string): ScheduledChange[] {
    return this.db
      .prepare(
        "SELECT collection_id AS collectionId, item_id AS itemId, status, due_at AS dueAt " +
          "FROM data_publish_schedules WHERE collection_id = ? AND item_id = ? ORDER BY due_at",
      )
      .all(collectionId, itemId) as ScheduledChange[];
  }

  /** When the next change is due, or null. */
  nextDue(): Date | null {
    const dueAt = this.db.prepare("SELECT min(due_at) FROM data_publish_schedules").pluck().get() as string | null;
    return dueAt === null ? null : new Date(dueAt);
  }

  /** Takes the changes due by `now`, in due order (so a later change wins), out of the schedule. */
  takeDue(now: Date): ScheduledChange[] {
    const due = this.db
      .prepare(
        "SELECT collection_id AS collectionId, item_id AS itemId, status, due_at AS dueAt FROM data_publish_schedules WHERE due_at <= ? ORDER BY due_at, rowid",
      )
      .all(now.toISOString()) as ScheduledChange[];
    this.db.prepare("DELETE FROM data_publish_schedules WHERE due_at <= ?").run(now.toISOString());
    return due;
  }
}
