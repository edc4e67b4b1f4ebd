import "server-only";
import { z } from "zod";
import type { ListState } from "@/lib/search-params";
import { collectionByRoute, fieldOf, type CollectionConfig } from "@/lib/site-config";
import { noteRenderDegraded } from "@/lib/cache/page-cache-signals";
import { TAGS, cachedRead } from "./cache";
import type { WixClient } from "./client";
import { PlatformUnavailableError } from "./errors";
import { toSiteItem, type SiteItem } from "./site-item";

export type ItemList = { items: SiteItem[]; total: number; page: number; pageCount: number };

/** A "load more" list: the items so far, whether another batch follows, and how many there are in all. */
export type ItemFeed = { items: SiteItem[]; hasMore: boolean; total: number };

/** A query's filter in the platform's own form (`{ field: { $gt: 1 } }`, `$and`, `$or`). */
type Filter = Record<string, unknown>;
type Order = "asc" | "desc";

/** Reference fields, so one query brings the referenced items along (a trail's region, a story's trails). */
function referenceFields(collection: CollectionConfig): string[] {
  return collection.fields.filter((field) => field.type === "REFERENCE" || field.type === "MULTI_REFERENCE").map((field) => field.key);
}

/**
 * The cache tags of reads from a collection: its own, and those of every collection its items
 * show (references resolved in the query, related items), so a change to any of them shows. A
 * search through a reference looks in a collection among these, so renaming a region drops the
 * searches that found, or missed, its trails by the old name.
 */
function tagsOf(collection: CollectionConfig): string[] {
  const routes = [...collection.fields.flatMap((field) => (field.references ? [field.references] : [])), ...collection.related.map((related) => related.from)];
  const ids = routes.flatMap((route) => collectionByRoute(route)?.collectionId ?? []);
  return [...new Set([collection.collectionId, ...ids])].map(TAGS.collection);
}

/**
 * A query's conditions, and the one every list adds: items marked members-only in a public
 * collection never leave the platform. A members-only collection (read with the member's own
 * session) has no such mark, so its filter is the conditions alone.
 */
function shownItemsFilter(collection: CollectionConfig, ...conditions: Filter[]): Filter {
  const all = [...(collection.membersOnlyField ? [{ [collection.membersOnlyField]: { $ne: true } }] : []), ...conditions];
  return all.length === 0 ? {} : all.length === 1 ? all[0] : { $and: all };
}

/** The id breaks ties, so pages never overlap or skip items. */
function sortBy(field: string, order: Order) {
  const direction = order === "asc" ? ("ASC" as const) : ("DESC" as const);
  return [
    { fieldName: field, order: direction },
    { fieldName: "_id", order: direction },
  ];
}

/** A DATE field holds "YYYY-MM-DD" text; a DATETIME field an instant, written `{ $date }` on the wire. */
function rangeValue(type: "NUMBER" | "DATE" | "DATETIME", value: number | string, end: boolean): number | string | { $date: string } {
  if (type !== "DATETIME" || typeof value === "number") return value;
  return { $date: `${value}T${end ? "23:59:59.999" : "00:00:00.000"}Z` };
}

/** Most referenced items one search looks through (a search naming more regions than this finds the trails of the first ones). */
const MAX_SEARCHED_REFERENCES = 100;

const anyOf = (conditions: Filter[]): Filter => (conditions.length === 1 ? conditions[0] : { $or: conditions });

/**
 * The search box's condition: the words in one of the item's own search fields, or in a field of
 * an item it references. The platform filters by a reference's id, not by the referenced item's
 * fields, so the referenced items holding the words are found first (with the same public client,
 * inside the same cached read) and their ids matched.
 */
async function searchCondition(client: WixClient, collection: CollectionConfig, query: string): Promise<Filter | undefined> {
  if (!query || collection.searchFields.length === 0) return undefined;
  const branches = await Promise.all(
    collection.searchFields.map(async (field): Promise<Filter[]> => {
      if (typeof field === "string") return [{ [field]: { $contains: query } }];
      const target = collectionByRoute(fieldOf(collection, field.through)?.references ?? "");
      if (!target) return [];
      const found = await client.items.query(target.collectionId, {
        filter: shownItemsFilter(target, anyOf(field.fields.map((key) => ({ [key]: { $contains: query } })))),
        fields: ["_id"],
        paging: { limit: MAX_SEARCHED_REFERENCES, offset: 0 },
      });
      const ids = found.items.flatMap((item) => (typeof item._id === "string" ? [item._id] : []));
      return ids.length ? [{ [field.through]: { $hasSome: ids } }] : [];
    }),
  );
  // Only reference searches, none of which found anything: an empty `$in` matches no item.
  return branches.flat().length ? anyOf(branches.flat()) : { _id: { $in: [] } };
}

