import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

/**
 * The site's custom profile fields (docs/platform/custom-fields.md): each with a key made from
 * its name, a type, a default privacy and a place in its section's order; a hidden field is left
 * out of the list but kept. A field may apply to selected members only (its application): those
 * with a role or badge, or named, less those excluded.
 */
export const migrateCustomFields: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_custom_fields (
      id TEXT PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      field_type TEXT NOT NULL,
      social_type TEXT NOT NULL,
      default_privacy TEXT NOT NULL,
      section TEXT NOT NULL,
      position INTEGER NOT NULL,
      hidden INTEGER NOT NULL DEFAULT 0,
      revision INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    -- Which members a field applies to (none: all members), gone with its field.
    CREATE TABLE IF NOT EXISTS member_custom_field_applications (
      custom_field_id TEXT PRIMARY KEY REFERENCES member_custom_fields (id) ON DELETE CASCADE,
      applications TEXT NOT NULL,
      exclusions TEXT NOT NULL,
      revision INTEGER NOT NULL
    );
  `);
};

export const ENTITY_TYPES = ["ROLE", "BADGE", "PRICING_PLAN", "MEMBER"] as const;
export type Entity = { type: (typeof ENTITY_TYPES)[number]; entityId: string };
export type FieldApplication = { customFieldId: string; applications: Entity[]; exclusions: Entity[]; revision: number };

export const FIELD_TYPES = ["TEXT", "NUMBER", "DATE", "URL", "SOCIAL"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export type Section = "GENERAL" | "SOCIAL";

export type CustomField = {
  id: string;
  key: string;
  name: string;
  fieldType: FieldType;
  socialType: string;
  defaultPrivacy: "PUBLIC" | "PRIVATE";
  section: Section;
  hidden: boolean;
  revision: number;
  createdAt: number;
  updatedAt: number;
};

type Row = {
  id: string;
  key: string;
  name: string;
  field_type: FieldType;
  social_type: string;
  default_privacy: "PUBLIC" | "PRIVATE";
  section: Section;
  hidden: number;
  revision: number;
  created_at: number;
  updated_at: number;
};
const fieldOf = (row: Row): CustomField => ({
  id: row.id,
  key: row.key,
  name: row.name,
  fieldType: row.field_type,
  socialType: row.social_type,
  defaultPrivacy: row.default_privacy,
  section: row.section,
  hidden: row.hidden === 1,
  revision: row.revision,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** `custom.` and the name in lower case, runs of anything else as one hyphen. */
const keyBase = (name: string) =>
  `custom.${
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "field"
  }`;

export class CustomFieldStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new field, last in its section, at revision 1. */
  create(input: Pick<CustomField, "name" | "fieldType" | "socialType" | "defaultPrivacy">): CustomField {
    const id = randomUUID();
    const now = this.now();
    const section: Section = input.fieldType === "SOCIAL" ? "SOCIAL" : "GENERAL";
    const position = this.db.prepare("SELECT COALESCE(MAX(position), 0) + 1 FROM member_custom_fields WHERE section = ?").pluck().get(section) as number;
    let key = keyBase(input.name);
    const base = key;
    for (let n = 2; this.db.prepare("SELECT 1 FROM member_custom_fields WHERE key = ?").get(key); n++) key = `${base}-${n}`;
    this.db
      .prepare(
        `INSERT INTO member_custom_fields (id, key, name, field_type, social_type, default_privacy, section, position, revision, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      )
      .run(id, key, input.name, input.fieldType, input.socialType, input.defaultPrivacy, section, position, now, now);
    return this.get(id)!;
  }

  get(id: string): CustomField | null {
    const row = this.db.prepare("SELECT * FROM member_custom_fields WHERE id = ?").get(id) as Row | undefined;
    return row ? fieldOf(row) : null;
  }

  /** The fields not hidden, by section (general, then social), each in its order. */
  listed(): CustomField[] {
    return (
      this.db
        .prepare("SELECT * FROM member_custom_fields WHERE hidden = 0 ORDER BY CASE section WHEN 'GENERAL' THEN 0 ELSE 1 END, position, rowid")
        .all() as Row[]
    ).map(fieldOf);
  }

  /** Changes a field if `revision` is the current one: the field, "stale", or null when there is none. */
  update(id: string, changes: Partial<Pick<CustomField, "name" | "socialType" | "defaultPrivacy">>, revision: number): CustomField | "stale" | null {
    const current = this.get(id);
    if (!current) return null;
    if (current.revision !== revision) return "stale";
    const next = { ...current, ...changes };
    this.db
      .prepare("UPDATE member_custom_fields SET name = ?, social_type = ?, default_privacy = ?, revision = revision + 1, updated_at = ? WHERE id = ?")
      .run(next.name, next.socialType, next.defaultPrivacy, this.now(), id);
    return this.get(id);
  }

  /** Hides or deletes a field if `revision` is the current one: true, "stale", or null when there is none. */
  remove(id: string, revision: number, how: "hide" | "delete"): true | "stale" | null {
    const current = this.get(id);
    if (!current) return null;
    if (current.revision !== revision) return "stale";
    if (how === "delete") this.db.prepare("DELETE FROM member_custom_fields WHERE id = ?").run(id);
    else this.db.prepare("UPDATE member_custom_fields SET hidden = 1, revision = revision + 1, updated_at = ? WHERE id = ?").run(this.now(), id);
    return true;
  }

  /** Puts a section's fields in the given order: those named first, the rest after as they were. */
  reorder(section: Section, ids: string[]): void {
    const named = new Set(ids);
    const rest = (this.db.prepare("SELECT id FROM member_custom_fields WHERE section = ? ORDER BY position, rowid").pluck().all(section) as string[]).filter(
      (id) => !named.has(id),
    );
    const set = this.db.prepare("UPDATE member_custom_fields SET position = ? WHERE id = ?");
    this.db.transaction(() => [...ids, ...rest].forEach((id, index) => set.run(index + 1, id)))();
  }

  /** Hidden fields: the suggestions the site can bring back. */
  hiddenFields(): CustomField[] {
    return (this.db.prepare("SELECT * FROM member_custom_fields WHERE hidden = 1 ORDER BY created_at, rowid").all() as Row[]).map(fieldOf);
  }

  application(customFieldId: string): FieldApplication | null {
    const row = this.db.prepare("SELECT * FROM member_custom_field_applications WHERE custom_field_id = ?").get(customFieldId) as
      { custom_field_id: string; applications: string; exclusions: string; revision: number } | undefined;
    return row
      ? {
          customFieldId: row.custom_field_id,
          applications: JSON.parse(row.applications) as Entity[],
          exclusions: JSON.parse(row.exclusions) as Entity[],
          revision: row.revision,
        }
      : null;
  }

  /** A new application at revision 1; null when the field has one. */
  createApplication(customFieldId: string, applications: Entity[], exclusions: Entity[]): FieldApplication | null {
    const inserted = this.db
      .prepare("INSERT OR IGNORE INTO member_custom_field_applications (custom_field_id, applications, exclusions, revision) VALUES (?, ?, ?, 1)")
      .run(customFieldId, JSON.stringify(applications), JSON.stringify(exclusions));
    return inserted.changes > 0 ? this.application(customFieldId) : null;
  }

  /** Replaces an application whole if `revision` is the current one: the application, "stale", or null when there is none. */
  replaceApplication(customFieldId: string, applications: Entity[], exclusions: Entity[], revision: number): FieldApplication | "stale" | null {
    const changed = this.db
      .prepare(
        "UPDATE member_custom_field_applications SET applications = ?, exclusions = ?, revision = revision + 1 WHERE custom_field_id = ? AND revision = ?",
      )
      .run(JSON.stringify(applications), JSON.stringify(exclusions), customFieldId, revision).changes;
    if (changed > 0) return this.application(customFieldId);
    return this.application(customFieldId) ? "stale" : null;
  }

  deleteApplication(customFieldId: string): boolean {
    return this.db.prepare("DELETE FROM member_custom_field_applications WHERE custom_field_id = ?").run(customFieldId).changes > 0;
  }
}
