import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export type Db = Database.Database;

/** Each platform module owns its tables and brings its own migration. */
export type Migration = (db: Db) => void;

export function openDatabase(file: string | ":memory:", migrations: Migration[]): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  for (const migrate of migrations) migrate(db);
  return db;
}