/** A list state's search and filters as conditions. */
async function stateConditions(client: WixClient, collection: CollectionConfig, state: ListState): Promise<Filter[]> {
  const search = await searchCondition(client, collection, state.query);
  const conditions: Filter[] = search ? [search] : [];
  for (const filter of state.filters) {
    if (filter.kind === "values") conditions.push({ [filter.field]: { $hasSome: filter.values } });
    else if (filter.kind === "yes-no") conditions.push({ [filter.field]: filter.value });
    else {
      const bounds: Filter = {};
      if (filter.from !== undefined) bounds.$gte = rangeValue(filter.type, filter.from, false);
      if (filter.to !== undefined) bounds.$lte = rangeValue(filter.type, filter.to, true);
      conditions.push({ [filter.field]: bounds });
    }
  }
  return conditions;
}

/** A page by position, with the query's filter and sort; or the page after one, by the cursor its reply handed back (which holds them). */
type QueryRequest =
  { paging: { limit: number; offset: number }; filter?: Filter; sort?: ReturnType<typeof sortBy> } | { cursorPaging: { limit: number; cursor: string } };

/** One query of a collection's public items, references included. */
async function find(client: WixClient, collection: CollectionConfig, request: QueryRequest, returnTotalCount = false) {
  const includeReferences = referenceFields(collection).map((field) => ({ field }));
  return client.items.query(collection.collectionId, request, { ...(includeReferences.length && { includeReferences }), returnTotalCount });
}

const toSiteItems = (collection: CollectionConfig, items: unknown[]) => items.flatMap((item) => toSiteItem(collection, item) ?? []);

/** One page of a collection's public items, with the total for numbered pages. */
export async function listItems(collection: CollectionConfig, state: ListState): Promise<ItemList> {
  // Reshaped before it is cached (as every read here): a view of a cached list only copies it. The key names what is kept.
  const result = await cachedRead(["list-items", collection.route, JSON.stringify(state)], tagsOf(collection), async (client) => {
    const found = await find(
      client,
      collection,
      {
        filter: shownItemsFilter(collection, ...(await stateConditions(client, collection, state))),
        sort: sortBy(state.sort.field, state.sort.order),
        paging: { limit: state.pageSize, offset: (state.page - 1) * state.pageSize },
      },
      true,
    );
    return { items: toSiteItems(collection, found.items), total: found.pagingMetadata?.total ?? 0 };
  });
  return {
    items: result.items,
    total: result.total,
    page: state.page,
    pageCount: Math.max(1, Math.ceil(result.total / state.pageSize)),
  };
}

/** Items read per request of a "load more" list: at most the platform's cursor page size, as requests after the first go by cursor. */
const FEED_PAGE_LIMIT = 100;

/**
 * The first `count` items of a list state, and how many there are in all, read through the SDK's
 * query in pages: the first with the list's filter and sort, each later one with the cursor the
 * previous reply handed back (`cursorPaging`), which carries the filter, sort and position itself.
 */
async function feedRange(client: WixClient, collection: CollectionConfig, state: ListState, count: number) {
  const items: unknown[] = [];
  const limit = () => Math.min(count - items.length, FEED_PAGE_LIMIT);
  let found = await find(
    client,
    collection,
    {
      filter: shownItemsFilter(collection, ...(await stateConditions(client, collection, state))),
      sort: sortBy(state.sort.field, state.sort.order),
      paging: { limit: limit(), offset: 0 },
    },
    true,
  );
  const total = found.pagingMetadata?.total ?? 0;
  items.push(...found.items);
  let cursor = found.pagingMetadata?.cursors?.next;
  while (cursor && items.length < count) {
    found = await find(client, collection, { cursorPaging: { limit: limit(), cursor } });
    items.push(...found.items);
    cursor = found.pagingMetadata?.cursors?.next;
  }
  return { items, hasMore: found.pagingMetadata?.hasNext === true, total };
}

/** The first `state.page` batches of a "load more" list, whether there is a batch after them, and the total. */
export async function feedItems(collection: CollectionConfig, state: ListState): Promise<ItemFeed> {
  return cachedRead(["feed-items", collection.route, JSON.stringify(state)], tagsOf(collection), async (client) => {
    const { items, hasMore, total } = await feedRange(client, collection, state, state.page * state.pageSize);
    return { items: toSiteItems(collection, items), hasMore, total };
  });
}

/** The first items in the collection's default order (for the home page). */
export async function firstItems(collection: CollectionConfig, count: number): Promise<SiteItem[]> {
  const state: ListState = { page: 1, query: "", sort: collection.sorts[0], pageSize: count, filters: [] };
  return (await listItems(collection, state)).items;
}

