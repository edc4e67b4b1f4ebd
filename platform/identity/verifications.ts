import { randomInt, timingSafeEqual } from "node:crypto";
import { hashToken, newToken } from "../oauth/store";
import type { Db, Migration } from "../types";

/** Verification codes work this long. */
export const VERIFICATION_TTL_MS = 15 * 60 * 1000;
/** A wrong code this many times ends the verification; the member logs in again for a new one. */
export const MAX_VERIFICATION_ATTEMPTS = 5;

/**
 * What a code proves: the e-mail address (a new member's first login) or a second factor at
 * login (the factor it was sent by). An identity has at most one live verification of each.
 */
export type VerificationPurpose = "email" | "mfa";

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
  // Added with second factors: databases created before them hold e-mail verifications only.
  const columns = db.prepare("PRAGMA table_info(verification_states)").all() as { name: string }[];
  if (!columns.some((c) => c.name === "purpose")) db.exec("ALTER TABLE verification_states ADD COLUMN purpose TEXT NOT NULL DEFAULT 'email'");
  if (!columns.some((c) => c.name === "factor_type")) db.exec("ALTER TABLE verification_states ADD COLUMN factor_type TEXT");
};

/** What checking a code came to. */
export type CheckResult = { identityId: string; factorType: string | null } | "wrong-code" | "too-many" | "unknown";

/** Verifications in progress (e-mail addresses, second factors): the code sent, and the login it continues. */
export class VerificationStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a verification: a state token for the client, a code for the message. It replaces the identity's earlier one of that purpose. */
  start(identityId: string, purpose: VerificationPurpose = "email", factorType: string | null = null): { stateToken: string; code: string } {
    const stateToken = newToken("VST");
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const now = this.now();
    this.db.prepare("DELETE FROM verification_states WHERE expires_at <= ? OR (identity_id = ? AND purpose = ?)").run(now, identityId, purpose);
    this.db
      .prepare("INSERT INTO verification_states (state_hash, identity_id, code, expires_at, purpose, factor_type) VALUES (?, ?, ?, ?, ?, ?)")
      .run(hashToken(stateToken), identityId, code, now + VERIFICATION_TTL_MS, purpose, factorType);
    return { stateToken, code };
  }

  /** A new state token for the identity's live verification, its code unchanged (no new mail); null when none is live. */
  resume(identityId: string, purpose: VerificationPurpose = "email"): string | null {
    const stateToken = newToken("VST");
    const changed = this.db
      .prepare("UPDATE verification_states SET state_hash = ? WHERE identity_id = ? AND purpose = ? AND expires_at > ? AND attempts < ?")
      .run(hashToken(stateToken), identityId, purpose, this.now(), MAX_VERIFICATION_ATTEMPTS).changes;
    return changed > 0 ? stateToken : null;
  }

  /**
   * A fresh e-mail code for the live verification a state token stands for, its attempts and
   * lifetime started again; null when there is none (or its wrong codes used up the limit, and
   * the member starts again by logging in). The state token is unchanged.
   */
  renew(stateToken: string, purpose: VerificationPurpose = "email"): { identityId: string; code: string } | null {
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const now = this.now();
    const row = this.db
      .prepare(
        "UPDATE verification_states SET code = ?, attempts = 0, expires_at = ? " +
          "WHERE state_hash = ? AND purpose = ? AND expires_at > ? AND attempts < ? RETURNING identity_id",
      )
      .get(code, now + VERIFICATION_TTL_MS, hashToken(stateToken), purpose, now, MAX_VERIFICATION_ATTEMPTS) as { identity_id: string } | undefined;
    return row ? { identityId: row.identity_id, code } : null;
  }

  /** The identity whose live verification of this purpose a state token stands for, or null. */
  identityOf(stateToken: string, purpose: VerificationPurpose = "email"): string | null {
    const row = this.db
      .prepare("SELECT identity_id FROM verification_states WHERE state_hash = ? AND purpose = ? AND expires_at > ? AND attempts < ?")
      .get(hashToken(stateToken), purpose, this.now(), MAX_VERIFICATION_ATTEMPTS) as { identity_id: string } | undefined;
    return row?.identity_id ?? null;
  }

  /**
   * Checks a code against the verification of this purpose a state token stands for. A right
   * code ends the verification; a wrong one counts, and past the limit no code is tried any
   * more (not even the right one) until it expires: the member starts again for a new code.
   */
  check(stateToken: string, code: string, purpose: VerificationPurpose = "email"): CheckResult {
    // Compared as digests: equal lengths, constant time.
    return this.checkWith(stateToken, purpose, (sent) => timingSafeEqual(Buffer.from(hashToken(sent.code)), Buffer.from(hashToken(code))));
  }

  /**
   * As `check`, with the answer judged by `isRight` (an authenticator app's code is checked
   * against the factor, not against a code this store sent); the same attempt limit applies.
   */
  checkWith(stateToken: string, purpose: VerificationPurpose, isRight: (sent: { identityId: string; code: string }) => boolean): CheckResult {
    const hash = hashToken(stateToken);
    const row = this.db
      .prepare("SELECT identity_id, code, attempts, factor_type FROM verification_states WHERE state_hash = ? AND purpose = ? AND expires_at > ?")
      .get(hash, purpose, this.now()) as { identity_id: string; code: string; attempts: number; factor_type: string | null } | undefined;
    if (!row) return "unknown";
    if (row.attempts >= MAX_VERIFICATION_ATTEMPTS) return "too-many";
    if (isRight({ identityId: row.identity_id, code: row.code })) {
      this.db.prepare("DELETE FROM verification_states WHERE state_hash = ?").run(hash);
      return { identityId: row.identity_id, factorType: row.factor_type };
    }
    this.db.prepare("UPDATE verification_states SET attempts = attempts + 1 WHERE state_hash = ?").run(hash);
    return row.attempts + 1 >= MAX_VERIFICATION_ATTEMPTS ? "too-many" : "wrong-code";
  }

  /** The identity and factor a live verification of this purpose belongs to, without trying a code. */
  peek(stateToken: string, purpose: VerificationPurpose): { identityId: string; factorType: string | null } | null {
    const row = this.db
      .prepare("SELECT identity_id, factor_type FROM verification_states WHERE state_hash = ? AND purpose = ? AND expires_at > ? AND attempts < ?")
      .get(hashToken(stateToken), purpose, this.now(), MAX_VERIFICATION_ATTEMPTS) as { identity_id: string; factor_type: string | null } | undefined;
    return row ? { identityId: row.identity_id, factorType: row.factor_type } : null;
  }

  /** Deletes expired verifications. */
  prune(): number {
    return this.db.prepare("DELETE FROM verification_states WHERE expires_at <= ?").run(this.now()).changes;
  }
}
