import type { Db, Migration } from "../types";

export type ApplicationError = { code: string; description: string; data?: Record<string, unknown> };

/** What the job did with one source row or item: refused it (`failure`) or noted something (`details`). */
export type MovementLog = { sourceItemId: string; failure?: ApplicationError; details?: Record<string, unknown> };

export const migrateMovementLogs: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS data_movement_logs (
      job_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      source_item_id TEXT NOT NULL,
      failure TEXT,
      details TEXT,
      PRIMARY KEY (job_id, position)
    );
  `);
};

/** What data-movement jobs did with each refused or noted row, in order. */
export class MovementLogs {
  constructor(private readonly db: Db) {}

  /** A job's logs in the order they were made. */
  list(jobId: string, limit: number, offset: number): MovementLog[] {
    const rows = this.db
      .prepare("SELECT source_item_id AS sourceItemId, failure, details FROM data_movement_logs WHERE job_id = ? ORDER BY position LIMIT ? OFFSET ?")
      .all(jobId, limit, offset) as { sourceItemId: string; failure: string | null; details: string | null }[];
    return rows.map(({ sourceItemId, failure, details }) => ({
      sourceItemId,
      ...(failure !== null && { failure: JSON.parse(failure) as ApplicationError }),
      ...(details !== null && { details: JSON.parse(details) as Record<string, unknown> }),
    }));
  }

  append(jobId: string, from: number, logs: MovementLog[]): void {
    const insert = this.db.prepare("INSERT INTO data_movement_logs (job_id, position, source_item_id, failure, details) VALUES (?, ?, ?, ?, ?)");
    this.db.transaction(() => {
      logs.forEach((entry, index) => {
        insert.run(
          jobId,
          from + index,
          entry.sourceItemId,
          entry.failure ? JSON.stringify(entry.failure) : null,
          entry.details ? JSON.stringify(entry.details) : null,
        );
      });
    })();
  }
}