export type ItemPage = {
  item: SiteItem;
  previous?: SiteItem;
  next?: SiteItem;
  related: { title: string; collection: CollectionConfig; items: SiteItem[] }[];
};

const referencedId = z
  .union([z.string(), z.object({ _id: z.string() }).transform((item) => item._id)])
  .optional()
  .catch(undefined);

/** Neighbours in the collection's default order, ties broken by id as in the list. */
async function neighbour(client: WixClient, collection: CollectionConfig, raw: Record<string, unknown>, direction: "previous" | "next") {
  const { field, order } = collection.sorts[0];
  const value = raw[field];
  if (value === undefined || value === null) return undefined;
  const forward = (direction === "next") === (order === "asc");
  const beyond = forward ? "$gt" : "$lt";
  const after = { $or: [{ [field]: { [beyond]: value } }, { [field]: value, _id: { [beyond]: raw._id } }] };
  const found = await find(client, collection, {
    filter: shownItemsFilter(collection, after),
    sort: sortBy(field, forward ? "asc" : "desc"),
    paging: { limit: 1, offset: 0 },
  });
  return toSiteItems(collection, found.items)[0];
}

async function relatedItems(client: WixClient, raw: Record<string, unknown>, related: CollectionConfig["related"][number]) {
  const from = collectionByRoute(related.from);
  const target = related.match === "this-item" ? (raw._id as string) : referencedId.parse(raw[related.field]);
  if (!from || !target) return [];
  const conditions: Filter[] = [{ [related.field]: target }, ...(related.match === "same-value" ? [{ _id: { $ne: raw._id } }] : [])];
  const found = await find(client, from, {
    filter: shownItemsFilter(from, ...conditions),
    sort: sortBy(from.sorts[0].field, "asc"),
    paging: { limit: 6, offset: 0 },
  });
  return [{ title: related.title, collection: from, items: toSiteItems(from, found.items) }];
}

/** An item by its slug with its references resolved, neighbours and related items; null for an unknown slug. */
export async function itemBySlug(collection: CollectionConfig, slug: string): Promise<ItemPage | null> {
  const page = await cachedRead(["item", collection.route, slug], tagsOf(collection), async (client) => {
    const result = await find(client, collection, { filter: shownItemsFilter(collection, { [collection.slugField]: slug }), paging: { limit: 1, offset: 0 } });
    const raw = result.items[0] as Record<string, unknown> | undefined;
    const item = raw && toSiteItem(collection, raw);
    if (!raw || !item) return null;
    const [previous, next, ...related] = await Promise.all([
      neighbour(client, collection, raw, "previous"),
      neighbour(client, collection, raw, "next"),
      ...collection.related.map((entry) => relatedItems(client, raw, entry)),
    ]);
    return { item, previous, next, related: related.flat().filter((group) => group.items.length > 0) };
  });
  // Stored as JSON: the collection configs in the related groups are put back as the site's own.
  return page && { ...page, related: page.related.map((group) => ({ ...group, collection: collectionByRoute(group.collection.route) ?? group.collection })) };
}

/**
 * The first items of a collection only members may read (those meeting `conditions`, when
 * given), with the member's own client: the answer depends on who asks, so it is never cached
 * or shared.
 */
export async function memberItems(client: WixClient, collection: CollectionConfig, count: number, conditions: Filter[] = []): Promise<SiteItem[]> {
  const { field, order } = collection.sorts[0];
  const filter = shownItemsFilter(collection, ...conditions);
  const found = await find(client, collection, { filter, sort: sortBy(field, order), paging: { limit: count, offset: 0 } });
  return toSiteItems(collection, found.items);
}

/** Every public item's slug, for the sitemap. */
export async function allSlugs(collection: CollectionConfig): Promise<string[]> {
  return cachedRead(["item-slugs", collection.route], tagsOf(collection), async (client) =>
    toSiteItems(collection, (await find(client, collection, { filter: shownItemsFilter(collection), paging: { limit: 1000, offset: 0 } })).items).map(
      (item) => item.slug,
    ),
  );
}

/** A read's answer, or word that the platform could not be reached (apart from any answer, null included). */
export type Reachable<T> = { reachable: true; value: T } | { reachable: false };

/** Runs a read; when the platform cannot be reached, says so instead of throwing, so the page can say so plainly. */
export async function whenAvailable<T>(read: () => Promise<T>): Promise<Reachable<T>> {
  try {
    return { reachable: true, value: await read() };
  } catch (error) {
    if (error instanceof PlatformUnavailableError) {
      noteRenderDegraded();
      return { reachable: false };
    }
    throw error;
  }
}
