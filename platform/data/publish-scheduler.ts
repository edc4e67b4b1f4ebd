import type { FastifyBaseLogger } from "fastify";
import type { PublishStatus } from "./collection";
import { PUBLISH_STATUS_FIELD } from "./publishing";
import type { DataStore } from "./store";

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
            if (this.store.findItem(change.collectionId, change.itemId))
              this.store.transaction(() => setPublishStatus(this.store, change.collectionId, change.itemId, change.status));
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
