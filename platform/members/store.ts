import type { Db, Migration } from "../types";
import type { Identity, IdentityChanges, IdentityStore, NewIdentity } from "../identity/store";

/** An image on a profile (photo or cover), as the members API carries it. */
export type ProfileImage = { id?: string; url?: string; height?: number; width?: number; offsetX?: number; offsetY?: number };

export type Address = {
  id?: string;
  addressLine?: string;
  addressLine2?: string;
  streetAddress?: { number?: string; name?: string; apt?: string };
  city?: string;
  subdivision?: string;
  country?: string;
  postalCode?: string;
};

export type CustomField = { name?: string; value?: unknown };

/**
 * The parts of a member's profile that are not part of the identity (docs/platform/members.md §2).
 * Login email, names, nickname, slug and statuses live only in the identity, so one edit shows in both.
 */
export type ProfileDetails = {
  photo?: ProfileImage;
  cover?: ProfileImage;
  title?: string;
  emails?: string[];
  phones?: string[];
  addresses?: Address[];
  birthdate?: string;
  company?: string;
  jobTitle?: string;
  customFields?: Record<string, CustomField>;
};

/** Whether a member may take part in the community (`MUTED`: the site owner silenced them). */
export type ActivityStatus = "ACTIVE" | "MUTED";

/** A member: the identity plus its profile details and activity status. */
export type Member = { identity: Identity; details: ProfileDetails; activityStatus: ActivityStatus };

export const migrateMembers: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_profiles (
      member_id TEXT PRIMARY KEY REFERENCES identities (id) ON DELETE CASCADE,
      details TEXT NOT NULL
    );
    -- A row per muted member (docs/platform/members.md §5): a table of its own, so muting needs no
    -- profile row and an older database gains it without a change to its tables.
    CREATE TABLE IF NOT EXISTS member_mutes (member_id TEXT PRIMARY KEY REFERENCES identities (id) ON DELETE CASCADE);
  `);
};

export class MemberStore {
  constructor(
    private readonly db: Db,
    private readonly identities: IdentityStore,
  ) {}

  get(id: string): Member | null {
    const identity = this.identities.get(id);
    if (!identity) return null;
    const muted = this.db.prepare("SELECT 1 FROM member_mutes WHERE member_id = ?").get(id) !== undefined;
    return { identity, details: this.detailsOf(id), activityStatus: muted ? "MUTED" : "ACTIVE" };
  }

  all(): Member[] {
    const rows = this.db.prepare("SELECT member_id, details FROM member_profiles").all() as { member_id: string; details: string }[];
    const details = new Map(rows.map((row) => [row.member_id, JSON.parse(row.details) as ProfileDetails]));
    const muted = new Set(this.db.prepare("SELECT member_id FROM member_mutes").pluck().all() as string[]);
    return this.identities.all().map((identity) => ({
      identity,
      details: details.get(identity.id) ?? {},
      activityStatus: muted.has(identity.id) ? "MUTED" : "ACTIVE",
    }));
  }

  /** Creates the identity and its details together; null when the login email is taken. */
  create(input: NewIdentity, details: ProfileDetails): Member | null {
    return this.db.transaction(() => {
      const identity = this.identities.create(input);
      if (!identity) return null;
      this.saveDetails(identity.id, details);
      return { identity, details, activityStatus: "ACTIVE" as const };
    })();
  }

  /** Applies identity changes and merges the given detail fields (each given field replaces the old one whole). */
  update(id: string, changes: IdentityChanges, details: ProfileDetails): Member | null {
    return this.db.transaction(() => {
      if (!this.identities.update(id, changes)) return null;
      if (Object.keys(details).length > 0) this.saveDetails(id, { ...this.detailsOf(id), ...details });
      return this.get(id);
    })();
  }

  /** Mutes or unmutes a member; null when there is no such member. */
  setActivityStatus(id: string, status: ActivityStatus): Member | null {
    if (!this.identities.get(id)) return null;
    if (status === "MUTED") this.db.prepare("INSERT OR IGNORE INTO member_mutes (member_id) VALUES (?)").run(id);
    else this.db.prepare("DELETE FROM member_mutes WHERE member_id = ?").run(id);
    return this.get(id);
  }

  /**
   * Empties one of the contact lists (an update cannot: it ignores an empty list); null when there is
   * no such member. An empty list is kept, not dropped: without a list of its own, `contact.emails`
   * shows the login e-mail, and Wix's `deleteMemberEmails` clears that one too.
   */
  clearList(id: string, list: "emails" | "phones" | "addresses"): Member | null {
    if (!this.identities.get(id)) return null;
    this.saveDetails(id, { ...this.detailsOf(id), [list]: [] });
    return this.get(id);
  }

  private detailsOf(id: string): ProfileDetails {
    const row = this.db.prepare("SELECT details FROM member_profiles WHERE member_id = ?").get(id) as { details: string } | undefined;
    return row ? (JSON.parse(row.details) as ProfileDetails) : {};
  }

  private saveDetails(id: string, details: ProfileDetails): void {
    this.db
      .prepare("INSERT INTO member_profiles (member_id, details) VALUES (?, ?) ON CONFLICT (member_id) DO UPDATE SET details = excluded.details")
      .run(id, JSON.stringify(details));
  }
}
