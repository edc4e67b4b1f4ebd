import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { pagingMetadata, resolvePage } from "../cursor";
import { readVisibility } from "../permissions";
import { FOLD_FUNCTION, type SortSpec, type SqlFragment } from "../query-compiler";
import type { ItemData } from "../wire";
import {
  authorise,
  booleanish,
  collectionId,
  cursorPagingSchema,
  filterSchema,
  includeReferencesSchema,
  pagingSchema,
  parseRequest,
  requestPayload,
  sortSchema,
  stringList,
  type DataServices,
} from "./common";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
/** The search endpoint's own default page size. */
const DEFAULT_SEARCH_PAGE_SIZE = 100;

const querySpec = z.object({
  filter: filterSchema.optional(),
  sort: sortSchema.optional(),
  paging: pagingSchema,
  cursorPaging: cursorPagingSchema,
  fields: stringList.optional(),
});

/** The deprecated include forms (`includeReferencedItems`, `referencedItemOptions`) are accepted too. */
const includeForms = {
  includeReferences: includeReferencesSchema,
  includeReferencedItems: z.array(z.string().min(1)).optional(),
  referencedItemOptions: z.array(z.object({ fieldName: z.string().min(1), limit: z.coerce.number().int().min(1).optional() })).optional(),
};

const queryRequest = z.object({
  dataCollectionId: collectionId,
  query: querySpec.default({}),
  returnTotalCount: booleanish.optional(),
  ...includeForms,
});

const searchRequest = z.object({
  dataCollectionId: collectionId,
  search: querySpec
    .extend({
      search: z
        .object({ expression: z.string().optional(), fuzzy: booleanish.optional(), mode: z.enum(["OR", "AND"]).optional() })
        .optional(),
    })
    .default({}),
  returnTotalCount: booleanish.optional(),
  ...includeForms,
});

const countRequest = z.object({ dataCollectionId: collectionId, filter: filterSchema.optional() });

function includeList(body: { includeReferences?: { field: string; limit?: number }[]; includeReferencedItems?: string[]; referencedItemOptions?: { fieldName: string; limit?: number }[] }) {
  return [
    ...(body.includeReferences ?? []),
    ...(body.includeReferencedItems ?? []).map((field) => ({ field })),
    ...(body.referencedItemOptions ?? []).map(({ fieldName, limit }) => ({ field: fieldName, limit })),
  ];
}

/** What a cursor carries for a query or search: everything a follow-up request leaves out. */
type QueryState = { filter?: unknown; sort?: SortSpec[]; fields?: string[]; search?: { expression?: string; mode?: string } };

/**
 * Search: every word of the expression (AND mode) or any of them (OR mode, the default) occurs,
 * case-folded, in some text value of the item. Fuzzy matching is not emulated.
 */
function searchCondition(search: QueryState["search"]): SqlFragment | undefined {
  const words = (search?.expression ?? "").split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  const conditions = words.map(() => `EXISTS (SELECT 1 FROM json_tree(data) WHERE type = 'text' AND key NOT IN ('_id', '_owner', '$date') AND instr(${FOLD_FUNCTION}(value), ${FOLD_FUNCTION}(?)) > 0)`);
  return { sql: conditions.join(search?.mode === "AND" ? " AND " : " OR "), params: words };
}

export function registerQueryRoutes(app: FastifyInstance, services: DataServices) {
  const { store, items } = services;

  const run = (request: FastifyRequest, body: { dataCollectionId: string; returnTotalCount?: boolean }, spec: z.infer<typeof querySpec>, state: QueryState, defaultLimit: number, include: { field: string; limit?: number }[]) => {
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    const page = resolvePage(spec, collection.id, state, { defaultLimit, maxLimit: MAX_PAGE_SIZE });
    const result = store.query(collection.id, {
      filter: page.state.filter,
      sort: page.state.sort,
      fields: page.state.fields,
      limit: page.limit,
      offset: page.offset,
      countTotal: body.returnTotalCount === true && !page.cursorMode,
      visibility: readVisibility(collection, caller),
      also: searchCondition(page.state.search),
    });
    const data = items.includeReferences(collection, caller, result.items.map((item) => item.data as ItemData), include);
    return {
      dataItems: result.items.map((item, index) => ({ ...item, data: data[index] })),
      pagingMetadata: pagingMetadata(page, collection.id, result.items.length, result.hasNext, result.total),
    };
  };

  const query = async (request: FastifyRequest) => {
    const body = parseRequest(queryRequest, requestPayload(request));
    const { filter, sort, fields } = body.query;
    return run(request, body, body.query, { filter, sort, fields }, DEFAULT_PAGE_SIZE, includeList(body));
  };
  app.get("/wix-data/v2/items/query", query);
  app.post("/wix-data/v2/items/query", query);

  app.post("/wix-data/v2/items/search", async (request) => {
    const body = parseRequest(searchRequest, request.body);
    const { filter, sort, fields, search } = body.search;
    return run(request, body, body.search, { filter, sort, fields, search }, DEFAULT_SEARCH_PAGE_SIZE, includeList(body));
  });

  app.post("/wix-data/v2/items/count", async (request) => {
    const body = parseRequest(countRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    return { totalCount: store.count(collection.id, { filter: body.filter, visibility: readVisibility(collection, caller) }) };
  });
}
