import { randomUUID, timingSafeEqual } from "node:crypto";
import { hashToken } from "../oauth/store";
import type { Db, Migration } from "../types";

/** A phone's enrolment code works this long, for this many wrong tries; then the member starts again. */
const ENROLMENT_CODE_TTL_MS = 15 * 60 * 1000;
const MAX_ENROLMENT_ATTEMPTS = 5;

/**
 * The second factors the local platform knows: codes it sends (e-mail, SMS), codes an
 * authenticator app makes (TOTP), and passkeys (WEBAUTHN: on while the member has one, webauthn.ts).
 */
export const SECOND_FACTOR_TYPES = ["EMAIL", "SMS", "TOTP", "WEBAUTHN"] as const;
export type SecondFactorType = (typeof SECOND_FACTOR_TYPES)[number];
/** What `/v2/{factorType}/verify` takes: a factor's code, or one of the member's one-time recovery codes. */
export const VERIFY_FACTOR_TYPES = [...SECOND_FACTOR_TYPES, "RECOVERY_CODE"] as const;
export type VerifyFactorType = (typeof VERIFY_FACTOR_TYPES)[number];

/** A factor that must prove itself (an app's first code) is REQUIRE_ACTIVATION until it has; only ENABLED ones are asked at login. */
export type FactorStatus = "ENABLED" | "REQUIRE_ACTIVATION";

/** A member's second factor, as the identity's `factors` list shows it (docs/platform/identity.md §3.8). */
export type Factor = {
  factorId: string;
  identityId: string;
  type: SecondFactorType;
  status: FactorStatus;
  /** Where an SMS code goes; null for e-mail codes, which go to the login address. */
  phone: string | null;
  /**
   * An authenticator app's shared secret (base32); for a phone being enrolled, the digest of the
   * code texted to it; null otherwise.
   */
  secret: string | null;
  createdAt: number;
};

export const migrateFactors: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS identity_factors (
      factor_id TEXT PRIMARY KEY,
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      phone TEXT,
      created_at INTEGER NOT NULL,
      UNIQUE (identity_id, type)
    );
  `);
  // Added with authenticator apps: earlier databases hold code factors only, all enabled.
  const columns = db.prepare("PRAGMA table_info(identity_factors)").all() as { name: string }[];
  if (!columns.some((c) => c.name === "status")) db.exec("ALTER TABLE identity_factors ADD COLUMN status TEXT NOT NULL DEFAULT 'ENABLED'");
  if (!columns.some((c) => c.name === "secret")) db.exec("ALTER TABLE identity_factors ADD COLUMN secret TEXT");
  // The last time step whose app code was accepted: a code counts once, and never one older.
  if (!columns.some((c) => c.name === "last_step")) db.exec("ALTER TABLE identity_factors ADD COLUMN last_step INTEGER");
  // Wrong codes tried while enrolling a phone.
  if (!columns.some((c) => c.name === "attempts")) db.exec("ALTER TABLE identity_factors ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0");
};

type FactorRow = {
  factor_id: string;
  identity_id: string;
  type: SecondFactorType;
  status: FactorStatus;
  phone: string | null;
  secret: string | null;
  created_at: number;
};

const toFactor = (row: FactorRow): Factor => ({
  factorId: row.factor_id,
  identityId: row.identity_id,
  type: row.type,
  status: row.status,
  phone: row.phone,
  secret: row.secret,
  createdAt: row.created_at,
});

export class FactorStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** The identity's enabled second factors, oldest first: the first is the one a login challenges. */
  list(identityId: string): Factor[] {
    return this.listOwn(identityId).filter((factor) => factor.status === "ENABLED");
  }

  /** Every factor of the identity, those waiting for activation too: the member's own view. */
  listOwn(identityId: string): Factor[] {
    const rows = this.db.prepare("SELECT * FROM identity_factors WHERE identity_id = ? ORDER BY created_at, factor_id").all(identityId) as FactorRow[];
    return rows.map(toFactor);
  }

  get(identityId: string, factorId: string): Factor | null {
    const row = this.db.prepare("SELECT * FROM identity_factors WHERE identity_id = ? AND factor_id = ?").get(identityId, factorId) as FactorRow | undefined;
    return row ? toFactor(row) : null;
  }

  /**
   * Turns a factor on, or starts one that must prove itself first (given a secret: an app);
   * one of each type, so turning it on again replaces it (a new phone number, say).
   */
  enroll(identityId: string, type: SecondFactorType, detail: { phone?: string; secret?: string } = {}): Factor {
    return this.db.transaction(() => {
      this.db.prepare("DELETE FROM identity_factors WHERE identity_id = ? AND type = ?").run(identityId, type);
      const factorId = randomUUID();
      this.db
        .prepare("INSERT INTO identity_factors (factor_id, identity_id, type, status, phone, secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(factorId, identityId, type, detail.secret ? "REQUIRE_ACTIVATION" : "ENABLED", detail.phone ?? null, detail.secret ?? null, this.now());
      return toFactor(this.db.prepare("SELECT * FROM identity_factors WHERE factor_id = ?").get(factorId) as FactorRow);
    })();
  }

  /**
   * Records an app code's time step as used, when it is newer than the last one used: false
   * for a replayed (or older) code. Atomic, so two requests with one code cannot both pass.
   */
  useStep(factorId: string, step: number): boolean {
    return (
      this.db.prepare("UPDATE identity_factors SET last_step = ? WHERE factor_id = ? AND (last_step IS NULL OR last_step < ?)").run(step, factorId, step)
        .changes > 0
    );
  }

  /**
   * The code texted to a phone being enrolled: "right", "wrong" (counted), or "ended" when it
   * expired or was tried too often, and the waiting factor is gone (the member starts again).
   */
  tryEnrolmentCode(factorId: string, code: string): "right" | "wrong" | "ended" {
    const row = this.db
      .prepare("SELECT secret, attempts, created_at FROM identity_factors WHERE factor_id = ? AND status = 'REQUIRE_ACTIVATION'")
      .get(factorId) as { secret: string | null; attempts: number; created_at: number } | undefined;
    if (!row?.secret || row.attempts >= MAX_ENROLMENT_ATTEMPTS || row.created_at + ENROLMENT_CODE_TTL_MS <= this.now()) {
      this.db.prepare("DELETE FROM identity_factors WHERE factor_id = ? AND status = 'REQUIRE_ACTIVATION'").run(factorId);
      return "ended";
    }
    // Compared as digests of equal length, in constant time.
    if (timingSafeEqual(Buffer.from(row.secret), Buffer.from(hashToken(code)))) return "right";
    this.db.prepare("UPDATE identity_factors SET attempts = attempts + 1 WHERE factor_id = ?").run(factorId);
    return "wrong";
  }

  /** A factor waiting for activation becomes ENABLED. */
  activate(factorId: string): void {
    // A phone's code digest has done its work; an app keeps its secret.
    this.db.prepare("UPDATE identity_factors SET status = 'ENABLED', secret = CASE WHEN type = 'TOTP' THEN secret END WHERE factor_id = ?").run(factorId);
  }

  /** Turns a factor of this identity off; false when it has no such factor. */
  remove(identityId: string, factorId: string): boolean {
    return this.db.prepare("DELETE FROM identity_factors WHERE identity_id = ? AND factor_id = ?").run(identityId, factorId).changes > 0;
  }
}
