import { randomBytes, randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

/** A ceremony's challenge is answered within this time, or the member starts again. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * How much a member asks of their authenticator's own check of the person (PIN, fingerprint), in
 * the specification's words: REQUIRED refuses an answer without it; PREFERRED (the default: a
 * passkey is the second step after the password) and DISCOURAGED take one without.
 */
export const USER_VERIFICATION = ["REQUIRED", "PREFERRED", "DISCOURAGED"] as const;
export type UserVerification = (typeof USER_VERIFICATION)[number];
export const DEFAULT_USER_VERIFICATION: UserVerification = "PREFERRED";

/** A member's passkey: the public key their authenticator registered, and the signature counter it last reported. */
export type Passkey = {
  credentialId: string;
  identityId: string;
  name: string;
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  createdAt: number;
  lastUsedAt: number | null;
};

/** Registration: adding a passkey; login: a second step answered with one. */
export type CeremonyKind = "registration" | "login";

export const migratePasskeys: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS identity_passkeys (
      credential_id TEXT PRIMARY KEY,
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      public_key BLOB NOT NULL,
      counter INTEGER NOT NULL,
      transports TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER
    );
    CREATE TABLE IF NOT EXISTS webauthn_challenges (
      challenge_id TEXT PRIMARY KEY,
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      challenge TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      UNIQUE (identity_id, kind)
    );
    CREATE TABLE IF NOT EXISTS identity_passkey_settings (
      identity_id TEXT PRIMARY KEY REFERENCES identities (id) ON DELETE CASCADE,
      user_verification TEXT NOT NULL
    );
  `);
};

type PasskeyRow = {
  credential_id: string;
  identity_id: string;
  name: string;
  public_key: Buffer;
  counter: number;
  transports: string;
  created_at: number;
  last_used_at: number | null;
};

const toPasskey = (row: PasskeyRow): Passkey => ({
  credentialId: row.credential_id,
  identityId: row.identity_id,
  name: row.name,
  publicKey: new Uint8Array(row.public_key),
  counter: row.counter,
  transports: JSON.parse(row.transports) as string[],
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** Members' passkeys, and the challenges of ceremonies in progress (one of each kind per member, single-use). */
export class PasskeyStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  list(identityId: string): Passkey[] {
    const rows = this.db.prepare("SELECT * FROM identity_passkeys WHERE identity_id = ? ORDER BY created_at, credential_id").all(identityId) as PasskeyRow[];
    return rows.map(toPasskey);
  }

  /** A passkey by its credential id, whoever it belongs to: the caller checks the owner. */
  find(credentialId: string): Passkey | null {
    const row = this.db.prepare("SELECT * FROM identity_passkeys WHERE credential_id = ?").get(credentialId) as PasskeyRow | undefined;
    return row ? toPasskey(row) : null;
  }

  add(passkey: Omit<Passkey, "createdAt" | "lastUsedAt">): Passkey {
    this.db
      .prepare("INSERT INTO identity_passkeys (credential_id, identity_id, name, public_key, counter, transports, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .run(
        passkey.credentialId,
        passkey.identityId,
        passkey.name,
        Buffer.from(passkey.publicKey),
        passkey.counter,
        JSON.stringify(passkey.transports),
        this.now(),
      );
    return this.find(passkey.credentialId)!;
  }

  /**
   * Records a login with a passkey: its new counter, when it is above the one stored (or both are
   * zero, for authenticators that keep no counter). False for a counter that did not grow: a cloned key, or a replay.
   */
  used(credentialId: string, counter: number): boolean {
    return (
      this.db
        .prepare("UPDATE identity_passkeys SET counter = ?, last_used_at = ? WHERE credential_id = ? AND (counter < ? OR (counter = 0 AND ? = 0))")
        .run(counter, this.now(), credentialId, counter, counter).changes > 0
    );
  }

  remove(identityId: string, credentialId: string): boolean {
    return this.db.prepare("DELETE FROM identity_passkeys WHERE identity_id = ? AND credential_id = ?").run(identityId, credentialId).changes > 0;
  }

  removeAll(identityId: string): void {
    this.db.prepare("DELETE FROM identity_passkeys WHERE identity_id = ?").run(identityId);
  }

  /** The member's user-verification preference for their passkeys; PREFERRED until they choose. */
  userVerification(identityId: string): UserVerification {
    const row = this.db.prepare("SELECT user_verification FROM identity_passkey_settings WHERE identity_id = ?").get(identityId) as
      { user_verification: string } | undefined;
    const stored = USER_VERIFICATION.find((value) => value === row?.user_verification);
    return stored ?? DEFAULT_USER_VERIFICATION;
  }

  setUserVerification(identityId: string, preference: UserVerification): void {
    this.db
      .prepare(
        `INSERT INTO identity_passkey_settings (identity_id, user_verification) VALUES (?, ?)
         ON CONFLICT (identity_id) DO UPDATE SET user_verification = excluded.user_verification`,
      )
      .run(identityId, preference);
  }

  /** A new random challenge for a ceremony, replacing the member's earlier one of that kind. */
  startCeremony(identityId: string, kind: CeremonyKind): { challengeId: string; challenge: string } {
    const challengeId = randomUUID();
    const challenge = randomBytes(32).toString("base64url");
    this.db.transaction(() => {
      this.db.prepare("DELETE FROM webauthn_challenges WHERE expires_at <= ? OR (identity_id = ? AND kind = ?)").run(this.now(), identityId, kind);
      this.db
        .prepare("INSERT INTO webauthn_challenges (challenge_id, identity_id, kind, challenge, expires_at) VALUES (?, ?, ?, ?, ?)")
        .run(challengeId, identityId, kind, challenge, this.now() + WEBAUTHN_CHALLENGE_TTL_MS);
    })();
    return { challengeId, challenge };
  }

  /** Takes a live challenge of this member's ceremony, which is then gone: each challenge is answered once. */
  takeCeremony(identityId: string, kind: CeremonyKind, challengeId: string): string | null {
    const row = this.db
      .prepare("DELETE FROM webauthn_challenges WHERE challenge_id = ? AND identity_id = ? AND kind = ? RETURNING challenge, expires_at")
      .get(challengeId, identityId, kind) as { challenge: string; expires_at: number } | undefined;
    return row && row.expires_at > this.now() ? row.challenge : null;
  }
}
