import fs from "node:fs";
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { PlatformError } from "../http/errors";
import type { Migration } from "../types";
import { runBatches, type BatchFailure, type BatchSource, type BatchTally } from "./batches";
import { DocumentTable } from "./documents";
import { badRequest, invalidValue, recordNotFound, workFailure } from "./errors";
import { assertWithinRanges } from "./field-ranges";
import type { FileUrls } from "./file-urls";
import { csvColumns, encodeItems, formatOfName, nextRows, readRows, sniffFormat, type FileFormat, type ImportMode, type SourceRow } from "./movement";
import { settlePublishStatus } from "./publishing";
import type { SortSpec } from "./query-compiler";
import type { DataStore, ItemPosition, ItemSelection } from "./store";
import type { StoredCollection } from "./collection";
import { MovementFiles, type MovementFile } from "./movement-files";
import { MovementLogs, type ApplicationError, type MovementLog } from "./movement-logs";
import { normaliseItemData, project, type ItemData } from "./wire";

/**
 * Data-movement jobs (`@wix/data` `movementJobs`, docs/platform/data.md §17): import a CSV or
 * JSONL file into a collection, or export a collection's items to a file. A job answers
 * UNINITIALIZED, reads what it needs (INITIALIZING), moves rows in batches between other
 * requests (IN_PROGRESS) and ends COMPLETED, PARTIALLY_SUCCESSFUL (some rows rejected, each
 * logged with its line) or FAILED. Files are uploaded to and downloaded from the platform itself.
 * The server's routes and the CLI both run jobs through this one service.
 */

export type JobStatus = "UNINITIALIZED" | "INITIALIZING" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "PARTIALLY_SUCCESSFUL";
const FINISHED: readonly JobStatus[] = ["COMPLETED", "FAILED", "PARTIALLY_SUCCESSFUL"];

/** Whether a job has reached its end state. */
export const isFinished = (job: MovementJob) => FINISHED.includes(job.status);

export type CollectionSource = {
  collectionId: string;
  filterQuery?: { filter?: Record<string, unknown> | null; fields?: string[] };
  filter?: Record<string, unknown> | null;
  fields?: string[];
};
export type JobSource = { file?: { fileId: string; format?: string; url?: string }; wixDataCollection?: CollectionSource };
export type JobDestination = {
  wixDataCollection?: { collectionId: string; writePolicy?: ImportMode };
  file?: { format: FileFormat; fileName?: string | null; url?: string };
};
export type JobRequest = { source: JobSource; destination: JobDestination; name?: string };

export type MovementJob = {
  id: string;
  name?: string;
  status: JobStatus;
  source: JobSource;
  destination: JobDestination;
  startedAt: string;
  finishedAt: string | null;
  progress: { current: number; total: number | null; itemsSuccessful: number; itemsRejected: number };
  logsRecorded: number;
  error?: ApplicationError;
  partiallySuccessfulOptions?: { cause: string };
};

/** How one kind of job moves its entries (rows of a file, or items of a collection). */
type JobPlan<T> = {
  /** Reads what the job needs before anything moves; answers how many entries there are. */
  initialize(stopped: () => boolean): Promise<number>;
  take: BatchSource<T>;
  apply(entry: T): void;
  /** After each batch: write what it produced and answer its logs, refused entries included. */
  afterBatch(failures: BatchFailure<T>[]): MovementLog[];
  /** Entries written (the others were refused or skipped). */
  written(tally: BatchTally): number;
  /** After the last batch. */
  finish?(): void;
};

const failureOf = (error: PlatformError): ApplicationError => ({ code: error.code, description: error.message, data: error.data });

export const migrateMovementJobs: Migration = (db) => db.exec(DocumentTable.schema("data_movement_jobs"));

export class MovementJobs {
  private readonly jobs: DocumentTable<MovementJob>;
  readonly files: MovementFiles;
  readonly logs: MovementLogs;
  /** Running jobs asked to stop. */
  private readonly stopping = new Set<string>();

