import type { Db, Migration } from "../types";

/** Which member blocks which: one row per pair, gone with either member (docs/platform/member-blocks.md). */
export const migrateMemberBlocks: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_blocks (
      blocking_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      blocked_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (blocking_id, blocked_id)
    );
    CREATE INDEX IF NOT EXISTS member_blocks_blocked ON member_blocks (blocked_id, created_at);
  `);
};

export class MemberBlockStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a block; false when it already exists. */
  block(blockingId: string, blockedId: string): boolean {
    return (
      this.db.prepare("INSERT OR IGNORE INTO member_blocks (blocking_id, blocked_id, created_at) VALUES (?, ?, ?)").run(blockingId, blockedId, this.now())
        .changes > 0
    );
  }

  /** Removes a block; false when there was none. */
  unblock(blockingId: string, blockedId: string): boolean {
    return this.db.prepare("DELETE FROM member_blocks WHERE blocking_id = ? AND blocked_id = ?").run(blockingId, blockedId).changes > 0;
  }

  /** The members one member blocks, oldest block first. */
  blockedBy(blockingId: string): string[] {
    return (
      this.db.prepare("SELECT blocked_id AS id FROM member_blocks WHERE blocking_id = ? ORDER BY created_at, rowid").all(blockingId) as { id: string }[]
    ).map((row) => row.id);
  }

  /** Every block a member is part of, either way, oldest first: `BLOCKING` when the other member blocks them. */
  involving(memberId: string): Array<{ memberId: string; blockDirection: "BLOCKING" | "BLOCKED" }> {
    const rows = this.db
      .prepare(
        `SELECT blocking_id AS other, 'BLOCKING' AS direction, created_at, rowid FROM member_blocks WHERE blocked_id = ?
         UNION ALL SELECT blocked_id AS other, 'BLOCKED' AS direction, created_at, rowid FROM member_blocks WHERE blocking_id = ?
         ORDER BY created_at, rowid`,
      )
      .all(memberId, memberId) as { other: string; direction: "BLOCKING" | "BLOCKED" }[];
    return rows.map((row) => ({ memberId: row.other, blockDirection: row.direction }));
  }
}
