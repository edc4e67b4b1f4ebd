import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

/**
 * The local platform sends no real e-mail: every message is kept here, for tests (`GET
 * /_local/outbox`) and for a person (the mailbox page). docs/platform/identity.md §5.
 */
export type MailKind =
  "verification" | "login-code" | "sms" | "password-reset" | "activation" | "signup-attempt" | "code-ceiling" | "approved" | "password-changed";

export type Mail = {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: MailKind;
  sentAt: string;
  /** Verification and login-code messages (e-mail or SMS, whose `to` is the phone number): the code to type in. */
  code?: string;
  /** Reset and activation messages: the link to follow, and the token in it; an approval: the login page. */
  link?: string;
  recoveryToken?: string;
};

export type NewMail = Omit<Mail, "id" | "sentAt">;

/** The outbox keeps the newest messages only. */
const KEEP_MESSAGES = 500;

export const migrateOutbox: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS outbox (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      to_email TEXT NOT NULL,
      message TEXT NOT NULL,
      sent_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS outbox_to ON outbox (to_email, seq);
  `);
};

export class Outbox {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  send(mail: NewMail): Mail {
    const stored: Mail = { ...mail, id: randomUUID(), sentAt: new Date(this.now()).toISOString() };
    this.db
      .prepare("INSERT INTO outbox (id, to_email, message, sent_at) VALUES (?, ?, ?, ?)")
      .run(stored.id, mail.to.toLowerCase(), JSON.stringify(stored), this.now());
    this.db.prepare("DELETE FROM outbox WHERE seq <= (SELECT MAX(seq) FROM outbox) - ?").run(KEEP_MESSAGES);
    return stored;
  }

  /**
   * Newest first, to every address or number with `part` anywhere in it (any case): what the
   * Studio's "To" box finds while an address is still being typed, or by its domain.
   */
  matching(part: string, limit = 100): Mail[] {
    const rows = this.db
      .prepare("SELECT message FROM outbox WHERE instr(to_email, ?) > 0 ORDER BY seq DESC LIMIT ?")
      .all(part.trim().toLowerCase(), limit) as Array<{ message: string }>;
    return rows.map((row) => JSON.parse(row.message) as Mail);
  }

  /** Newest first; only one address's messages when `to` is given. */
  list(to?: string, limit = 100): Mail[] {
    const rows = (
      to
        ? this.db.prepare("SELECT message FROM outbox WHERE to_email = ? ORDER BY seq DESC LIMIT ?").all(to.trim().toLowerCase(), limit)
        : this.db.prepare("SELECT message FROM outbox ORDER BY seq DESC LIMIT ?").all(limit)
    ) as Array<{ message: string }>;
    return rows.map((row) => JSON.parse(row.message) as Mail);
  }
}
