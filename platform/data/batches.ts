import { PlatformError } from "../http/errors";
import type { DataStore, ItemQuery } from "./store";

/** Items handled per batch; the event loop serves other requests between batches. */
export const JOB_BATCH_SIZE = 200;

/** How far a background run has got: entries done and entries refused. */
export type BatchTally = { succeeded: number; failed: number };

/** An entry the operation refused, with the platform error it gave. */
export type BatchFailure<T> = { entry: T; error: PlatformError };

export type BatchHooks<T> = {
  /** Hears the tally and the batch's refused entries after each batch; `done` after the last. */
  report(tally: BatchTally, done: boolean, failures: BatchFailure<T>[]): void;
  /** Hears an unexpected error, which ends the run. */
  crash(error: unknown, tally: BatchTally): void;
  /** Asked before each batch; true ends the run without another report (cancelled work). */
  stopped?(): boolean;
};

/** The next entries of a run, at most `size`; fewer means there are no more. */
export type BatchSource<T> = (size: number) => T[] | Promise<T[]>;

/** How a run ended. */
export type BatchEnd = "done" | "stopped" | "crashed";

/**
 * Runs `apply` on every entry `take` gives, one batch per turn of the event loop, each batch in
 * one transaction and each entry in a savepoint. An entry the operation refuses (a platform
 * error) rolls back alone and is reported; anything else ends the run. The answer settles when
 * the run ends. Used by the async by-filter jobs (docs/platform/data.md §12), tasks (§16) and
 * data-movement jobs (§17).
 */
export function runBatches<T>(
  store: DataStore,
  take: BatchSource<T>,
  apply: (entry: T) => void,
  hooks: BatchHooks<T>,
  batchSize = JOB_BATCH_SIZE,
): Promise<BatchEnd> {
  const tally: BatchTally = { succeeded: 0, failed: 0 };
  return new Promise((settle) => {
    const step = async () => {
      try {
        if (hooks.stopped?.()) return settle("stopped");
        // A synchronous source is read in the same turn as its batch runs, so nothing changes in between.
        const taken = take(batchSize);
        const entries = taken instanceof Promise ? await taken : taken;
        if (taken instanceof Promise && hooks.stopped?.()) return settle("stopped");
        const failures: BatchFailure<T>[] = [];
        store.transaction(() => {
          for (const entry of entries) {
            try {
              store.transaction(() => apply(entry));
            } catch (error) {
              if (!(error instanceof PlatformError)) throw error;
              failures.push({ entry, error });
            }
          }
        });
        tally.succeeded += entries.length - failures.length;
        tally.failed += failures.length;
        const done = entries.length < batchSize;
        hooks.report({ ...tally }, done, failures);
        if (done) settle("done");
        else setImmediate(() => void step());
      } catch (error) {
        hooks.crash(error, { ...tally });
        settle("crashed");
      }
    };
    setImmediate(() => void step());
  });
}

/**
 * Runs `apply` on every item matching `query`, in id order, with `runBatches`. Items are visited
 * once each (by id, after the last one done), so an operation that changes whether an item
 * matches does not repeat it.
 */
export function runInBatches(
  store: DataStore,
  collectionId: string,
  query: Pick<ItemQuery, "filter" | "visibility" | "includeDrafts">,
  apply: (id: string) => void,
  hooks: BatchHooks<string>,
): Promise<BatchEnd> {
  let afterId: string | null = null;
  const take = (size: number) => {
    const ids = store.matchingIds(collectionId, query, afterId, size);
    afterId = ids.at(-1) ?? afterId;
    return ids;
  };
  return runBatches(store, take, apply, hooks);
}
