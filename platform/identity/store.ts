import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../db";
import { hashToken, newToken } from "../oauth/store";

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
  status: "APPROVED";
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
};

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
  status: "APPROVED";
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
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'APPROVED', ?, ?, ?)`,
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
          input.privacyStatus ?? "PRIVATE",
          now,
          now,
        );
      return this.get(id);
    })();
  }

  recordLogin(id: string): void {
    this.db.prepare("UPDATE identities SET last_login_at = ? WHERE id = ?").run(this.now(), id);
  }

  /** Starts a login session; the token goes into the cookie and is stored only as a hash. */
  startSession(memberId: string): { session: LoginSession; token: string } {
    const id = randomUUID();
    const token = newToken("PLS");
    const now = this.now();
    this.db.prepare("DELETE FROM login_sessions WHERE expires_at <= ? OR ended_at IS NOT NULL").run(now);
    this.db
      .prepare("INSERT INTO login_sessions (id, token_hash, member_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)")
      .run(id, hashToken(token), memberId, now, now + LOGIN_SESSION_TTL_MS);
    return { session: { id, memberId }, token };
  }

  /** The live session a cookie or session token stands for, or null. */
  sessionByToken(token: string | undefined | null): LoginSession | null {
    if (!token) return null;
    return this.liveSession("token_hash = ?", hashToken(token));
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
