import { randomBytes } from "node:crypto";
import type { Db, Migration } from "../types";

export type ResponseMode = "query" | "fragment" | "web_message";

/** A validated authorization request, as the hosted sign-in page will complete it. */
export type AuthRequest = {
  clientId: string;
  redirectUri: string | null;
  codeChallenge: string;
  state: string;
  responseMode: ResponseMode;
  prompt: "login" | "none";
};

/**
 * What a redirect session asks the hosted pages to do. `loginSessionId` is the platform login
 * session the caller already has (auth: from its session token; logout: from its member token).
 * A `login` asked for with a member's token (`memberId`) is a session pre-warm.
 */
export type RedirectIntent =
  | { intent: "auth"; auth: AuthRequest; loginSessionId: string | null }
  | { intent: "login"; returnUrl: string | null; memberId?: string | null }
  | { intent: "logout"; clientId: string; returnUrl: string | null; loginSessionId: string | null; memberId: string | null };

export type RedirectSession = RedirectIntent & { id: string; completed: boolean };

/** Long enough to type a password or sign up, short enough that old links die (docs/platform/identity.md §2.1). */
const REDIRECT_SESSION_TTL_MS = 15 * 60 * 1000;

export const migrateRedirects: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS redirect_sessions (
      id TEXT PRIMARY KEY,
      intent TEXT NOT NULL,
      payload TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      completed_at INTEGER
    );
  `);
};

/** Redirect sessions live on the platform; the browser only ever sees their random id. */
export class RedirectSessionStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  create(intent: RedirectIntent): string {
    const id = randomBytes(18).toString("base64url");
    const now = this.now();
    this.prune();
    this.db
      .prepare("INSERT INTO redirect_sessions (id, intent, payload, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
      .run(id, intent.intent, JSON.stringify(intent), now, now + REDIRECT_SESSION_TTL_MS);
    return id;
  }

  /** Deletes expired sessions; completed ones live until then, so a finished link opened again is still recognised. */
  prune(): number {
    return this.db.prepare("DELETE FROM redirect_sessions WHERE expires_at <= ?").run(this.now()).changes;
  }

  /** The session behind a link, or null when the id is unknown or the link has expired. */
  get(id: unknown): RedirectSession | null {
    if (typeof id !== "string" || id === "") return null;
    const row = this.db.prepare("SELECT payload, completed_at FROM redirect_sessions WHERE id = ? AND expires_at > ?").get(id, this.now()) as
      { payload: string; completed_at: number | null } | undefined;
    if (!row) return null;
    return { ...(JSON.parse(row.payload) as RedirectIntent), id, completed: row.completed_at !== null };
  }

  /** Marks a session done; false when another request completed it first. */
  complete(id: string): boolean {
    return this.db.prepare("UPDATE redirect_sessions SET completed_at = ? WHERE id = ? AND completed_at IS NULL").run(this.now(), id).changes === 1;
  }
}
