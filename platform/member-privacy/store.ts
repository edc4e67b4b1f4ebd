import { randomUUID } from "node:crypto";
import type { Identity } from "../identity/store";
import type { Db, Migration } from "../types";

/**
 * The site's member privacy (docs/platform/member-privacy.md): the privacy a new member starts
 * with, who may see public profiles, and whether anyone may have one. One row per setting, each
 * with its own id and revision; a setting never set reads as its default at revision 0.
 */

export type Privacy = Identity["privacyStatus"];
export type PublicVisibility = "VISIBLE_TO_ALL" | "VISIBLE_TO_MEMBERS_ONLY";
export type PublicCandidates = "ANYONE" | "NO_ONE";

export type DefaultPrivacy = { id: string; defaultPrivacy: Privacy; revision: number };
export type PrivacySettings = {
  id: string;
  publicMemberVisibility: PublicVisibility;
  publicMemberCandidates: PublicCandidates;
  revision: number;
  updatedAt: number | null;
};

type Values = {
  "default-privacy": Pick<DefaultPrivacy, "defaultPrivacy">;
  settings: Pick<PrivacySettings, "publicMemberVisibility" | "publicMemberCandidates">;
};
type Name = keyof Values;

// What the platform did before these settings existed: new members private, public profiles seen by all.
const DEFAULTS: Values = {
  "default-privacy": { defaultPrivacy: "PRIVATE" },
  settings: { publicMemberVisibility: "VISIBLE_TO_ALL", publicMemberCandidates: "ANYONE" },
};

export const migrateMemberPrivacy: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_privacy (
      name TEXT PRIMARY KEY,
      id TEXT NOT NULL,
      value TEXT NOT NULL,
      revision INTEGER NOT NULL,
      updated_at INTEGER
    );
  `);
};

type Row = { id: string; value: string; revision: number; updated_at: number | null };

export class MemberPrivacyStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  defaultPrivacy(): DefaultPrivacy {
    const { id, value, revision } = this.read("default-privacy");
    return { id, ...value, revision };
  }

  settings(): PrivacySettings {
    const { id, value, revision, updatedAt } = this.read("settings");
    return { id, ...value, revision, updatedAt };
  }

  /** Writes the given values over the old ones if `revision` is the current one; "stale" otherwise. */
  setDefaultPrivacy(values: Partial<Values["default-privacy"]>, revision: number): DefaultPrivacy | "stale" {
    return this.write("default-privacy", values, revision) ? this.defaultPrivacy() : "stale";
  }

  setSettings(values: Partial<Values["settings"]>, revision: number): PrivacySettings | "stale" {
    return this.write("settings", values, revision) ? this.settings() : "stale";
  }

  /**
   * The privacy a new member starts with: private when no one may be public, else what they asked
   * for, else the site's default.
   */
  initialPrivacy(asked?: Privacy): Privacy {
    if (this.settings().publicMemberCandidates === "NO_ONE") return "PRIVATE";
    return asked ?? this.defaultPrivacy().defaultPrivacy;
  }

  /** A setting's row is made (with a new id, at revision 0) when it is first read, so its id never changes. */
  private read<N extends Name>(name: N): { id: string; value: Values[N]; revision: number; updatedAt: number | null } {
    this.db.prepare("INSERT OR IGNORE INTO member_privacy (name, id, value, revision) VALUES (?, ?, '{}', 0)").run(name, randomUUID());
    const row = this.db.prepare("SELECT id, value, revision, updated_at FROM member_privacy WHERE name = ?").get(name) as Row;
    return { id: row.id, value: { ...DEFAULTS[name], ...(JSON.parse(row.value) as Values[N]) }, revision: row.revision, updatedAt: row.updated_at };
  }

  /** Compare and set: nothing changes unless `revision` is still the current one. */
  private write<N extends Name>(name: N, values: Partial<Values[N]>, revision: number): boolean {
    const current = this.read(name);
    return (
      this.db
        .prepare("UPDATE member_privacy SET value = ?, revision = revision + 1, updated_at = ? WHERE name = ? AND revision = ?")
        .run(JSON.stringify({ ...current.value, ...values }), this.now(), name, revision).changes > 0
    );
  }
}
