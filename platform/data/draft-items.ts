import type { Db, Migration } from "../types";

/**
 * The Draft Items plugin's pairs (docs/platform/data.md §18): a published collection and the
 * drafts collection beside it (`Posts` and `Posts__drafts`), where a draft of an item is kept
 * under the same id while the published item stays live. Kept in a table of their own, not in
 * the collection's definition, so that updating either collection keeps the pair; deleting
 * either collection drops it.
 */
export const migrateDraftItems: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS data_draft_pairs (
      published_id TEXT PRIMARY KEY REFERENCES data_collections (id) ON DELETE CASCADE,
      drafts_id TEXT NOT NULL UNIQUE REFERENCES data_collections (id) ON DELETE CASCADE
    );
  `);
};

/** The drafts collection's id for a published collection, as Wix names it. */
export const draftsCollectionIdOf = (publishedId: string) => `${publishedId}__drafts`;

export class DraftPairStore {
  constructor(private readonly db: Db) {}

  /** The drafts collection paired with a published one, if it has the plugin. */
  draftsOf(publishedId: string): string | undefined {
    return this.db.prepare("SELECT drafts_id FROM data_draft_pairs WHERE published_id = ?").pluck().get(publishedId) as string | undefined;
  }

  /** The published collection a drafts collection belongs to, if it is one. */
  publishedOf(draftsId: string): string | undefined {
    return this.db.prepare("SELECT published_id FROM data_draft_pairs WHERE drafts_id = ?").pluck().get(draftsId) as string | undefined;
  }

  pair(publishedId: string, draftsId: string): void {
    this.db.prepare("INSERT INTO data_draft_pairs (published_id, drafts_id) VALUES (?, ?)").run(publishedId, draftsId);
  }
}
