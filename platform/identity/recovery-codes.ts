import { randomInt } from "node:crypto";
import { hashToken } from "../oauth/store";
import type { Db, Migration } from "../types";

/** How many one-time recovery codes a member gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits a person cannot misread for one another (no 0/O, 1/I/L). */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

export const migrateRecoveryCodes: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS identity_recovery_codes (
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      code_hash TEXT NOT NULL,
      used_at INTEGER,
      PRIMARY KEY (identity_id, code_hash)
    );
  `);
};

/** A code as typed: case, spaces and dashes do not matter. */
const normalise = (code: string) => code.toUpperCase().replace(/[\s-]/g, "");

/** Ten characters (about 49 bits) in two groups of five, easy to copy out by hand. */
function newCode(): string {
  const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * A member's one-time recovery codes, for logging in when the device with their app or passkey
 * is lost. Only digests are kept: the codes are shown once, when made. Random enough that a
 * plain hash is safe, and the login's attempt limit stops guessing.
 */
export class RecoveryCodeStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new set of codes, replacing any earlier ones (used or not). */
  replace(identityId: string): string[] {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
    this.db.transaction(() => {
      this.clear(identityId);
      const insert = this.db.prepare("INSERT INTO identity_recovery_codes (identity_id, code_hash) VALUES (?, ?)");
      for (const code of codes) insert.run(identityId, hashToken(normalise(code)));
    })();
    return codes;
  }

  /** Uses a code up: true when it was one of the member's and not used before. Atomic, so a code works once. */
  use(identityId: string, code: string): boolean {
    return (
      this.db
        .prepare("UPDATE identity_recovery_codes SET used_at = ? WHERE identity_id = ? AND code_hash = ? AND used_at IS NULL")
        .run(this.now(), identityId, hashToken(normalise(code))).changes > 0
    );
  }

  /** How many unused codes the member has left; 0 when they have none at all. */
  remaining(identityId: string): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM identity_recovery_codes WHERE identity_id = ? AND used_at IS NULL").get(identityId) as { n: number }).n;
  }

  /** Whether the member was ever given codes (used or not). */
  has(identityId: string): boolean {
    return this.db.prepare("SELECT 1 FROM identity_recovery_codes WHERE identity_id = ? LIMIT 1").get(identityId) !== undefined;
  }

  clear(identityId: string): void {
    this.db.prepare("DELETE FROM identity_recovery_codes WHERE identity_id = ?").run(identityId);
  }
}
