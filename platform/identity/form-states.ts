import { createHash } from "node:crypto";
import type { Db, Migration } from "../types";

/**
 * What a hosted form leaves for the page its POST redirects to (Post/Redirect/Get,
 * docs/platform/identity.md §1.1): a message shown once, or a login waiting for its second
 * factor's code. Each is bound to one page, one redirect session (or reset link) and one
 * browser (its CSRF cookie), and is stored only under a hash of the three.
 */
export type FormStateKey = { page: string; subject: string; browser: string };

export const migrateHostedFormStates: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS hosted_form_states (
      key_hash TEXT PRIMARY KEY,
      payload TEXT NOT NULL,
      expires_at INTEGER NOT NULL
    );
  `);
};

function hashKey(key: FormStateKey): string {
  return createHash("sha256")
    .update(JSON.stringify([key.page, key.subject, key.browser]))
    .digest("base64url");
}

export class HostedFormStateStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  save(key: FormStateKey, value: object, ttlMs: number): void {
    this.prune();
    this.db
      .prepare("INSERT OR REPLACE INTO hosted_form_states (key_hash, payload, expires_at) VALUES (?, ?, ?)")
      .run(hashKey(key), JSON.stringify(value), this.now() + ttlMs);
  }

  read<T extends object>(key: FormStateKey): T | null {
    const row = this.db.prepare("SELECT payload FROM hosted_form_states WHERE key_hash = ? AND expires_at > ?").get(hashKey(key), this.now()) as
      { payload: string } | undefined;
    return row ? (JSON.parse(row.payload) as T) : null;
  }

  /** Reads and forgets: a message is shown by the first page that asks for it, never again. */
  take<T extends object>(key: FormStateKey): T | null {
    const value = this.read<T>(key);
    this.delete(key);
    return value;
  }

  delete(key: FormStateKey): void {
    this.db.prepare("DELETE FROM hosted_form_states WHERE key_hash = ?").run(hashKey(key));
  }

  prune(): number {
    return this.db.prepare("DELETE FROM hosted_form_states WHERE expires_at <= ?").run(this.now()).changes;
  }
}
