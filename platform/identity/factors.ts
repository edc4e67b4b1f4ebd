import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

/** The second factors the local platform can send a code by. */
export const SECOND_FACTOR_TYPES = ["EMAIL", "SMS"] as const;
export type SecondFactorType = (typeof SECOND_FACTOR_TYPES)[number];

/** A member's second factor, as the identity's `factors` list shows it (docs/platform/identity.md §3.8). */
export type Factor = {
  factorId: string;
  identityId: string;
  type: SecondFactorType;
  /** Where an SMS code goes; null for e-mail codes, which go to the login address. */
  phone: string | null;
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
};

type FactorRow = { factor_id: string; identity_id: string; type: SecondFactorType; phone: string | null; created_at: number };

const toFactor = (row: FactorRow): Factor => ({
  factorId: row.factor_id,
  identityId: row.identity_id,
  type: row.type,
  phone: row.phone,
  createdAt: row.created_at,
});

export class FactorStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** The identity's second factors, oldest first: the first is the one a login challenges. */
  list(identityId: string): Factor[] {
    const rows = this.db.prepare("SELECT * FROM identity_factors WHERE identity_id = ? ORDER BY created_at, factor_id").all(identityId) as FactorRow[];
    return rows.map(toFactor);
  }

  /** Turns a factor on; one of each type, so turning it on again replaces it (a new phone number, say). */
  enroll(identityId: string, type: SecondFactorType, phone: string | null): Factor {
    return this.db.transaction(() => {
      this.db.prepare("DELETE FROM identity_factors WHERE identity_id = ? AND type = ?").run(identityId, type);
      const factorId = randomUUID();
      this.db
        .prepare("INSERT INTO identity_factors (factor_id, identity_id, type, phone, created_at) VALUES (?, ?, ?, ?, ?)")
        .run(factorId, identityId, type, phone, this.now());
      return toFactor(this.db.prepare("SELECT * FROM identity_factors WHERE factor_id = ?").get(factorId) as FactorRow);
    })();
  }

  /** Turns a factor of this identity off; false when it has no such factor. */
  remove(identityId: string, factorId: string): boolean {
    return this.db.prepare("DELETE FROM identity_factors WHERE identity_id = ? AND factor_id = ?").run(identityId, factorId).changes > 0;
  }
}
