import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

export const MEMBER_STATUSES = ["PENDING", "APPROVED", "BLOCKED"] as const;
/** The statuses a caller may set; `OFFLINE` comes only from disconnecting a member, for good. */
export type SettableStatus = (typeof MEMBER_STATUSES)[number];
export type MemberStatus = SettableStatus | "OFFLINE";

/** A blocked or disconnected member gets no session. */
export const isShutOut = (identity: Pick<Identity, "status">) => identity.status === "BLOCKED" || identity.status === "OFFLINE";

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

/** The identity fields the members service may change. */
export type IdentityChanges = Partial<Pick<Identity, "nickname" | "firstName" | "lastName" | "privacyStatus" | "status">>;

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

/** The name a member shows when they gave none: never anything of the e-mail address, which is private. */
export const DEFAULT_NICKNAME = "Member";

/** The nickname given, else the first and last name given, else DEFAULT_NICKNAME. */
export function nicknameOrDefault(given: { nickname?: string | null; firstName?: string | null; lastName?: string | null } = {}): string {
  const name = [given.firstName?.trim(), given.lastName?.trim()].filter(Boolean).join(" ");
  return (given.nickname?.trim() || name || DEFAULT_NICKNAME).slice(0, 100);
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
    const row = this.db.prepare("SELECT * FROM identities WHERE login_email = ?").get(normaliseEmail(email)) as IdentityRow | undefined;
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

  /** Every identity, oldest first (a local site has few members). */
  all(): Identity[] {
    return (this.db.prepare("SELECT * FROM identities ORDER BY created_at, id").all() as IdentityRow[]).map(toIdentity);
  }

  /** Applies the given changes; null when there is no such identity. */
  update(id: string, changes: IdentityChanges): Identity | null {
    const columns: Record<keyof IdentityChanges, string> = {
      nickname: "nickname",
      firstName: "first_name",
      lastName: "last_name",
      privacyStatus: "privacy_status",
      status: "status",
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

  private uniqueSlug(base: string): string {
    const taken = this.db.prepare("SELECT 1 FROM identities WHERE slug = ?");
    for (let n = 1; ; n++) {
      const slug = n === 1 ? base : `${base}-${n}`;
      if (!taken.get(slug)) return slug;
    }
  }
}
