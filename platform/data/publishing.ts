import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db";
import { invalidPublishStatusFilter, invalidValue } from "./errors";
import { isPlainObject } from "./query-compiler";
import type { CollectionDefinition, DataStore } from "./store";
import type { ItemData } from "./wire";

/**
 * Drafts and publishing (the collections' Publish plugin, docs/platform/data.md §18): in a
 * collection with the plugin every item has a publish status, DRAFT or PUBLISHED, in its
 * `_publishStatus` field. Reads leave drafts out unless the admin key asks for them. A status
 * can be scheduled to change at a given time.
 */

export const PUBLISH_STATUSES = ["PUBLISHED", "DRAFT"] as const;
export type PublishStatus = (typeof PUBLISH_STATUSES)[number];

/** The item field that holds the status; items without it are PUBLISHED. */
export const PUBLISH_STATUS_FIELD = "_publishStatus";

export type CollectionPlugin = { type: "PUBLISH"; publishOptions?: { defaultStatus?: PublishStatus } };

/** The collection's Publish plugin options, or undefined when it has none (its items are all published). */
export function publishPlugin(collection: Pick<CollectionDefinition, "plugins">): { defaultStatus: PublishStatus } | undefined {
  const plugin = collection.plugins?.find((candidate) => candidate.type === "PUBLISH");
  return plugin && { defaultStatus: plugin.publishOptions?.defaultStatus ?? "PUBLISHED" };
}

/**
 * Sets the status a written item keeps, in a collection with the plugin: the writer's own choice
 * when it may choose (the admin key, imports), else the item's current status (updates), else the
 * collection's default (new items). Other collections keep the data as sent.
 */
export function settlePublishStatus(collection: CollectionDefinition, data: ItemData, writer: { mayChoose: boolean; current?: ItemData }): void {
  const plugin = publishPlugin(collection);
  if (!plugin) return;
  const asked = data[PUBLISH_STATUS_FIELD];
  if (writer.mayChoose && asked !== undefined) {
    if (!PUBLISH_STATUSES.includes(asked as PublishStatus)) throw invalidValue(`Invalid ${PUBLISH_STATUS_FIELD} [${String(asked)}]: use DRAFT or PUBLISHED.`);
    return;
  }
  const kept = writer.current ? writer.current[PUBLISH_STATUS_FIELD] : plugin.defaultStatus;
  if (kept === undefined) delete data[PUBLISH_STATUS_FIELD];
  else data[PUBLISH_STATUS_FIELD] = kept;
}

/** Whether a read that leaves drafts out must skip this item. */
export function isHiddenDraft(collection: CollectionDefinition, item: ItemData, includeDrafts: boolean): boolean {
  return !includeDrafts && publishPlugin(collection) !== undefined && item[PUBLISH_STATUS_FIELD] === "DRAFT";
}

/** A `_publishStatus` condition as a condition on the stored field, where a missing status means PUBLISHED. */
function statusCondition(operand: unknown): unknown {
  const [operator, value] = isPlainObject(operand) ? (Object.entries(operand)[0] ?? []) : ["$eq", operand];
  const single = !isPlainObject(operand) || Object.keys(operand).length === 1;
  if (!single || (operator !== "$eq" && operator !== "$ne") || !PUBLISH_STATUSES.includes(value as PublishStatus)) throw invalidPublishStatusFilter();
  const draft = (operator === "$eq") === (value === "DRAFT");
  return draft ? "DRAFT" : { $ne: "DRAFT" };
}

/**
 * The filter with its `_publishStatus` conditions rewritten for the stored form (eq/ne with DRAFT
 * or PUBLISHED only, WDE0093 otherwise); other conditions are left to the query compiler.
 */
export function publishStatusFilter(filter: unknown): unknown {
  if (Array.isArray(filter)) return filter.map(publishStatusFilter);
  if (!isPlainObject(filter)) return filter;
  return Object.fromEntries(
    Object.entries(filter).map(([key, operand]) => {
      if (key === PUBLISH_STATUS_FIELD) return [key, statusCondition(operand)];
      if (key === "$and" || key === "$or" || key === "$not") return [key, publishStatusFilter(operand)];
      return [key, operand];
    }),
  );
}