  constructor(
    private readonly store: DataStore,
    private readonly folder: string,
    private readonly urls: FileUrls,
    private readonly log?: FastifyBaseLogger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.jobs = new DocumentTable(store.db, "data_movement_jobs");
    this.files = new MovementFiles(store.db, folder, now);
    this.logs = new MovementLogs(store.db);
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  /** On start (server only): a job that was under way when the platform stopped will not finish. */
  failUnfinished(): void {
    for (const job of this.jobs.list()) {
      if (!FINISHED.includes(job.status))
        this.saveJob({ ...job, status: "FAILED", finishedAt: this.stamp(), error: workFailure("INTERRUPTED", "The platform stopped while the job ran.") });
    }
  }

  /** The file an export job wrote (the last segment of its download URL names it). */
  exportedFile(job: MovementJob): { file: MovementFile; path: string } {
    const url = job.destination.file?.url;
    if (!url) throw badRequest(`Job [${job.id}] does not write a file.`, { jobId: job.id });
    const { pathname } = new URL(url);
    return this.files.download(decodeURIComponent(pathname.slice(pathname.lastIndexOf("/") + 1)));
  }

  // Jobs

  private saveJob(job: MovementJob): MovementJob {
    return this.jobs.save(job, job.startedAt);
  }

  find(id: string): MovementJob | undefined {
    return this.jobs.find(id);
  }

  /** Newest first. */
  list(): MovementJob[] {
    return this.jobs.list();
  }

  /** Jobs matching a filter and sort (the query language of data items), newest first by default. */
  query(filter: unknown, sort: SortSpec[] | undefined, limit: number, offset: number): MovementJob[] {
    return this.jobs.query(filter, sort, limit, offset);
  }

  /**
   * Checks a job request and records the job UNINITIALIZED; it runs after the current request.
   * `origin` is this platform's address as the caller reaches it (for file URLs); `onChange`
   * hears every state the job is saved in (the CLI shows progress with it).
   */
  submit(request: JobRequest, origin: string, onChange?: (job: MovementJob) => void): MovementJob {
    const { source, destination } = request;
    const fileUrl = (fileId: string) => this.urls.url(origin, fileId, "download");
    let job: MovementJob;
    let plan: JobPlan<SourceRow> | JobPlan<ItemData>;
    const base = {
      id: randomUUID(),
      ...(request.name !== undefined && { name: request.name }),
      status: "UNINITIALIZED" as const,
      startedAt: this.stamp(),
      finishedAt: null,
    };
    const progress = { current: 0, total: null, itemsSuccessful: 0, itemsRejected: 0 };
    if (source.file && destination.wixDataCollection && !source.wixDataCollection && !destination.file) {
      const file = this.files.find(source.file.fileId);
      if (!file || file.status !== "READY") throw recordNotFound("File", source.file.fileId);
      const collection = this.store.getCollection(destination.wixDataCollection.collectionId);
      // The format given, else the one the file's name says, else the one its content shows.
      const given = source.file.format === "CSV" || source.file.format === "JSONL" ? source.file.format : undefined;
      const format = given ?? formatOfName(file.fileName ?? undefined) ?? sniffFormat(this.files.pathOf(file.id));
      const target = { ...destination.wixDataCollection, writePolicy: destination.wixDataCollection.writePolicy ?? "OVERWRITE" };
      job = {
        ...base,
        source: { file: { fileId: file.id, format, url: fileUrl(file.id) } },
        destination: { wixDataCollection: target },
        progress,
        logsRecorded: 0,
      };
      plan = this.importPlan(this.files.pathOf(file.id), format, collection, target.writePolicy);
    } else if (source.wixDataCollection && destination.file && !source.file && !destination.wixDataCollection) {
      const collection = this.store.getCollection(source.wixDataCollection.collectionId);
      const { filter, fields } = { filter: source.wixDataCollection.filter, fields: source.wixDataCollection.fields, ...source.wixDataCollection.filterQuery };
      const selection: ItemSelection = { filter: filter ?? {}, includeDrafts: true };
      // A bad filter is refused now, with the code a query would answer.
      this.store.count(collection.id, selection);
      const format = destination.file.format;
      const result = this.files.save({
        id: randomUUID(),
        fileName: destination.file.fileName ?? `${collection.id}.${format.toLowerCase()}`,
        status: "WRITING",
        expiresAt: null,
        sizeInBytes: null,
        createdDate: this.stamp(),
      });
      job = {
        ...base,
        source: { wixDataCollection: source.wixDataCollection },
        destination: { file: { ...destination.file, url: fileUrl(result.id) } },
        progress,
        logsRecorded: 0,
      };
      plan = this.exportPlan(collection, selection, fields, format, result);
    } else {
      throw badRequest(
        "This platform moves data between a collection (wixDataCollection) and a file: give one as the source and the other as the destination.",
      );
    }
    const saved = this.saveJob(job);
    onChange?.(saved);
    setImmediate(() => void this.run(saved.id, plan as JobPlan<unknown>, onChange));
    return saved;
  }

  /** Stops a job that has not finished; it ends FAILED. What it moved stays moved. */
  terminate(job: MovementJob): MovementJob {
    if (FINISHED.includes(job.status)) throw badRequest(`Job [${job.id}] has already finished (${job.status}).`, { jobId: job.id });
    this.stopping.add(job.id);
    return this.saveJob({ ...job, status: "FAILED", finishedAt: this.stamp(), error: workFailure("CANCELLED", "The job was terminated.") });
  }

  /** Saves changes to a job that is still running (a terminated job keeps its end). */
  private update(id: string, changes: Partial<MovementJob>, onChange?: (job: MovementJob) => void): MovementJob | undefined {
    const current = this.jobs.find(id);
    if (!current || FINISHED.includes(current.status)) return undefined;
    const saved = this.saveJob({ ...current, ...changes });
    onChange?.(saved);
    return saved;
  }

  private async run(id: string, plan: JobPlan<unknown>, onChange?: (job: MovementJob) => void): Promise<void> {
    const stopped = () => this.stopping.has(id);
    const fail = (error: unknown) => {
      if (!(error instanceof PlatformError)) this.log?.error({ err: error, jobId: id }, "data movement job failed");
      const reason =
        error instanceof PlatformError
          ? failureOf(error)
          : workFailure("INTERNAL_ERROR", `The job stopped on an unexpected error: ${(error as Error).message}`);
      this.update(id, { status: "FAILED", finishedAt: this.stamp(), error: reason }, onChange);
    };
    try {
      if (stopped()) return;
      this.update(id, { status: "INITIALIZING" }, onChange);
      const total = await plan.initialize(stopped);
      if (stopped()) return;
      let logsRecorded = 0;
      this.update(id, { status: "IN_PROGRESS", progress: { current: 0, total, itemsSuccessful: 0, itemsRejected: 0 } }, onChange);
      await runBatches(this.store, plan.take, plan.apply, {
        stopped,
        report: (tally, done, failures) => {
          const logs = plan.afterBatch(failures);
          this.logs.append(id, logsRecorded, logs);
          logsRecorded += logs.length;
          const progressNow = { current: tally.succeeded + tally.failed, total, itemsSuccessful: plan.written(tally), itemsRejected: tally.failed };
          if (done) plan.finish?.();
          this.update(id, { progress: progressNow, logsRecorded, ...(done && this.ending(progressNow)) }, onChange);
        },
        crash: fail,
      });
    } catch (error) {
      fail(error);
    } finally {
      this.stopping.delete(id);
    }
  }

  /** A finished job's state: every row moved, some rejected, or none moved. */
  private ending(progress: MovementJob["progress"]): Partial<MovementJob> {
    const end = { finishedAt: this.stamp() };
    if (progress.itemsRejected === 0) return { ...end, status: "COMPLETED" };
    if (progress.itemsRejected === progress.current) {
      return {
        ...end,
        status: "FAILED",
        error: workFailure("ITEMS_REJECTED", `None of the ${progress.current} rows could be moved; the job's logs give the reason for each.`),
      };
    }
    return {
      ...end,
      status: "PARTIALLY_SUCCESSFUL",
      partiallySuccessfulOptions: { cause: `${progress.itemsRejected} of ${progress.current} rows were rejected; the job's logs name each by its line.` },
    };
  }

  /** File → collection: every row is written by the write policy, or rejected and logged with its line. */
  private importPlan(file: string, format: FileFormat, collection: StoredCollection, mode: ImportMode): JobPlan<SourceRow> {
    let rows: AsyncGenerator<SourceRow> | undefined;
    let written = 0;
    let notes: MovementLog[] = [];
    return {
      initialize: async (stopped) => {
        let count = 0;
        try {
          // Reading the whole file first finds a broken one before anything changes, and counts its rows.
          const counting = readRows(file, format, collection);
          while (!(await counting.next()).done) {
            if (++count % 1000 === 0 && stopped()) return count;
          }
        } catch (error) {
          throw badRequest(`The file cannot be read as ${format}: ${(error as Error).message}`);
        }
        rows = readRows(file, format, collection);
        if (mode === "TRUNCATE_BEFORE") this.store.transaction(() => this.store.truncate(collection.id));
        return count;
      },
      take: (size) => nextRows(rows!, size),
      apply: (row) => {
        if (row.problem !== undefined) throw invalidValue(row.problem);
        const data = normaliseItemData(row.data, collection.id);
        assertWithinRanges(collection, data);
        const id = typeof data._id === "string" ? data._id : undefined;
        const current = id === undefined ? undefined : this.store.findItem(collection.id, id);
        if (current && mode === "SKIP_EXISTING") {
          notes.push({ sourceItemId: String(row.line), details: { skipped: true, itemId: id } });
          return;
        }
        settlePublishStatus(collection, data, { mayChoose: true, current });
        const owner = typeof data._owner === "string" ? data._owner : null;
        if (current) this.store.replaceItem(collection.id, id!, data, owner);
        else this.store.insertItem(collection.id, data, owner, true);
        written++;
      },
      afterBatch: (failures) => {
        const refused = failures.map(({ entry, error }) => ({ sourceItemId: String(entry.line), failure: failureOf(error) }));
        const logs = [...notes, ...refused].sort((a, b) => Number(a.sourceItemId) - Number(b.sourceItemId));
        notes = [];
        return logs;
      },
      written: () => written,
    };
  }

  /** Collection → file: the matching items in creation order, as CSV (typed cells) or JSONL. */
  private exportPlan(
    collection: StoredCollection,
    selection: ItemSelection,
    fields: string[] | undefined,
    format: FileFormat,
    result: MovementFile,
  ): JobPlan<ItemData> {
    const target = this.files.pathOf(result.id);
    const projected = fields && fields.length > 0 ? fields : undefined;
    let columns: string[] = [];
    let position: ItemPosition | null = null;
    let chunk: ItemData[] = [];
    let header = format === "CSV";
    /** The next items after the last one read. */
    const take = (size: number) => {
      const items = this.store.itemsAfter(collection.id, selection, position, size);
      const last = items.at(-1);
      if (last) position = { createdDate: (last._createdDate as { $date: string }).$date, id: last._id as string };
      return items;
    };
    return {
      initialize: async (stopped) => {
        const total = this.store.count(collection.id, selection);
        fs.mkdirSync(this.folder, { recursive: true });
        fs.writeFileSync(target, "");
        if (format === "CSV") {
          if (projected) columns = [...new Set(["_id", ...projected.map((field) => field.split(".")[0])])];
          else {
            // CSV needs every column before the first row: a first pass over the items finds the keys they use.
            const keys = new Set<string>();
            let broken: unknown;
            const scan = await runBatches(this.store, take, (item) => Object.keys(item).forEach((key) => keys.add(key)), {
              report: () => undefined,
              crash: (error) => (broken = error),
              stopped,
            });
            if (scan === "crashed") throw broken;
            columns = csvColumns(collection, keys);
            position = null;
          }
        }
        return total;
      },
      take,
      apply: (item) => {
        chunk.push(projected ? project(item, projected) : item);
      },
      afterBatch: (failures) => {
        if (chunk.length > 0 || header) fs.appendFileSync(target, encodeItems(chunk, format, columns, header));
        header = false;
        chunk = [];
        return failures.map(({ entry, error }) => ({ sourceItemId: String(entry._id), failure: failureOf(error) }));
      },
      written: (tally) => tally.succeeded,
      finish: () => {
        this.files.save({ ...result, status: "READY", sizeInBytes: fs.statSync(target).size });
      },
    };
  }
}
