import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { FastifyBaseLogger } from "fastify";
import type { Caller, Db, Migration } from "../types";
import { runInBatches, type BatchTally } from "./batches";
import { DocumentTable } from "./documents";
import { badRequest, workFailure } from "./errors";
import type { ItemService } from "./items";
import type { FieldModification } from "./patch";
import { setPublishStatus, type PublishScheduler } from "./publish-scheduler";
import { publishPlugin } from "./publishing";
import type { DataStore, ItemSelection } from "./store";
import type { StoredCollection } from "./collection";

/**
 * Background tasks of the data service (`@wix/data` `tasks`): delete by query, copy a field's
 * data into another field, edit an array field's values, change or schedule items' publish
 * status. Each runs over the matching items in batches (docs/platform/data.md §16) and reports
 * its progress on the task.
 */

export type TaskStatus = "NEW" | "RUNNING" | "COMPLETED" | "FAILED";
export type ArrayOperations = { addItems?: unknown[]; removeItems?: unknown[]; replaceItems?: { from?: unknown; to?: unknown }[]; removeDuplicates?: boolean };
export type PublishOperation = "SET_PUBLISHED_STATUS" | "SET_DRAFT_STATUS" | "SCHEDULE_PUBLISHED_STATUS" | "SCHEDULE_DRAFT_STATUS" | "CANCEL_SCHEDULING";
type Filter = Record<string, unknown> | null;
export type TaskOptions =
  | { type: "DELETE_BY_QUERY"; deleteByQueryOptions: { dataCollectionId: string; filter?: Filter; publishPluginOptions?: { includeDraftItems?: boolean } } }
  | { type: "COPY_FIELD_DATA"; copyFieldDataOptions: { dataCollectionId: string; sourceFieldKey: string; targetFieldKey: string } }
  | { type: "EDIT_FIELD_DATA"; editFieldDataOptions: { dataCollectionId: string; filter?: Filter; fieldKey: string; operations: ArrayOperations } }
  | {
      type: "UPDATE_PUBLISH_STATUS";
      updatePublishStatusOptions: {
        dataCollectionId: string;
        filter?: Filter;
        operation: PublishOperation;
        schedulePublishedStatusOptions?: { date: string };
        scheduleDraftStatusOptions?: { date: string };
      };
    };

type Failure = { code: string; description: string; data?: Record<string, unknown> };
type TaskState = {
  id: string;
  status: TaskStatus;
  startedAt: string | null;
  finishedAt: string | null;
  estimatedItemCount: number;
  itemsSucceeded: number;
  itemsFailed: number;
  failures: Failure[];
};
export type Task = TaskOptions & TaskState;

export const migrateTasks: Migration = (db) => db.exec(DocumentTable.schema("data_tasks"));

/** The tasks' records (also read by the CLI). */
export const taskTable = (db: Db) => new DocumentTable<Task>(db, "data_tasks");

/** Failures kept on a task; the count goes on past it. */
const MAX_KEPT_FAILURES = 100;

/** The failure a cancelled task ends with. */
export const CANCELLED_FAILURE = workFailure("CANCELLED", "The task was cancelled.");

/** The collection a task works on. */
export function collectionOf(options: TaskOptions): string {
  switch (options.type) {
    case "DELETE_BY_QUERY":
      return options.deleteByQueryOptions.dataCollectionId;
    case "COPY_FIELD_DATA":
      return options.copyFieldDataOptions.dataCollectionId;
    case "EDIT_FIELD_DATA":
      return options.editFieldDataOptions.dataCollectionId;
    case "UPDATE_PUBLISH_STATUS":
      return options.updatePublishStatusOptions.dataCollectionId;
  }
}

/** The new value of an array field after an edit: remove, replace, add, then drop repeats. */
export function editedArray(current: unknown, operations: ArrayOperations): unknown[] {
  const same = isDeepStrictEqual;
  let values = Array.isArray(current) ? [...current] : current === undefined || current === null ? [] : [current];
  values = values.filter((value) => !(operations.removeItems ?? []).some((removed) => same(value, removed)));
  values = values.map((value) => (operations.replaceItems ?? []).find((replace) => same(value, replace.from))?.to ?? value);
  values.push(...(operations.addItems ?? []));
  if (operations.removeDuplicates) values = values.filter((value, index) => values.findIndex((other) => same(other, value)) === index);
  return values;
}

export class TaskService {
  private readonly tasks: DocumentTable<Task>;
  /** Ids of running tasks asked to stop. */
  private readonly cancelled = new Set<string>();

  constructor(
    private readonly store: DataStore,
    private readonly items: ItemService,
    private readonly scheduler: PublishScheduler,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.tasks = taskTable(store.db);
  }

