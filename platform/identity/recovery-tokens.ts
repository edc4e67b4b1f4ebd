import { hashToken, newToken } from "../oauth/store";
import type { Db, Migration } from "../types";

/** Reset links work this long. */
const RECOVERY_TTL_MS = 60 * 60 * 1000;

export const migrateRecoveryTokens: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS recovery_tokens (
      token_hash TEXT PRIMARY KEY,
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      redirect_url TEXT,
      expires_at INTEGER NOT NULL
    );
  `);
};

/** Password reset tokens, stored only as hashes. */
export class RecoveryTokenStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** A single-use password reset token, returning to `redirectUrl` when set. */
  start(identityId: string, redirectUrl: string | null): string {
    const token = newToken("RCV");
    const now = this.now();
    this.prune();
    this.db
      .prepare("INSERT INTO recovery_tokens (token_hash, identity_id, redirect_url, expires_at) VALUES (?, ?, ?, ?)")
      .run(hashToken(token), identityId, redirectUrl, now + RECOVERY_TTL_MS);
    return token;
  }

  /** The reset a token stands for, without using it up (the reset page shows the form first). */
  peek(token: string): { identityId: string; redirectUrl: string | null } | null {
    const row = this.db
      .prepare("SELECT identity_id, redirect_url FROM recovery_tokens WHERE token_hash = ? AND expires_at > ?")
      .get(hashToken(token), this.now()) as { identity_id: string; redirect_url: string | null } | undefined;
    return row ? { identityId: row.identity_id, redirectUrl: row.redirect_url } : null;
  }

  /**
   * Uses a reset token up, with every other one the identity has: once a new password is set,
   * an older link (in a forwarded or leaked mail) must not set another.
   */
  consume(token: string): { identityId: string; redirectUrl: string | null } | null {
    const found = this.peek(token);
    if (found) this.db.prepare("DELETE FROM recovery_tokens WHERE identity_id = ?").run(found.identityId);
    return found;
  }

  /** Deletes expired reset links. */
  prune(): number {
    return this.db.prepare("DELETE FROM recovery_tokens WHERE expires_at <= ?").run(this.now()).changes;
  }
}