export const PUBLISH_SCHEDULE_SQL = `
  CREATE TABLE IF NOT EXISTS data_publish_schedules (
    collection_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    status TEXT NOT NULL,
    due_at TEXT NOT NULL,
    PRIMARY KEY (collection_id, item_id, status)
  );
  CREATE INDEX IF NOT EXISTS data_publish_schedules_due ON data_publish_schedules (due_at);
`;

export type ScheduledChange = { collectionId: string; itemId: string; status: PublishStatus; dueAt: string };

/** Scheduled status changes: at most one to each status per item (a later schedule replaces it). */
export class PublishScheduleStore {
  constructor(private readonly db: Db) {}

  schedule(collectionId: string, itemId: string, status: PublishStatus, dueAt: Date): void {
    this.db
      .prepare("INSERT INTO data_publish_schedules (collection_id, item_id, status, due_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET due_at = excluded.due_at")
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
      .prepare("SELECT collection_id AS collectionId, item_id AS itemId, status, due_at AS dueAt FROM data_publish_schedules WHERE collection_id = ? AND item_id = ? ORDER BY due_at")
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
      .prepare("SELECT collection_id AS collectionId, item_id AS itemId, status, due_at AS dueAt FROM data_publish_schedules WHERE due_at <= ? ORDER BY due_at, rowid")
      .all(now.toISOString()) as ScheduledChange[];
    this.db.prepare("DELETE FROM data_publish_schedules WHERE due_at <= ?").run(now.toISOString());
    return due;
  }
}

/** Sets an item's status, keeping the rest of it (its `_updatedDate` moves, as for any change). */
export function setPublishStatus(store: DataStore, collectionId: string, itemId: string, status: PublishStatus): void {
  const item = store.getItem(collectionId, itemId);
  if (item[PUBLISH_STATUS_FIELD] === status) return;
  store.replaceItem(collectionId, itemId, { ...item, [PUBLISH_STATUS_FIELD]: status });
}

/** Timers cannot wait longer than about 24.8 days; a longer wait is re-armed when it ends. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Applies scheduled changes when they fall due: a timer set for the next one, and a check before
 * every data request (so a read never sees a change that is overdue). Owned by the server; the
 * CLI applies nothing.
 */
export class PublishScheduler {
  private timer: NodeJS.Timeout | undefined;
  private nextDueAt: number | null = null;

  constructor(
    private readonly store: DataStore,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Reads the next due time and sets the timer for it; call after the schedule changes. */
  arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.store.schedules.nextDue();
    this.nextDueAt = next?.getTime() ?? null;
    if (this.nextDueAt === null) return;
    const wait = Math.min(Math.max(0, this.nextDueAt - this.now().getTime()), MAX_TIMER_MS);
    this.timer = setTimeout(() => this.applyDue(), wait);
    this.timer.unref();
  }

  /** Applies what is due, if anything is (cheap when nothing is: one comparison). */
  applyIfDue(): void {
    if (this.nextDueAt !== null && this.nextDueAt <= this.now().getTime()) this.applyDue();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.nextDueAt = null;
  }

  private applyDue(): void {
    try {
      this.store.transaction(() => {
        for (const change of this.store.schedules.takeDue(this.now())) {
          try {
            // The item may have gone since it was scheduled.
            if (this.store.findItem(change.collectionId, change.itemId)) this.store.transaction(() => setPublishStatus(this.store, change.collectionId, change.itemId, change.status));
          } catch (error) {
            // One change that cannot be made (e.g. a unique index refuses it) is dropped alone.
            this.log.error({ err: error, ...change }, "scheduled publish status change failed");
          }
        }
      });
    } catch (error) {
      // The schedule could not be read or updated: stop rather than retry at once, forever.
      this.log.error({ err: error }, "applying scheduled publish status changes failed");
      this.stop();
      return;
    }
    this.arm();
  }
}
