import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { Cron } from "croner";
import type { Migration } from "../types";
import { DocumentTable } from "./documents";
import { badRequest, recordExists, recordNotFound, staleRevision } from "./errors";
import { isFinished, type JobRequest, type MovementJob, type MovementJobs } from "./movement-jobs";
import type { DataStore } from "./store";

/**
 * Scheduled data workflows (docs/platform/data.md §17.1): data-movement jobs run on a timetable.
 * A workflow has steps, each a movement job's source and destination; a cron expression, read in
 * the site's time zone, says when it runs; each run submits the steps as movement jobs one after
 * the other, a step starting when the one before has finished without failing.
 */

export type WorkflowRecord = {
  id: string;
  revision: number;
  name: string;
  enabled: boolean;
  cronExpression: string;
  lastExecutionDate: string | null;
  nextExecutionDate: string | null;
  /** The steps as sent, for the wire, and as checked, for the jobs. */
  workflow: { steps: unknown[] };
  jobs: JobRequest[];
  /** The id of the last run; its jobs are named after it. */
  lastWorkflowId: string;
  /** This platform's address as the workflow's writer reached it, for the file URLs of its jobs. */
  origin: string;
  createdDate: string;
};

export type WorkflowInput = Pick<WorkflowRecord, "name" | "enabled" | "cronExpression" | "workflow" | "jobs">;

export const migrateScheduledWorkflows: Migration = (db) => db.exec(DocumentTable.schema("data_scheduled_workflows"));

/** Timers cannot wait longer than about 24.8 days; a longer wait is re-armed when it ends. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class ScheduledWorkflows {
  private readonly records: DocumentTable<WorkflowRecord>;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    store: DataStore,
    private readonly jobs: MovementJobs,
    private readonly timeZone: string,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.records = new DocumentTable(store.db, "data_scheduled_workflows");
  }

  /** The next time a cron expression names after `after`, in the site's time zone; a malformed one is WDE0075. */
  nextRun(cronExpression: string, after: Date): Date | null {
    try {
      return new Cron(cronExpression, { timezone: this.timeZone, paused: true }).nextRun(after);
    } catch (error) {
      throw badRequest(`Invalid cronExpression [${cronExpression}]: ${(error as Error).message}`, { field: "cronExpression" });
    }
  }

  private nextFor(record: Pick<WorkflowRecord, "enabled" | "cronExpression">): string | null {
    const next = this.nextRun(record.cronExpression, this.now());
    return record.enabled && next ? next.toISOString() : null;
  }

  get(id: string): WorkflowRecord {
    const record = this.records.find(id);
    if (!record) throw recordNotFound("Scheduled workflow", id);
    return record;
  }

  query(filter: unknown, limit: number, offset: number): WorkflowRecord[] {
    return this.records.query(filter, undefined, limit, offset);
  }

  create(id: string, input: WorkflowInput, origin: string): WorkflowRecord {
    if (this.records.find(id)) throw recordExists("Scheduled workflow", id);
    const stamp = this.now().toISOString();
    const record = {
      id,
      revision: 1,
      ...input,
      lastExecutionDate: null,
      nextExecutionDate: this.nextFor(input),
      lastWorkflowId: "",
      origin,
      createdDate: stamp,
    };
    this.records.save(record, stamp);
    this.arm();
    return record;
  }

  update(id: string, changes: Partial<WorkflowInput>, revision: number | undefined, origin: string): WorkflowRecord {
    const current = this.get(id);
    if (revision !== undefined && revision !== current.revision) throw staleRevision(revision, current.revision);
    const merged = { ...current, ...changes, revision: current.revision + 1, origin };
    const record = { ...merged, nextExecutionDate: this.nextFor(merged) };
    this.records.save(record, current.createdDate);
    this.arm();
    return record;
  }

  /** The next run counted from now again (after a long pause, or to skip a run). */
  reschedule(id: string): WorkflowRecord {
    const current = this.get(id);
    const record = { ...current, nextExecutionDate: this.nextFor(current) };
    this.records.save(record, current.createdDate);
    this.arm();
    return record;
  }

  remove(id: string): void {
    if (!this.records.remove(id)) throw recordNotFound("Scheduled workflow", id);
    this.arm();
  }

  /** Starts a run now: its first step's job is submitted at once, the others as each one before finishes. */
  run(id: string): WorkflowRecord {
    const current = this.get(id);
    const runId = randomUUID();
    const record = { ...current, lastWorkflowId: runId, lastExecutionDate: this.now().toISOString() };
    this.records.save(record, current.createdDate);
    this.runStep(record, runId, 0);
    return record;
  }

  private runStep(record: WorkflowRecord, runId: string, index: number): void {
    const step = record.jobs[index];
    if (!step) return;
    const name = `${record.name || record.id} (run ${runId}, step ${index + 1} of ${record.jobs.length})`;
    const next = (job: MovementJob) => {
      if (!isFinished(job)) return;
      if (job.status === "FAILED")
        this.log.warn({ workflowId: record.id, runId, jobId: job.id }, "a scheduled workflow's step failed; its later steps do not run");
      else this.runStep(record, runId, index + 1);
    };
    try {
      this.jobs.submit({ ...step, name }, record.origin, next);
    } catch (error) {
      // The step no longer fits the site (its collection or file is gone): the run stops there.
      this.log.warn({ err: error, workflowId: record.id, runId }, "a scheduled workflow's step could not start");
    }
  }

  /** Sets the timer for the next run of any enabled workflow; runs what is due first (including what fell due while the platform was down). */
  arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = this.now().getTime();
    let soonest: number | null = null;
    for (const record of this.records.list()) {
      if (!record.enabled || !record.nextExecutionDate) continue;
      let due = Date.parse(record.nextExecutionDate);
      if (due <= now) {
        try {
          this.run(record.id);
          const next = this.nextFor(record);
          this.records.save({ ...this.get(record.id), nextExecutionDate: next }, record.createdDate);
          due = next ? Date.parse(next) : Number.POSITIVE_INFINITY;
        } catch (error) {
          this.log.error({ err: error, workflowId: record.id }, "running a scheduled workflow failed");
          continue;
        }
      }
      if (Number.isFinite(due) && (soonest === null || due < soonest)) soonest = due;
    }
    if (soonest === null) return;
    this.timer = setTimeout(() => this.arm(), Math.min(Math.max(0, soonest - now), MAX_TIMER_MS));
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
