import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

/**
 * Member roles (docs/platform/member-roles.md): the site's role definitions, and which member has
 * which role. An assignment keeps the role's title, so a member keeps a role whose definition was
 * deleted until it is taken from them; assignments go with the member.
 */
export const migrateMemberRoles: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_role_definitions (
      id TEXT PRIMARY KEY,
      role_key TEXT NOT NULL UNIQUE,
      title TEXT NOT NULL,
      blockable INTEGER NOT NULL,
      revision INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS member_roles (
      member_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      role_key TEXT NOT NULL,
      title TEXT NOT NULL,
      assigned_at INTEGER NOT NULL,
      PRIMARY KEY (member_id, role_key)
    );
  `);
};

export type RoleDefinition = { id: string; roleKey: string; title: string; blockable: boolean; revision: number };
export type Role = { roleKey: string; title: string };

type DefinitionRow = { id: string; role_key: string; title: string; blockable: number; revision: number };
const definitionOf = (row: DefinitionRow): RoleDefinition => ({
  id: row.id,
  roleKey: row.role_key,
  title: row.title,
  blockable: row.blockable === 1,
  revision: row.revision,
});

export class MemberRoleStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new definition at revision 1; null when the key is taken. */
  define(roleKey: string, title: string, blockable: boolean): RoleDefinition | null {
    const inserted = this.db
      .prepare("INSERT OR IGNORE INTO member_role_definitions (id, role_key, title, blockable, revision, created_at) VALUES (?, ?, ?, ?, 1, ?)")
      .run(randomUUID(), roleKey, title, blockable ? 1 : 0, this.now());
    return inserted.changes > 0 ? this.definition(roleKey) : null;
  }

  definition(roleKey: string): RoleDefinition | null {
    const row = this.db.prepare("SELECT * FROM member_role_definitions WHERE role_key = ?").get(roleKey) as DefinitionRow | undefined;
    return row ? definitionOf(row) : null;
  }

  /** Every definition, oldest first. */
  definitions(): RoleDefinition[] {
    return (this.db.prepare("SELECT * FROM member_role_definitions ORDER BY created_at, rowid").all() as DefinitionRow[]).map(definitionOf);
  }

  /** Changes whether the role is blockable if `revision` is the current one: the definition, "stale", or null when there is none. */
  updateBlockable(roleKey: string, blockable: boolean | undefined, revision: number): RoleDefinition | "stale" | null {
    const changed = this.db
      .prepare("UPDATE member_role_definitions SET blockable = COALESCE(?, blockable), revision = revision + 1 WHERE role_key = ? AND revision = ?")
      .run(blockable === undefined ? null : blockable ? 1 : 0, roleKey, revision).changes;
    if (changed > 0) return this.definition(roleKey);
    return this.definition(roleKey) ? "stale" : null;
  }

  /** Deletes a definition (not the assignments); false when there was none. */
  undefine(roleKey: string): boolean {
    return this.db.prepare("DELETE FROM member_role_definitions WHERE role_key = ?").run(roleKey).changes > 0;
  }

  /** Gives a member a role (again is no change). */
  assign(memberId: string, role: Role): void {
    this.db
      .prepare("INSERT OR IGNORE INTO member_roles (member_id, role_key, title, assigned_at) VALUES (?, ?, ?, ?)")
      .run(memberId, role.roleKey, role.title, this.now());
  }

  /** Takes a role from a member; false when they did not have it. */
  unassign(memberId: string, roleKey: string): boolean {
    return this.db.prepare("DELETE FROM member_roles WHERE member_id = ? AND role_key = ?").run(memberId, roleKey).changes > 0;
  }

  /** A member's roles, in the order they were given. */
  rolesOf(memberId: string): Role[] {
    return this.db.prepare("SELECT role_key AS roleKey, title FROM member_roles WHERE member_id = ? ORDER BY assigned_at, rowid").all(memberId) as Role[];
  }

  /** Every assignment, members in the order of their first role. */
  assignments(): Array<Role & { memberId: string }> {
    return this.db.prepare("SELECT member_id AS memberId, role_key AS roleKey, title FROM member_roles ORDER BY assigned_at, rowid").all() as Array<
      Role & { memberId: string }
    >;
  }
}
