import type { Db } from "../types";

/** What changed: a data collection's items, references or definition, or the public member profiles. */
export type DataChange = { kind: "collection"; collectionId: string } | { kind: "members" };

const FUNCTION = "revalidation_changed";

/**
 * The tables whose rows the site shows, and what a change to a row means. Temporary triggers
 * see every write this connection makes, whatever path it takes (item routes, bulk, patch,
 * background tasks, restorations), and they live only as long as the connection: the database
 * file carries no trigger that another program (the CLI, sqlite3) could not run.
 */
const WATCHED: Array<{ table: string; events: string[]; change: (row: "NEW" | "OLD") => string }> = [
  { table: "data_items", events: ["INSERT", "UPDATE", "DELETE"], change: (row) => `'collection', ${row}.collection_id` },
  { table: "data_references", events: ["INSERT", "UPDATE", "DELETE"], change: (row) => `'collection', ${row}.collection_id` },
  { table: "data_collections", events: ["INSERT", "UPDATE", "DELETE"], change: (row) => `'collection', ${row}.id` },
  { table: "member_profiles", events: ["INSERT", "UPDATE", "DELETE"], change: () => `'members', NULL` },
  // Who may see public profiles, and whether any may be public (a row is only ever updated).
  { table: "member_privacy", events: ["UPDATE"], change: () => `'members', NULL` },
  // Only what a public profile shows: a login (last_login_at) or a new password is no change to it.
  {
    table: "identities",
    events: ["INSERT", "UPDATE OF first_name, last_name, nickname, slug, status, privacy_status", "DELETE"],
    change: () => `'members', NULL`,
  },
];

/**
 * Calls `onChange` for every row written to a watched table on this connection, synchronously
 * inside the statement: the listener must only record the change (the transaction may still
 * be open), never touch the database.
 */
export function watchDataChanges(db: Db, onChange: (change: DataChange) => void): void {
  db.function(FUNCTION, { deterministic: false }, (kind: unknown, id: unknown) => {
    if (kind === "members") onChange({ kind: "members" });
    else if (typeof id === "string") onChange({ kind: "collection", collectionId: id });
    return null;
  });
  for (const { table, events, change } of WATCHED) {
    for (const event of events) {
      const row = event === "DELETE" ? "OLD" : "NEW";
      const name = `revalidation_${table}_${event.split(" ")[0].toLowerCase()}`;
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${name} AFTER ${event} ON main.${table} BEGIN SELECT ${FUNCTION}(${change(row)}); END`);
    }
  }
}
