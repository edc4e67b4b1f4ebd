import type { Db } from "../types";
import { compileFilter, compileSort, type SortSpec } from "./query-compiler";

/**
 * A table of records kept as JSON documents with a sort key (backups, restorations, tasks,
 * data-movement jobs): their shapes are the wire's and are only ever read whole.
 */
export class DocumentTable<T extends { id: string }> {
  constructor(
    private readonly db: Db,
    private readonly table: string,
  ) {}

  /** The table's DDL, for the data migration. */
  static schema(table: string): string {
    return `CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL, requested_date TEXT NOT NULL);`;
  }

  /** Inserts or replaces the record; the date of its first save orders it. */
  save(record: T, requestedDate: string): T {
    this.db
      .prepare(`INSERT INTO ${this.table} (id, doc, requested_date) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`)
      .run(record.id, JSON.stringify(record), requestedDate);
    return record;
  }

  find(id: string): T | undefined {
    const doc = this.db.prepare(`SELECT doc FROM ${this.table} WHERE id = ?`).pluck().get(id) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as T);
  }

  /**
   * Records matching a filter and sort in the data service's query language over their JSON
   * (a record's id is `id`); newest first where the sort leaves a tie or there is none.
   */
  query(filter: unknown, sort: SortSpec[] | undefined, limit: number, offset: number): T[] {
    const where = compileFilter(filter);
    const order = compileSort(sort, { tieBreaker: "requested_date DESC, id" });
    return (
      this.db
        .prepare(`SELECT data FROM (SELECT doc AS data, requested_date, id FROM ${this.table}) WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
        .pluck()
        .all(...where.params, limit, offset) as string[]
    ).map((doc) => JSON.parse(doc) as T);
  }

  /** Answers whether there was such a record. */
  remove(id: string): boolean {
    return this.db.prepare(`DELETE FROM ${this.table} WHERE id = ?`).run(id).changes > 0;
  }

  /** Newest first. */
  list(): T[] {
    return (this.db.prepare(`SELECT doc FROM ${this.table} ORDER BY requested_date DESC, id`).pluck().all() as string[]).map((doc) => JSON.parse(doc) as T);
  }
}
