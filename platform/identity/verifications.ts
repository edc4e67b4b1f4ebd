import { randomInt, timingSafeEqual } from "node:crypto";
import { hashToken, newToken } from "../oauth/store";
import type { Db, Migration } from "../types";

/** Verification codes work this long. */
const VERIFICATION_TTL_MS = 15 * 60 * 1000;
/** A wrong code this many times ends the verification; the member logs in again for a new one. */
const MAX_VERIFICATION_ATTEMPTS = 5;

export const migrateVerifications: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS verification_states (
      state_hash TEXT PRIMARY KEY,
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      code TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      expires_at INTEGER NOT NULL
    );
  `);
};

/** E-mail verifications in progress: the code sent, and the login it continues. */
export class VerificationStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts an e-mail verification: a state token for the client, a code for the e-mail. */
  start(identityId: string): { stateToken: string; code: string } {
    const stateToken = newToken("VST");
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const now = this.now();
    this.db.prepare("DELETE FROM verification_states WHERE expires_at <= ? OR identity_id = ?").run(now, identityId);
    this.db
      .prepare("INSERT INTO verification_states (state_hash, identity_id, code, expires_at) VALUES (?, ?, ?, ?)")
      .run(hashToken(stateToken), identityId, code, now + VERIFICATION_TTL_MS);
    return { stateToken, code };
  }

  /** A new state token for the identity's live verification, its code unchanged (no new mail); null when none is live. */
  resume(identityId: string): string | null {
    const stateToken = newToken("VST");
    const changed = this.db
      .prepare("UPDATE verification_states SET state_hash = ? WHERE identity_id = ? AND expires_at > ?")
      .run(hashToken(stateToken), identityId, this.now()).changes;
    return changed > 0 ? stateToken : null;
  }

  /**
   * A fresh code for the live verification a state token stands for, its attempts and lifetime
   * started again; null when there is none. The state token is unchanged.
   */
  renew(stateToken: string): { identityId: string; code: string } | null {
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const row = this.db
      .prepare("UPDATE verification_states SET code = ?, attempts = 0, expires_at = ? WHERE state_hash = ? AND expires_at > ? RETURNING identity_id")
      .get(code, this.now() + VERIFICATION_TTL_MS, hashToken(stateToken), this.now()) as { identity_id: string } | undefined;
    return row ? { identityId: row.identity_id, code } : null;
  }

  /** The identity whose live verification a state token stands for, or null. */
  identityOf(stateToken: string): string | null {
    const row = this.db
      .prepare("SELECT identity_id FROM verification_states WHERE state_hash = ? AND expires_at > ?")
      .get(hashToken(stateToken), this.now()) as { identity_id: string } | undefined;
    return row?.identity_id ?? null;
  }

  /**
   * Checks a code against the verification a state token stands for. A right code ends the
   * verification; a wrong one counts, and too many end it too.
   */
  check(stateToken: string, code: string): { identityId: string } | "wrong-code" | "unknown" {
    const hash = hashToken(stateToken);
    const row = this.db.prepare("SELECT identity_id, code, attempts FROM verification_states WHERE state_hash = ? AND expires_at > ?").get(hash, this.now()) as
      { identity_id: string; code: string; attempts: number } | undefined;
    if (!row) return "unknown";
    // Compared as digests: equal lengths, constant time.
    if (timingSafeEqual(Buffer.from(hashToken(row.code)), Buffer.from(hashToken(code)))) {
      this.db.prepare("DELETE FROM verification_states WHERE state_hash = ?").run(hash);
      return { identityId: row.identity_id };
    }
    if (row.attempts + 1 >= MAX_VERIFICATION_ATTEMPTS) this.db.prepare("DELETE FROM verification_states WHERE state_hash = ?").run(hash);
    else this.db.prepare("UPDATE verification_states SET attempts = attempts + 1 WHERE state_hash = ?").run(hash);
    return "wrong-code";
  }

  /** Deletes expired verifications. */
  prune(): number {
    return this.db.prepare("DELETE FROM verification_states WHERE expires_at <= ?").run(this.now()).changes;
  }
}
