import type Database from "better-sqlite3";

// The types every module shares, in a leaf that imports no platform module: stores name the
// database and the caller from here, so none of them imports the context or `db.ts` back.

export type Db = Database.Database;

/** Each platform module owns its tables and brings its own migration; `db.ts` runs them in order. */
export type Migration = (db: Db) => void;

/**
 * Who is calling, from the raw `Authorization` header the SDK sends (no `Bearer`). `admin` is the
 * API key, or an app's own token (`app`: its client id), which has the same rights on the site's APIs.
 */
export type Caller =
  { kind: "anonymous" } | { kind: "visitor"; id: string } | { kind: "member"; id: string; loginSessionId: string | null } | { kind: "admin"; app?: string };
export type MemberCaller = Extract<Caller, { kind: "member" }>;
