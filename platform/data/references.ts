import type { Db } from "../types";

export type ReferenceOrder = "ASC" | "DESC";

/**
 * MULTI_REFERENCE relations, stored outside the items as links in creation order
 * (`position`), which is the order included and queried references come back in.
 */
export class ReferenceStore {
  constructor(private readonly db: Db) {}

  /** Adds links; a link that already exists is kept as it is (WDE0029 is reported by the caller when wanted). */
  insert(collectionId: string, field: string, referringId: string, targetCollectionId: string, referencedIds: string[]): number {
    const statement = this.db.prepare(
      "INSERT OR IGNORE INTO data_references (collection_id, field, referring_id, referenced_collection_id, referenced_id) VALUES (?, ?, ?, ?, ?)",
    );
    let added = 0;
    for (const referencedId of referencedIds) added += statement.run(collectionId, field, referringId, targetCollectionId, referencedId).changes;
    return added;
  }

  remove(collectionId: string, field: string, referringId: string, referencedId: string): boolean {
    return (
      this.db
        .prepare("DELETE FROM data_references WHERE collection_id = ? AND field = ? AND referring_id = ? AND referenced_id = ?")
        .run(collectionId, field, referringId, referencedId).changes > 0
    );
  }

  replace(collectionId: string, field: string, referringId: string, targetCollectionId: string, referencedIds: string[]): void {
    this.db.prepare("DELETE FROM data_references WHERE collection_id = ? AND field = ? AND referring_id = ?").run(collectionId, field, referringId);
    this.insert(collectionId, field, referringId, targetCollectionId, referencedIds);
  }

  exists(collectionId: string, field: string, referringId: string, referencedId: string): boolean {
    return !!this.db
      .prepare("SELECT 1 FROM data_references WHERE collection_id = ? AND field = ? AND referring_id = ? AND referenced_id = ?")
      .get(collectionId, field, referringId, referencedId);
  }

  /** Referenced ids of several referring items, in link order, with paging over the whole list. */
  list(
    collectionId: string,
    field: string,
    referringIds: string[],
    paging: { limit: number; offset: number; order?: ReferenceOrder },
  ): { links: { referringId: string; referencedId: string }[]; total: number } {
    if (referringIds.length === 0) return { links: [], total: 0 };
    // One JSON parameter holds the ids, so any number of them fits in one statement.
    const where = "collection_id = ? AND field = ? AND referring_id IN (SELECT value FROM json_each(?))";
    const params = [collectionId, field, JSON.stringify(referringIds)];
    const order = paging.order === "DESC" ? "DESC" : "ASC";
    const links = this.db
      .prepare(
        `SELECT referring_id AS referringId, referenced_id AS referencedId FROM data_references WHERE ${where} ORDER BY position ${order} LIMIT ? OFFSET ?`,
      )
      .all(...params, paging.limit, paging.offset) as { referringId: string; referencedId: string }[];
    const total = this.db
      .prepare(`SELECT count(*) FROM data_references WHERE ${where}`)
      .pluck()
      .get(...params) as number;
    return { links, total };
  }

  /** Forgets every link from or to an item. */
  clearItem(collectionId: string, id: string): void {
    this.db
      .prepare("DELETE FROM data_references WHERE (collection_id = ? AND referring_id = ?) OR (referenced_collection_id = ? AND referenced_id = ?)")
      .run(collectionId, id, collectionId, id);
  }

  /** Forgets every link of one field (the field is being deleted). */
  clearField(collectionId: string, field: string): void {
    this.db.prepare("DELETE FROM data_references WHERE collection_id = ? AND field = ?").run(collectionId, field);
  }

  clearCollection(collectionId: string): void {
    this.db.prepare("DELETE FROM data_references WHERE collection_id = ? OR referenced_collection_id = ?").run(collectionId, collectionId);
  }
}
