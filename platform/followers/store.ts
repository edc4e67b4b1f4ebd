import type { Db, Migration } from "../types";

/** Who follows whom: one row per pair, gone with either member (docs/platform/followers.md). */
export const migrateFollowers: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_follows (
      follower_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      followed_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (follower_id, followed_id)
    );
    CREATE INDEX IF NOT EXISTS member_follows_followed ON member_follows (followed_id, created_at);
  `);
};

/** Which side of the pairs a list reads: the members someone follows, or their followers. */
export type FollowDirection = "following" | "followers";

export class FollowerStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records that one member follows another; following twice changes nothing. */
  follow(followerId: string, followedId: string): void {
    this.db.prepare("INSERT OR IGNORE INTO member_follows (follower_id, followed_id, created_at) VALUES (?, ?, ?)").run(followerId, followedId, this.now());
  }

  unfollow(followerId: string, followedId: string): void {
    this.db.prepare("DELETE FROM member_follows WHERE follower_id = ? AND followed_id = ?").run(followerId, followedId);
  }

  /** Every member on the other side of a member's pairs, oldest follow first. */
  list(memberId: string, direction: FollowDirection): string[] {
    const sql =
      direction === "following"
        ? "SELECT followed_id AS id FROM member_follows WHERE follower_id = ? ORDER BY created_at, rowid"
        : "SELECT follower_id AS id FROM member_follows WHERE followed_id = ? ORDER BY created_at, rowid";
    return (this.db.prepare(sql).all(memberId) as { id: string }[]).map((row) => row.id);
  }

  /** Whether the first member follows the second. */
  follows(followerId: string, followedId: string): boolean {
    return this.db.prepare("SELECT 1 FROM member_follows WHERE follower_id = ? AND followed_id = ?").get(followerId, followedId) !== undefined;
  }
}