  /** On start: a task that was under way when the platform stopped will not finish. */
  failUnfinished(): void {
    for (const task of this.tasks.list()) {
      if (task.status === "NEW" || task.status === "RUNNING") {
        this.save({
          ...task,
          status: "FAILED",
          finishedAt: this.stamp(),
          failures: [...task.failures, workFailure("INTERRUPTED", "The platform stopped while the task ran.")],
        });
      }
    }
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private save(task: Task): Task {
    return this.tasks.save(task, this.stamp());
  }

  find(id: string): Task | undefined {
    return this.tasks.find(id);
  }

  /** Newest first. */
  list(): Task[] {
    return this.tasks.list();
  }

  /** Records the task NEW and runs it after the current request. The filter is checked here, with the code a query would answer. */
  start(options: TaskOptions, collection: StoredCollection, caller: Caller): Task {
    const { selection, apply } = this.plan(options, collection, caller);
    const task = this.save({
      ...options,
      id: randomUUID(),
      status: "NEW",
      startedAt: null,
      finishedAt: null,
      estimatedItemCount: this.store.count(collection.id, selection),
      itemsSucceeded: 0,
      itemsFailed: 0,
      failures: [],
    });
    const kept: Failure[] = [];
    const progress = (tally: BatchTally): Pick<TaskState, "itemsSucceeded" | "itemsFailed" | "failures"> => ({
      itemsSucceeded: tally.succeeded,
      itemsFailed: tally.failed,
      failures: [...kept],
    });
    this.save({ ...task, status: "RUNNING", startedAt: this.stamp() });
    void runInBatches(this.store, collection.id, selection, apply, {
      stopped: () => this.cancelled.delete(task.id),
      report: (tally, done, failures) => {
        for (const { error } of failures.slice(0, MAX_KEPT_FAILURES - kept.length))
          kept.push({ code: error.code, description: error.message, data: error.data });
        // Scheduled changes made by this batch get the scheduler's timer.
        if (options.type === "UPDATE_PUBLISH_STATUS") this.scheduler.arm();
        const current = this.find(task.id);
        if (current?.status !== "RUNNING") return;
        const finished: Partial<TaskState> = done ? { status: tally.failed > 0 ? "FAILED" : "COMPLETED", finishedAt: this.stamp() } : {};
        this.save({ ...current, ...progress(tally), ...finished });
      },
      crash: (error, tally) => {
        this.log.error({ err: error, taskId: task.id }, "data task failed");
        const current = this.find(task.id);
        if (current) this.save({ ...current, ...progress(tally), status: "FAILED", finishedAt: this.stamp() });
      },
    });
    return task;
  }

  /** Stops a task that has not finished: it ends FAILED with the cancellation as its last failure. */
  cancel(task: Task): Task {
    this.cancelled.add(task.id);
    return this.save({ ...task, status: "FAILED", finishedAt: this.stamp(), failures: [...task.failures, CANCELLED_FAILURE] });
  }

  /** Which items a task visits and what it does to each. */
  private plan(options: TaskOptions, collection: StoredCollection, caller: Caller): { selection: ItemSelection; apply: (id: string) => void } {
    // Tasks that reshape fields reach draft items too; a delete only when asked (its publishPluginOptions).
    const everything = { includeDrafts: true };
    const patch = (id: string, modification: FieldModification) => this.items.patch(collection, caller, id, [modification], everything);
    switch (options.type) {
      case "DELETE_BY_QUERY": {
        const includeDrafts = options.deleteByQueryOptions.publishPluginOptions?.includeDraftItems === true;
        return {
          selection: { filter: options.deleteByQueryOptions.filter ?? {}, includeDrafts },
          apply: (id) => this.items.remove(collection, caller, id, { includeDrafts }),
        };
      }
      case "COPY_FIELD_DATA": {
        const { sourceFieldKey, targetFieldKey } = options.copyFieldDataOptions;
        // Items without the source field are left as they are.
        return {
          selection: { filter: { [sourceFieldKey]: { $exists: true } }, ...everything },
          apply: (id) =>
            patch(id, {
              fieldPath: targetFieldKey,
              action: "SET_FIELD",
              setFieldOptions: { value: this.items.get(collection, caller, id, true)[sourceFieldKey] },
            }),
        };
      }
      case "EDIT_FIELD_DATA": {
        const { fieldKey, operations, filter } = options.editFieldDataOptions;
        return {
          selection: { filter: filter ?? {}, ...everything },
          apply: (id) =>
            patch(id, {
              fieldPath: fieldKey,
              action: "SET_FIELD",
              setFieldOptions: { value: editedArray(this.items.get(collection, caller, id, true)[fieldKey], operations) },
            }),
        };
      }
      case "UPDATE_PUBLISH_STATUS": {
        const { filter, operation, schedulePublishedStatusOptions, scheduleDraftStatusOptions } = options.updatePublishStatusOptions;
        if (!publishPlugin(collection))
          throw badRequest(`Collection [${collection.id}] has no Publish plugin, so its items have no publish status.`, { collectionId: collection.id });
        const selection = { filter: filter ?? {}, ...everything };
        const schedules = this.store.schedules;
        switch (operation) {
          case "SET_PUBLISHED_STATUS":
            return { selection, apply: (id) => setPublishStatus(this.store, collection.id, id, "PUBLISHED") };
          case "SET_DRAFT_STATUS":
            return { selection, apply: (id) => setPublishStatus(this.store, collection.id, id, "DRAFT") };
          case "SCHEDULE_PUBLISHED_STATUS":
            return { selection, apply: (id) => schedules.schedule(collection.id, id, "PUBLISHED", new Date(schedulePublishedStatusOptions!.date)) };
          case "SCHEDULE_DRAFT_STATUS":
            return { selection, apply: (id) => schedules.schedule(collection.id, id, "DRAFT", new Date(scheduleDraftStatusOptions!.date)) };
          case "CANCEL_SCHEDULING":
            return { selection, apply: (id) => schedules.cancel(collection.id, id) };
        }
      }
    }
  }
}
