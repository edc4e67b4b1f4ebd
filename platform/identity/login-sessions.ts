import { randomUUID } from "node:crypto";
import { hashToken, newToken } from "../oauth/store";
import type { Db, Migration } from "../types";

/** A platform login session: what the hosted pages' cookie stands for. */
export type LoginSession = { id: string; memberId: string };

/** Platform login sessions last a week, then the member signs in again. */
const LOGIN_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long a re-check of the password (a login sent with the member's own token) lets the session
 * change the password: long enough to fill in the new one, too short to be found later in a stolen token's session.
 */
export const PASSWORD_PROOF_TTL_MS = 5 * 60 * 1000;

export const migrateLoginSessions: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS login_sessions (
      id TEXT PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      member_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      ended_at INTEGER
    );
  `);
  // Added later: when the password was last re-checked in the session, and whether it was changed there.
  const columns = db.prepare("PRAGMA table_info(login_sessions)").all() as { name: string }[];
  for (const column of ["password_proven_at", "password_changed_at"]) {
    if (!columns.some((c) => c.name === column)) db.exec(`ALTER TABLE login_sessions ADD COLUMN ${column} INTEGER`);
  }
};

export class LoginSessionStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a login session; the token goes into the cookie and is stored only as a hash. */
  start(memberId: string): { session: LoginSession; token: string } {
    const id = randomUUID();
    const token = newToken("PLS");
    const now = this.now();
    this.prune();
    this.db
      .prepare("INSERT INTO login_sessions (id, token_hash, member_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
      .run(id, hashToken(token), memberId, now, now + LOGIN_SESSION_TTL_MS);
    return { session: { id, memberId }, token };
  }

  /**
   * The live session a cookie or session token stands for, or null. `maxAgeMs` limits it to
   * sessions started that recently: a session token from a form login is good for a short
   * exchange only, while the hosted pages' cookie lasts as long as the session.
   */
  byToken(token: string | undefined | null, maxAgeMs?: number): LoginSession | null {
    if (!token) return null;
    const session = this.liveSession("token_hash = ?", hashToken(token));
    if (!session || maxAgeMs === undefined) return session;
    const { created_at } = this.db.prepare("SELECT created_at FROM login_sessions WHERE id = ?").get(session.id) as { created_at: number };
    return this.now() - created_at <= maxAgeMs ? session : null;
  }

  byId(id: string | null): LoginSession | null {
    return id ? this.liveSession("id = ?", id) : null;
  }

  end(id: string): void {
    this.db.prepare("UPDATE login_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL").run(this.now(), id);
  }

  private liveSession(where: string, value: string): LoginSession | null {
    const row = this.db.prepare(`SELECT id, member_id FROM login_sessions WHERE ${where} AND ended_at IS NULL AND expires_at > ?`).get(value, this.now()) as
      { id: string; member_id: string } | undefined;
    return row ? { id: row.id, memberId: row.member_id } : null;
  }

  /** How many login sessions of a member are live now. */
  countFor(memberId: string): number {
    const row = this.db
      .prepare("SELECT COUNT(*) AS live FROM login_sessions WHERE member_id = ? AND ended_at IS NULL AND expires_at > ?")
      .get(memberId, this.now()) as {
      live: number;
    };
    return row.live;
  }

  /** Every platform login session of a member ends (a reset, a block), or every one but `keep` (a password changed in `keep`). */
  endAllFor(memberId: string, keep: string | null = null): string[] {
    const others = "member_id = ? AND ended_at IS NULL AND id IS NOT ?";
    const ids = (this.db.prepare(`SELECT id FROM login_sessions WHERE ${others}`).all(memberId, keep) as Array<{ id: string }>).map((row) => row.id);
    this.db.prepare(`UPDATE login_sessions SET ended_at = ? WHERE ${others}`).run(this.now(), memberId, keep);
    return ids;
  }

  /** The member re-typed their password in this session: it may change the password for a little while. */
  recordPasswordProof(id: string): void {
    this.db.prepare("UPDATE login_sessions SET password_proven_at = ? WHERE id = ?").run(this.now(), id);
  }

  /** Whether the session re-checked the password within PASSWORD_PROOF_TTL_MS; the proof is used up either way. */
  takePasswordProof(id: string): boolean {
    const row = this.db.prepare("SELECT password_proven_at FROM login_sessions WHERE id = ? AND ended_at IS NULL").get(id) as
      { password_proven_at: number | null } | undefined;
    this.db.prepare("UPDATE login_sessions SET password_proven_at = NULL WHERE id = ?").run(id);
    return row?.password_proven_at != null && this.now() - row.password_proven_at <= PASSWORD_PROOF_TTL_MS;
  }

  markPasswordChanged(id: string): void {
    this.db.prepare("UPDATE login_sessions SET password_changed_at = ? WHERE id = ?").run(this.now(), id);
  }

  /** Whether the password was changed in this session: then it is no proof of who the member is there. */
  passwordChangedIn(id: string): boolean {
    const row = this.db.prepare("SELECT password_changed_at FROM login_sessions WHERE id = ?").get(id) as { password_changed_at: number | null } | undefined;
    return row?.password_changed_at != null;
  }

  /** Deletes ended or expired login sessions. */
  prune(): number {
    return this.db.prepare("DELETE FROM login_sessions WHERE expires_at <= ? OR ended_at IS NOT NULL").run(this.now()).changes;
  }
}
