import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

/**
 * Members' About sections (docs/platform/member-abouts.md): at most one per member, its rich
 * content kept as the client sent it, with a revision; gone with the member.
 */
export const migrateMemberAbouts: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_abouts (
      id TEXT PRIMARY KEY,
      member_id TEXT NOT NULL UNIQUE REFERENCES identities (id) ON DELETE CASCADE,
      content TEXT NOT NULL,
      revision INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    );
  `);
};

export type MemberAbout = { id: string; memberId: string; content: unknown; revision: number };

export type AboutRow = { id: string; member_id: string; content: string; revision: number };
export const aboutOf = (row: AboutRow): MemberAbout => ({ id: row.id, memberId: row.member_id, content: JSON.parse(row.content), revision: row.revision });

export class MemberAboutStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new About section at revision 1; null when the member has one already. */
  create(memberId: string, content: unknown): MemberAbout | null {
    const id = randomUUID();
    const inserted = this.db
      .prepare("INSERT OR IGNORE INTO member_abouts (id, member_id, content, revision, created_at) VALUES (?, ?, ?, 1, ?)")
      .run(id, memberId, JSON.stringify(content), this.now());
    return inserted.changes > 0 ? this.get(id) : null;
  }

  get(id: string): MemberAbout | null {
    const row = this.db.prepare("SELECT id, member_id, content, revision FROM member_abouts WHERE id = ?").get(id) as AboutRow | undefined;
    return row ? aboutOf(row) : null;
  }

  ofMember(memberId: string): MemberAbout | null {
    const row = this.db.prepare("SELECT id, member_id, content, revision FROM member_abouts WHERE member_id = ?").get(memberId) as AboutRow | undefined;
    return row ? aboutOf(row) : null;
  }

  /** Every About section, oldest first. */
  all(): MemberAbout[] {
    return (this.db.prepare("SELECT id, member_id, content, revision FROM member_abouts ORDER BY created_at, rowid").all() as AboutRow[]).map(aboutOf);
  }

  /** Replaces the content if `revision` is the current one: the new section, or "stale" (null when there is none). */
  update(id: string, content: unknown, revision: number): MemberAbout | "stale" | null {
    const changed = this.db
      .prepare("UPDATE member_abouts SET content = ?, revision = revision + 1 WHERE id = ? AND revision = ?")
      .run(JSON.stringify(content), id, revision).changes;
    if (changed > 0) return this.get(id);
    return this.get(id) ? "stale" : null;
  }

  delete(id: string): boolean {
    return this.db.prepare("DELETE FROM member_abouts WHERE id = ?").run(id).changes > 0;
  }
}
