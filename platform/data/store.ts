import { createHash, randomUUID } from "node:crypto";
import type { Statement } from "better-sqlite3";
import type { Db, Migration } from "../types";
import { collectionAlreadyExists, collectionNotFound, itemAlreadyExists, itemNotFound, staleRevision, uniqueIndexViolation } from "./errors";
import { IndexStore } from "./indexes";
import type { CollectionDefinition, CollectionPermissions, StoredCollection } from "./collection";
import { PublishScheduleStore } from "./publish-schedules";
import { publishPlugin, publishStatusFilter, PUBLISH_STATUS_FIELD } from "./publishing";
import type { ReadScope } from "./permissions";
import {
  compileFilter,
  compileSearch,
  compileSort,
  fieldIndexExpressions,
  jsonPath,
  SEEDED_RANK_FUNCTION,
  type SortSpec,
  type SqlFragment,
} from "./query-compiler";
import { DraftPairStore } from "./draft-items";
import { ReferenceStore } from "./references";
import { TrashStore } from "./trash";
import { SpecialPermissionStore } from "./special-permissions";
import { registerDataFunctions } from "./sql-functions";
import { dateValue, toWireItem, type ItemData, type StoredItem, type WireDataItem } from "./wire";

export const migrateData: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS data_collections (
      id TEXT PRIMARY KEY,
      doc TEXT NOT NULL,
      revision INTEGER NOT NULL DEFAULT 1,
      created_date TEXT NOT NULL,
      updated_date TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS data_items (
      collection_id TEXT NOT NULL REFERENCES data_collections (id) ON DELETE CASCADE,
      id TEXT NOT NULL,
      data TEXT NOT NULL,
      owner TEXT,
      created_date TEXT NOT NULL,
      updated_date TEXT NOT NULL,
      PRIMARY KEY (collection_id, id)
    );
    CREATE INDEX IF NOT EXISTS data_items_created ON data_items (collection_id, created_date, id);
    CREATE INDEX IF NOT EXISTS data_items_updated ON data_items (collection_id, updated_date, id);
    CREATE INDEX IF NOT EXISTS data_items_owner ON data_items (collection_id, owner);
    CREATE TABLE IF NOT EXISTS data_references (
      position INTEGER PRIMARY KEY AUTOINCREMENT,
      collection_id TEXT NOT NULL REFERENCES data_collections (id) ON DELETE CASCADE,
      field TEXT NOT NULL,
      referring_id TEXT NOT NULL,
      referenced_collection_id TEXT NOT NULL,
      referenced_id TEXT NOT NULL,
      UNIQUE (collection_id, field, referring_id, referenced_id)
    );
    CREATE INDEX IF NOT EXISTS data_references_target ON data_references (referenced_collection_id, referenced_id);
    CREATE TABLE IF NOT EXISTS data_async_jobs (
      id TEXT PRIMARY KEY,
      collection_id TEXT NOT NULL,
      status TEXT NOT NULL,
      success_count INTEGER NOT NULL DEFAULT 0,
      created_date TEXT NOT NULL,
      updated_date TEXT NOT NULL
    );
  `);
  // A job that was running when the platform stopped will not finish.
  db.prepare("UPDATE data_async_jobs SET status = 'FAILED' WHERE status IN ('INITIALIZED', 'PROCESSING')").run();
};

/** Field types whose values are scalars (or arrays of scalars) worth an equality/range index. */
const INDEXED_TYPES = new Set([
  "TEXT",
  "NUMBER",
  "BOOLEAN",
  "DATE",
  "DATETIME",
  "TIME",
  "URL",
  "REFERENCE",
  "ARRAY_STRING",
  "LANGUAGE",
  "SLUG",
  "EMAIL",
  "IMAGE",
]);

export type ItemQuery = {
  filter?: unknown;
  sort?: SortSpec[];
  fields?: string[];
  limit: number;
  offset: number;
  countTotal: boolean;
  /** Rows the caller may see (owner scoping); ANDed to the filter. */
  visibility?: ReadScope;
  /** A search expression, ANDed to the filter. */
  search?: { expression?: string; mode?: "AND" | "OR" };
  /** Random order (`sortMode: RANDOM`): the seed fixes the order, and `sort` is ignored. */
  randomSeed?: number;
  /** Draft items too, in a collection with the Publish plugin (they are left out otherwise). */
  includeDrafts?: boolean;
};

/** What selects the rows of a query, apart from order and paging. */
export type ItemSelection = Pick<ItemQuery, "filter" | "visibility" | "search" | "includeDrafts">;

/** Where an export has got to: the creation date and id of the last item read. */
export type ItemPosition = { createdDate: string; id: string };

export type AsyncJobStatus = "INITIALIZED" | "PROCESSING" | "SUCCEEDED" | "FAILED";

export type QueryPage = { items: WireDataItem[]; total?: number; hasNext: boolean };

const DEFAULT_SORT: SortSpec[] = [{ fieldName: "_createdDate", order: "DESC" }];

/** Prepared statements are reused; distinct filter shapes are few in practice, and the cache is bounded. */
const STATEMENT_CACHE_SIZE = 500;

export class DataStore {
  readonly references: ReferenceStore;
  readonly indexes: IndexStore;
  readonly schedules: PublishScheduleStore;
  readonly specialPermissions: SpecialPermissionStore;
  readonly draftPairs: DraftPairStore;
  readonly trash: TrashStore;
  private readonly statements = new Map<string, Statement>();

  constructor(
    readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    registerDataFunctions(db);
    this.references = new ReferenceStore(db);
    this.indexes = new IndexStore(db, now);
    this.schedules = new PublishScheduleStore(db);
    this.specialPermissions = new SpecialPermissionStore(db);
    this.draftPairs = new DraftPairStore(db);
    this.trash = new TrashStore(db, now);
  }

  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.clear();
      this.statements.set(sql, (statement = this.db.prepare(sql)));
    }
    return statement;
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  // Collections

  createCollection(definition: CollectionDefinition): StoredCollection {
    if (this.findCollection(definition.id)) throw collectionAlreadyExists(definition.id);
    const stamp = this.now().toISOString();
    this.statement("INSERT INTO data_collections (id, doc, revision, created_date, updated_date) VALUES (?, ?, 1, ?, ?)").run(
      definition.id,
      JSON.stringify(definition),
      stamp,
      stamp,
    );
    this.indexFields(definition);
    return this.getCollection(definition.id);
  }

  /** Full replace of a collection's definition; a given revision must match the stored one (WDE0178). */
  updateCollection(definition: CollectionDefinition, revision?: number): StoredCollection {
    const current = this.getCollection(definition.id);
    if (revision !== undefined && revision !== current.revision) throw staleRevision(revision, current.revision);
    this.statement("UPDATE data_collections SET doc = ?, revision = revision + 1, updated_date = ? WHERE id = ?").run(
      JSON.stringify(definition),
      this.now().toISOString(),
      definition.id,
    );
    this.indexFields(definition);
    return this.getCollection(definition.id);
  }

  /** The permissions API's change of a collection's levels: a new revision, the rest of the definition as it was. */
  setPermissions(id: string, permissions: CollectionPermissions): StoredCollection {
    this.getCollection(id);
    this.statement("UPDATE data_collections SET doc = json_set(doc, '$.permissions', json(?)), revision = revision + 1, updated_date = ? WHERE id = ?").run(
      JSON.stringify(permissions),
      this.now().toISOString(),
      id,
    );
    return this.getCollection(id);
  }

  deleteCollection(id: string): void {
    this.transaction(() => {
      this.truncate(id);
      this.indexes.dropAll(id);
      this.specialPermissions.clear(id);
      this.statement("DELETE FROM data_collections WHERE id = ?").run(id);
    });
  }

  findCollection(id: string): StoredCollection | undefined {
    const row = this.statement("SELECT doc, revision, created_date, updated_date FROM data_collections WHERE id = ?").get(id) as
      { doc: string; revision: number; created_date: string; updated_date: string } | undefined;
    if (!row) return undefined;
    return {
      ...(JSON.parse(row.doc) as CollectionDefinition),
      revision: row.revision,
      createdDate: row.created_date,
      updatedDate: row.updated_date,
      specialPermissions: this.specialPermissions.list(id),
      draftItems: this.draftItemsOf(id),
    };
  }

  private draftItemsOf(id: string): StoredCollection["draftItems"] {
    const draftsCollectionId = this.draftPairs.draftsOf(id);
    if (draftsCollectionId) return { draftsCollectionId };
    const publishedCollectionId = this.draftPairs.publishedOf(id);
    return publishedCollectionId ? { publishedCollectionId } : undefined;
  }

  getCollection(id: string): StoredCollection {
    const collection = this.findCollection(id);
    if (!collection) throw collectionNotFound(id);
    return collection;
  }

  listCollections(): StoredCollection[] {
    const ids = this.statement("SELECT id FROM data_collections ORDER BY id").pluck().all() as string[];
    return ids.map((id) => this.getCollection(id));
  }

  countCollections(): number {
    return this.statement("SELECT count(*) FROM data_collections").pluck().get() as number;
  }

  /**
   * Declared scalar fields get a (collection_id, json_type, json_extract) index, which answers
   * type-strict equality and range filters by seeking. Undeclared fields are still queryable,
   * by scanning the collection in SQL.
   */
  indexFields(definition: CollectionDefinition): void {
    for (const field of definition.fields) {
      if (!INDEXED_TYPES.has(field.type)) continue;
      const [type, value] = fieldIndexExpressions(field.key, field.type === "DATETIME");
      const name = `data_items_field_${createHash("sha1")
        .update(`${field.type === "DATETIME"}:${field.key}`)
        .digest("hex")
        .slice(0, 16)}`;
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON data_items (collection_id, ${type}, ${value})`);
    }
  }

  // Items

  findItem(collectionId: string, id: string): ItemData | undefined {
    const row = this.statement("SELECT data FROM data_items WHERE collection_id = ? AND id = ?").pluck().get(collectionId, id) as string | undefined;
    return row === undefined ? undefined : (JSON.parse(row) as ItemData);
  }

  getItem(collectionId: string, id: string): ItemData {
    const item = this.findItem(collectionId, id);
    if (!item) throw itemNotFound(collectionId, id);
    return item;
  }

  /**
   * Inserts an item, stamping the system fields. `keepDates` is for seeding and imports, which
   * carry their own `_createdDate`/`_updatedDate`; callers over HTTP never get it.
   */
  insertItem(collectionId: string, data: ItemData, owner: string | null, keepDates = false): ItemData {
    const id = typeof data._id === "string" ? data._id : randomUUID();
    const now = dateValue(this.now());
    const created = keepDates && isDate(data._createdDate) ? data._createdDate : now;
    const updated = keepDates && isDate(data._updatedDate) ? data._updatedDate : created;
    const stored: ItemData = { ...data, _id: id, _createdDate: created, _updatedDate: updated };
    if (owner === null) delete stored._owner;
    else stored._owner = owner;
    try {
      this.statement("INSERT INTO data_items (collection_id, id, data, owner, created_date, updated_date) VALUES (?, ?, ?, ?, ?, ?)").run(
        collectionId,
        id,
        JSON.stringify(stored),
        owner,
        created.$date,
        updated.$date,
      );
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") throw itemAlreadyExists(collectionId, id);
      throw uniqueViolationOr(error, collectionId, id);
    }
    return stored;
  }

  /** Replaces an item's content; `_createdDate` and `_owner` stay, `_updatedDate` moves to now. */
  replaceItem(collectionId: string, id: string, data: ItemData, owner?: string | null): ItemData {
    const current = this.getItem(collectionId, id);
    const updated = dateValue(this.now());
    const stored: ItemData = { ...data, _id: id, _createdDate: current._createdDate, _updatedDate: updated };
    const nextOwner = owner === undefined ? ((current._owner as string | undefined) ?? null) : owner;
    if (nextOwner === null) delete stored._owner;
    else stored._owner = nextOwner;
    try {
      this.statement("UPDATE data_items SET data = ?, owner = ?, updated_date = ? WHERE collection_id = ? AND id = ?").run(
        JSON.stringify(stored),
        nextOwner,
        updated.$date,
        collectionId,
        id,
      );
    } catch (error) {
      throw uniqueViolationOr(error, collectionId, id);
    }
    return stored;
  }

  /** Removes an item and every reference to it (multi-reference links and single reference values). */
  removeItem(collectionId: string, id: string): ItemData {
    const item = this.getItem(collectionId, id);
    this.statement("DELETE FROM data_items WHERE collection_id = ? AND id = ?").run(collectionId, id);
    this.references.clearItem(collectionId, id);
    this.clearSingleReferences(collectionId, { sql: "?", params: [id] });
    this.schedules.cancel(collectionId, id);
    return item;
  }

  truncate(collectionId: string): void {
    this.clearSingleReferences(collectionId, { sql: "SELECT id FROM data_items WHERE collection_id = ?", params: [collectionId] });
    this.references.clearCollection(collectionId);
    this.schedules.cancelCollection(collectionId);
    this.statement("DELETE FROM data_items WHERE collection_id = ?").run(collectionId);
  }

  /** Removes one field's values from every item of a collection (the field is deleted from its schema). */
  removeFieldValues(collectionId: string, fieldKey: string): void {
    const path = jsonPath(fieldKey);
    this.statement(`UPDATE data_items SET data = json_remove(data, '${path}') WHERE collection_id = ? AND json_type(data, '${path}') IS NOT NULL`).run(
      collectionId,
    );
  }

  /** Removes REFERENCE values in other items that point at the given ids of `collectionId`. */
  private clearSingleReferences(collectionId: string, ids: SqlFragment): void {
    for (const collection of this.listCollections()) {
      for (const field of collection.fields) {
        const target = (field.typeMetadata?.reference as { referencedCollectionId?: string } | undefined)?.referencedCollectionId;
        if (field.type !== "REFERENCE" || target !== collectionId) continue;
        const path = jsonPath(field.key);
        this.statement(
          `UPDATE data_items SET data = json_remove(data, '${path}') WHERE collection_id = ? AND json_extract(data, '${path}') IN (${ids.sql})`,
        ).run(collection.id, ...ids.params);
      }
    }
  }

  private where(collectionId: string, query: ItemSelection): SqlFragment {
    const scope: SqlFragment = { sql: "collection_id = ?", params: [collectionId] };
    const collection = this.getCollection(collectionId);
    const multiReferenceFields = collection.fields.filter((f) => f.type === "MULTI_REFERENCE").map((f) => f.key);
    const publishing = publishPlugin(collection) !== undefined;
    const filter = compileFilter(publishing ? publishStatusFilter(query.filter) : query.filter, { scope, systemColumns: true, multiReferenceFields });
    const visibility: SqlFragment | undefined =
      query.visibility && (query.visibility.ownerId === null ? { sql: "0", params: [] } : { sql: "owner = ?", params: [query.visibility.ownerId] });
    const search = query.search && compileSearch(query.search.expression, query.search.mode);
    const published: SqlFragment | undefined =
      publishing && !query.includeDrafts ? { sql: `json_extract(data, '${jsonPath(PUBLISH_STATUS_FIELD)}') IS NOT 'DRAFT'`, params: [] } : undefined;
    // A filter that implies the scope in every branch must not get it again at the top level:
    // SQLite would then seek by collection alone instead of by the field indexes.
    const parts = [filter.scoped ? undefined : scope, filter, visibility, search, published].filter((part): part is SqlFragment => part !== undefined);
    return { sql: parts.map((part) => `(${part.sql})`).join(" AND "), params: parts.flatMap((part) => part.params) };
  }

  query(collectionId: string, query: ItemQuery): QueryPage {
    const where = this.where(collectionId, query);
    const sort = query.sort && query.sort.length > 0 ? query.sort : DEFAULT_SORT;
    const lastOrder = String(sort[sort.length - 1].order ?? "ASC").toUpperCase() === "DESC" ? "DESC" : "ASC";
    const orderBy: SqlFragment =
      query.randomSeed === undefined
        ? { sql: compileSort(sort, { systemColumns: true, tieBreaker: `id ${lastOrder}` }), params: [] }
        : { sql: `${SEEDED_RANK_FUNCTION}(?, id), id`, params: [query.randomSeed] };
    const rows = this.statement(`SELECT collection_id, id, data FROM data_items WHERE ${where.sql} ORDER BY ${orderBy.sql} LIMIT ? OFFSET ?`).all(
      ...where.params,
      ...orderBy.params,
      query.limit + 1,
      query.offset,
    ) as StoredItem[];
    return {
      items: rows.slice(0, query.limit).map((row) => toWireItem(row, query.fields)),
      total: query.countTotal ? this.count(collectionId, query) : undefined,
      hasNext: rows.length > query.limit,
    };
  }

  count(collectionId: string, query: ItemSelection): number {
    const where = this.where(collectionId, query);
    return this.statement(`SELECT count(*) FROM data_items WHERE ${where.sql}`)
      .pluck()
      .get(...where.params) as number;
  }

  /** The matching rows as a relation `(data)`, the input of aggregations and distinct. */
  matchingData(collectionId: string, query: ItemSelection): SqlFragment {
    const where = this.where(collectionId, query);
    return { sql: `SELECT data FROM data_items WHERE ${where.sql}`, params: where.params };
  }

  /** Runs a compiled `SELECT data …` over result rows (aggregations, distinct, pipelines). */
  resultRows(select: SqlFragment): Record<string, unknown>[] {
    return (
      this.statement(select.sql)
        .pluck()
        .all(...select.params) as string[]
    ).map((text) => JSON.parse(text) as Record<string, unknown>);
  }

  /** Items across all collections. */
  countItems(): number {
    return this.statement("SELECT count(*) FROM data_items").pluck().get() as number;
  }

  /** Runs a compiled `SELECT count(*) …`. */
  resultCount(count: SqlFragment): number {
    return this.statement(count.sql)
      .pluck()
      .get(...count.params) as number;
  }

  /** Ids of matching items after `afterId`, in id order: the batches of background jobs. */
  matchingIds(collectionId: string, query: ItemSelection, afterId: string | null, limit: number): string[] {
    const where = this.where(collectionId, query);
    return this.statement(`SELECT id FROM data_items WHERE ${where.sql} AND id > ? ORDER BY id LIMIT ?`)
      .pluck()
      .all(...where.params, afterId ?? "", limit) as string[];
  }

  // Async jobs (remove and patch by filter)

  createAsyncJob(collectionId: string): string {
    const id = randomUUID();
    const stamp = this.now().toISOString();
    this.statement("INSERT INTO data_async_jobs (id, collection_id, status, created_date, updated_date) VALUES (?, ?, 'INITIALIZED', ?, ?)").run(
      id,
      collectionId,
      stamp,
      stamp,
    );
    return id;
  }

  updateAsyncJob(id: string, status: AsyncJobStatus, successCount: number): void {
    this.statement("UPDATE data_async_jobs SET status = ?, success_count = ?, updated_date = ? WHERE id = ?").run(
      status,
      successCount,
      this.now().toISOString(),
      id,
    );
  }

  findAsyncJob(id: string): { status: AsyncJobStatus; successCount: number } | undefined {
    return this.statement("SELECT status, success_count AS successCount FROM data_async_jobs WHERE id = ?").get(id) as
      { status: AsyncJobStatus; successCount: number } | undefined;
  }

  /** Matching items in creation order after a position (`_createdDate` and `_id` of the last one read): the batches of exports. */
  itemsAfter(collectionId: string, query: ItemSelection, after: ItemPosition | null, limit: number): ItemData[] {
    const where = this.where(collectionId, query);
    const position = after ? { sql: "AND (created_date, id) > (?, ?)", params: [after.createdDate, after.id] } : { sql: "", params: [] };
    return (
      this.statement(`SELECT data FROM data_items WHERE ${where.sql} ${position.sql} ORDER BY created_date, id LIMIT ?`)
        .pluck()
        .all(...where.params, ...position.params, limit) as string[]
    ).map((text) => JSON.parse(text) as ItemData);
  }
}

/** A unique index refusing a write becomes the platform's WDE0123; any other error passes through. */
function uniqueViolationOr(error: unknown, collectionId: string, id: string): unknown {
  return (error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE" ? uniqueIndexViolation(collectionId, id) : error;
}

function isDate(value: unknown): value is { $date: string } {
  return !!value && typeof value === "object" && typeof (value as { $date?: unknown }).$date === "string";
}
