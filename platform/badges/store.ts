import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

/**
 * Member badges (docs/platform/badges.md): the site's badges in their display order, and which
 * member has which badge, with the assignment's tags. The older v3 calls and the v4 ones read and
 * write the same rows. An assignment goes with its badge and with its member.
 */
export const migrateBadges: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS badges (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      description TEXT,
      background_color TEXT NOT NULL,
      text_color TEXT NOT NULL,
      icon TEXT,
      permissions_enabled INTEGER NOT NULL,
      slug TEXT NOT NULL UNIQUE,
      position INTEGER NOT NULL,
      revision INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS badge_assignments (
      id TEXT PRIMARY KEY,
      badge_id TEXT NOT NULL REFERENCES badges (id) ON DELETE CASCADE,
      member_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      tags TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (badge_id, member_id)
    );
    CREATE INDEX IF NOT EXISTS badge_assignments_member ON badge_assignments (member_id);
  `);
};

export type BadgeFields = {
  title: string;
  description: string | null;
  backgroundColor: string;
  textColor: string;
  icon: string | null;
  permissionsEnabled: boolean;
};
export type Badge = BadgeFields & { id: string; slug: string; revision: number; createdAt: number; updatedAt: number };

export type TagIds = { privateTags: string[]; tags: string[] };
export type BadgeAssignment = { id: string; badgeId: string; memberId: string; tags: TagIds; createdAt: number; updatedAt: number };

export type BadgeRow = {
  id: string;
  title: string;
  description: string | null;
  background_color: string;
  text_color: string;
  icon: string | null;
  permissions_enabled: number;
  slug: string;
  revision: number;
  created_at: number;
  updated_at: number;
};
export type AssignmentRow = { id: string; badge_id: string; member_id: string; tags: string; created_at: number; updated_at: number };

export const badgeOf = (row: BadgeRow): Badge => ({
  id: row.id,
  title: row.title,
  description: row.description,
  backgroundColor: row.background_color,
  textColor: row.text_color,
  icon: row.icon,
  permissionsEnabled: row.permissions_enabled === 1,
  slug: row.slug,
  revision: row.revision,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
export const assignmentOf = (row: AssignmentRow): BadgeAssignment => ({
  id: row.id,
  badgeId: row.badge_id,
  memberId: row.member_id,
  tags: JSON.parse(row.tags) as TagIds,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The title in lower case, runs of anything but letters and digits as one hyphen. */
const slugBase = (title: string) =>
  title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "") || "badge";

export class BadgeStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new badge, last in the display order, at revision 1. */
  create(fields: BadgeFields): Badge {
    const id = randomUUID();
    const now = this.now();
    const position = (this.db.prepare("SELECT COALESCE(MAX(position), 0) + 1 FROM badges").pluck().get() as number) ?? 1;
    this.db
      .prepare(
        `INSERT INTO badges (id, title, description, background_color, text_color, icon, permissions_enabled, slug, position, revision, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      )
      .run(
        id,
        fields.title,
        fields.description,
        fields.backgroundColor,
        fields.textColor,
        fields.icon,
        fields.permissionsEnabled ? 1 : 0,
        this.uniqueSlug(fields.title, id),
        position,
        now,
        now,
      );
    return this.get(id)!;
  }

  get(id: string): Badge | null {
    const row = this.db.prepare("SELECT * FROM badges WHERE id = ?").get(id) as BadgeRow | undefined;
    return row ? badgeOf(row) : null;
  }

  /** Every badge in display order. */
  all(): Badge[] {
    return (this.db.prepare("SELECT * FROM badges ORDER BY position, rowid").all() as BadgeRow[]).map(badgeOf);
  }

  /**
   * Changes the given fields (a new title, a new slug) when `revision` is absent or the current
   * one: the badge, "stale", or null when there is none.
   */
  update(id: string, changes: Partial<BadgeFields>, revision?: number): Badge | "stale" | null {
    const current = this.get(id);
    if (!current) return null;
    if (revision !== undefined && revision !== current.revision) return "stale";
    const next = { ...current, ...changes };
    const slug = changes.title !== undefined && changes.title !== current.title ? this.uniqueSlug(next.title, id) : current.slug;
    this.db
      .prepare(
        `UPDATE badges SET title = ?, description = ?, background_color = ?, text_color = ?, icon = ?, permissions_enabled = ?, slug = ?,
           revision = revision + 1, updated_at = ? WHERE id = ?`,
      )
      .run(next.title, next.description, next.backgroundColor, next.textColor, next.icon, next.permissionsEnabled ? 1 : 0, slug, this.now(), id);
    return this.get(id);
  }

  delete(id: string): boolean {
    return this.db.prepare("DELETE FROM badges WHERE id = ?").run(id).changes > 0;
  }

  /** Puts the badges in the given order: the ids named first, as named, then the rest as they were. */
  reorder(ids: string[]): void {
    const named = new Set(ids);
    const order = [
      ...ids,
      ...this.all()
        .map((badge) => badge.id)
        .filter((id) => !named.has(id)),
    ];
    const set = this.db.prepare("UPDATE badges SET position = ? WHERE id = ?");
    this.db.transaction(() => order.forEach((id, index) => set.run(index + 1, id)))();
  }

  assign(badgeId: string, memberId: string, tags: TagIds): BadgeAssignment | null {
    const id = randomUUID();
    const now = this.now();
    const inserted = this.db
      .prepare("INSERT OR IGNORE INTO badge_assignments (id, badge_id, member_id, tags, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(id, badgeId, memberId, JSON.stringify(tags), now, now);
    return inserted.changes > 0 ? this.assignment(id) : null;
  }

  assignment(id: string): BadgeAssignment | null {
    const row = this.db.prepare("SELECT * FROM badge_assignments WHERE id = ?").get(id) as AssignmentRow | undefined;
    return row ? assignmentOf(row) : null;
  }

  /** Every assignment, the oldest first. */
  assignments(): BadgeAssignment[] {
    return (this.db.prepare("SELECT * FROM badge_assignments ORDER BY created_at, rowid").all() as AssignmentRow[]).map(assignmentOf);
  }

  unassign(id: string): boolean {
    return this.db.prepare("DELETE FROM badge_assignments WHERE id = ?").run(id).changes > 0;
  }

  /** Removes a badge from a member; false when they did not have it. */
  unassignMember(badgeId: string, memberId: string): boolean {
    return this.db.prepare("DELETE FROM badge_assignments WHERE badge_id = ? AND member_id = ?").run(badgeId, memberId).changes > 0;
  }

  setTags(id: string, tags: TagIds): void {
    this.db.prepare("UPDATE badge_assignments SET tags = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(tags), this.now(), id);
  }

  private uniqueSlug(title: string, id: string): string {
    const base = slugBase(title);
    const taken = (slug: string) => this.db.prepare("SELECT 1 FROM badges WHERE slug = ? AND id <> ?").get(slug, id) !== undefined;
    let slug = base;
    for (let n = 2; taken(slug); n++) slug = `${base}-${n}`;
    return slug;
  }
}
