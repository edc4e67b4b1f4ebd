import { randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { Db, Migration } from "../types";
import { hashToken, newToken } from "../oauth/store";

export const MEMBER_STATUSES = ["PENDING", "APPROVED", "BLOCKED"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** A site member's identity: login email, password hash and the profile the members API shows. */
export type Identity = {
  id: string;
  contactId: string;
  loginEmail: string;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  nickname: string;
  slug: string;
  /** PENDING until the site owner approves a sign-up (when approval is required). */
  status: MemberStatus;
  privacyStatus: "PUBLIC" | "PRIVATE";
  createdAt: number;
  updatedAt: number;
  lastLoginAt: number | null;
};

export type NewIdentity = {
  email: string;
  passwordHash: string;
  nickname: string;
  firstName?: string | null;
  lastName?: string | null;
  emailVerified?: boolean;
  privacyStatus?: Identity["privacyStatus"];
  status?: MemberStatus;
};

/** An e-mail verification in progress: the code sent, and the login it continues. */
export type PendingVerification = { identityId: string; code: string; attempts: number };

/** Verification codes and reset links work this long. */
const VERIFICATION_TTL_MS = 15 * 60 * 1000;
const RECOVERY_TTL_MS = 60 * 60 * 1000;
/** A wrong code this many times ends the verification; the member logs in again for a new one. */
export const MAX_VERIFICATION_ATTEMPTS = 5;

/** The identity fields the members service may change. */
export type IdentityChanges = Partial<Pick<Identity, "nickname" | "firstName" | "lastName" | "privacyStatus" | "status">>;

/** A platform login session: what the hosted pages' cookie stands for. */
export type LoginSession = { id: string; memberId: string };

/** Platform login sessions last a week, then the member signs in again. */
const LOGIN_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const migrateIdentity: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS identities (
      id TEXT PRIMARY KEY,
      contact_id TEXT NOT NULL,
      login_email TEXT NOT NULL UNIQUE,
      email_verified INTEGER NOT NULL,
      password_hash TEXT NOT NULL,
      first_name TEXT,
      last_name TEXT,
      nickname TEXT NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      status TEXT NOT NULL,
      privacy_status TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      last_login_at INTEGER
    );
    CREATE TABLE IF NOT EXISTS verification_states (
      state_hash TEXT PRIMARY KEY,
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      code TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      expires_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS recovery_tokens (
      token_hash TEXT PRIMARY KEY,
      identity_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      redirect_url TEXT,
      expires_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS login_sessions (
      id TEXT PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      member_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      ended_at INTEGER
    );
  `);
};

type IdentityRow = {
  id: string;
  contact_id: string;
  login_email: string;
  email_verified: number;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  nickname: string;
  slug: string;
  status: MemberStatus;
  privacy_status: Identity["privacyStatus"];
  created_at: number;
  updated_at: number;
  last_login_at: number | null;
};

function toIdentity(row: IdentityRow): Identity {
  return {
    id: row.id,
    contactId: row.contact_id,
    loginEmail: row.login_email,
    emailVerified: row.email_verified === 1,
    firstName: row.first_name,
    lastName: row.last_name,
    nickname: row.nickname,
    slug: row.slug,
    status: row.status,
    privacyStatus: row.privacy_status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastLoginAt: row.last_login_at,
  };
}

/** Emails compare case-insensitively and without surrounding spaces. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function slugBase(nickname: string): string {
  const slug = nickname
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return slug || "member";
}

export class IdentityStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  count(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM identities").get() as { n: number }).n;
  }

  get(id: string): Identity | null {
    const row = this.db.prepare("SELECT * FROM identities WHERE id = ?").get(id) as IdentityRow | undefined;
    return row ? toIdentity(row) : null;
  }

  /** The identity and its password hash, for checking a sign-in. */
  findForLogin(email: string): { identity: Identity; passwordHash: string } | null {
    const row = this.db.prepare("SELECT * FROM identities WHERE login_email = ?").get(normaliseEmail(email)) as
      | IdentityRow
      | undefined;
    return row ? { identity: toIdentity(row), passwordHash: row.password_hash } : null;
  }

  /** Creates a member, or returns null when the email is already taken. */
  create(input: NewIdentity): Identity | null {
    const email = normaliseEmail(input.email);
    return this.db.transaction(() => {
      if (this.db.prepare("SELECT 1 FROM identities WHERE login_email = ?").get(email)) return null;
      const now = this.now();
      const id = randomUUID();
      this.db
        .prepare(
          `INSERT INTO identities (id, contact_id, login_email, email_verified, password_hash, first_name, last_name,
             nickname, slug, status, privacy_status, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          randomUUID(),
          email,
          input.emailVerified ? 1 : 0,
          input.passwordHash,
          input.firstName ?? null,
          input.lastName ?? null,
          input.nickname,
          this.uniqueSlug(slugBase(input.nickname)),
          input.status ?? "APPROVED",
          input.privacyStatus ?? "PRIVATE",
          now,
          now,
        );
      return this.get(id);
    })();
  }

  markEmailVerified(id: string): void {
    this.db.prepare("UPDATE identities SET email_verified = 1, updated_at = ? WHERE id = ?").run(this.now(), id);
  }

  setPasswordHash(id: string, passwordHash: string): void {
    this.db.prepare("UPDATE identities SET password_hash = ?, updated_at = ? WHERE id = ?").run(passwordHash, this.now(), id);
  }

  /** Starts an e-mail verification: a state token for the client, a code for the e-mail. */
  startVerification(identityId: string): { stateToken: string; code: string } {
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
  continueVerification(identityId: string): string | null {
    const stateToken = newToken("VST");
    const changed = this.db
      .prepare("UPDATE verification_states SET state_hash = ? WHERE identity_id = ? AND expires_at > ?")
      .run(hashToken(stateToken), identityId, this.now()).changes;
    return changed > 0 ? stateToken : null;
  }

  /**
   * Checks a code against the verification a state token stands for. A right code ends the
   * verification; a wrong one counts, and too many end it too.
   */
  checkVerification(stateToken: string, code: string): { identityId: string } | "wrong-code" | "unknown" {
    const hash = hashToken(stateToken);
    const row = this.db.prepare("SELECT identity_id, code, attempts FROM verification_states WHERE state_hash = ? AND expires_at > ?").get(hash, this.now()) as
      | { identity_id: string; code: string; attempts: number }
      | undefined;
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

  /** A single-use password reset token, returning to `redirectUrl` when set. */
  startRecovery(identityId: string, redirectUrl: string | null): string {
    const token = newToken("RCV");
    const now = this.now();
    this.prune();
    this.db
      .prepare("INSERT INTO recovery_tokens (token_hash, identity_id, redirect_url, expires_at) VALUES (?, ?, ?, ?)")
      .run(hashToken(token), identityId, redirectUrl, now + RECOVERY_TTL_MS);
    return token;
  }

  /** The reset a token stands for, without using it up (the reset page shows the form first). */
  peekRecovery(token: string): { identityId: string; redirectUrl: string | null } | null {
    const row = this.db.prepare("SELECT identity_id, redirect_url FROM recovery_tokens WHERE token_hash = ? AND expires_at > ?").get(hashToken(token), this.now()) as
      | { identity_id: string; redirect_url: string | null }
      | undefined;
    return row ? { identityId: row.identity_id, redirectUrl: row.redirect_url } : null;
  }

  /**
   * Uses a reset token up, with every other one the identity has: once a new password is set,
   * an older link (in a forwarded or leaked mail) must not set another.
   */
  consumeRecovery(token: string): { identityId: string; redirectUrl: string | null } | null {
    const found = this.peekRecovery(token);
    if (found) this.db.prepare("DELETE FROM recovery_tokens WHERE identity_id = ?").run(found.identityId);
    return found;
  }

  /** Every platform login session of a member ends (a password change or reset elsewhere). */
  endAllSessions(memberId: string): string[] {
    const ids = (this.db.prepare("SELECT id FROM login_sessions WHERE member_id = ? AND ended_at IS NULL").all(memberId) as Array<{ id: string }>).map((row) => row.id);
    this.db.prepare("UPDATE login_sessions SET ended_at = ? WHERE member_id = ? AND ended_at IS NULL").run(this.now(), memberId);
    return ids;
  }

  /** Every identity, oldest first (a local site has few members). */
  all(): Identity[] {
    return (this.db.prepare("SELECT * FROM identities ORDER BY created_at, id").all() as IdentityRow[]).map(toIdentity);
  }

  /** Applies the given changes; null when there is no such identity. */
  update(id: string, changes: IdentityChanges): Identity | null {
    const columns: Record<keyof IdentityChanges, string> = {
      nickname: "nickname", firstName: "first_name", lastName: "last_name", privacyStatus: "privacy_status", status: "status",
    };
    const entries = (Object.keys(columns) as (keyof IdentityChanges)[]).filter((key) => changes[key] !== undefined);
    const assignments = [...entries.map((key) => `${columns[key]} = ?`), "updated_at = ?"].join(", ");
    this.db.prepare(`UPDATE identities SET ${assignments} WHERE id = ?`).run(...entries.map((key) => changes[key]), this.now(), id);
    return this.get(id);
  }

  /** Sets the slug, or answers "taken" when another identity has it; null when there is no such identity. */
  setSlug(id: string, slug: string): Identity | null | "taken" {
    return this.db.transaction(() => {
      if (this.db.prepare("SELECT 1 FROM identities WHERE slug = ? AND id <> ?").get(slug, id)) return "taken" as const;
      this.db.prepare("UPDATE identities SET slug = ?, updated_at = ? WHERE id = ?").run(slug, this.now(), id);
      return this.get(id);
    })();
  }

  /** Deletes the identity with its login sessions; false when there was none. */
  delete(id: string): boolean {
    return this.db.prepare("DELETE FROM identities WHERE id = ?").run(id).changes > 0;
  }

  recordLogin(id: string): void {
    this.db.prepare("UPDATE identities SET last_login_at = ? WHERE id = ?").run(this.now(), id);
  }

  /** Deletes what can no longer be used: ended or expired login sessions, expired verification codes and reset links. */
  prune(): number {
    const now = this.now();
    return (
      this.db.prepare("DELETE FROM login_sessions WHERE expires_at <= ? OR ended_at IS NOT NULL").run(now).changes +
      this.db.prepare("DELETE FROM verification_states WHERE expires_at <= ?").run(now).changes +
      this.db.prepare("DELETE FROM recovery_tokens WHERE expires_at <= ?").run(now).changes
    );
  }

  /** Starts a login session; the token goes into the cookie and is stored only as a hash. */
  startSession(memberId: string): { session: LoginSession; token: string } {
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
  sessionByToken(token: string | undefined | null, maxAgeMs?: number): LoginSession | null {
    if (!token) return null;
    const session = this.liveSession("token_hash = ?", hashToken(token));
    if (!session || maxAgeMs === undefined) return session;
    const { created_at } = this.db.prepare("SELECT created_at FROM login_sessions WHERE id = ?").get(session.id) as { created_at: number };
    return this.now() - created_at <= maxAgeMs ? session : null;
  }

  sessionById(id: string | null): LoginSession | null {
    return id ? this.liveSession("id = ?", id) : null;
  }

  endSession(id: string): void {
    this.db.prepare("UPDATE login_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL").run(this.now(), id);
  }

  private liveSession(where: string, value: string): LoginSession | null {
    const row = this.db
      .prepare(`SELECT id, member_id FROM login_sessions WHERE ${where} AND ended_at IS NULL AND expires_at > ?`)
      .get(value, this.now()) as { id: string; member_id: string } | undefined;
    return row ? { id: row.id, memberId: row.member_id } : null;
  }

  private uniqueSlug(base: string): string {
    const taken = this.db.prepare("SELECT 1 FROM identities WHERE slug = ?");
    for (let n = 1; ; n++) {
      const slug = n === 1 ? base : `${base}-${n}`;
      if (!taken.get(slug)) return slug;
    }
  }
}
