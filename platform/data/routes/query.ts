import { randomInt } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { pagingMetadata, resolvePage } from "../cursor";
import { rowScope } from "../permissions";
import type { ItemData } from "../wire";
import {
  authorise,
  booleanish,
  collectionId,
  draftsIncluded,
  publishPluginOptionsSchema,
  cursorPagingSchema,
  fieldPath,
  filterSchema,
  includeReferencesSchema,
  pagingSchema,
  parseRequest,
  requestPayload,
  sortSchema,
  fieldList,
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
  fields: fieldList.optional(),
});

/** `sortMode: RANDOM` orders by a seeded shuffle instead of `sort`; other modes use `sort`. */
const randomSort = {
  sortMode: z.enum(["UNKNOWN_SORT_MODE", "WIX_QUERY", "RANDOM"]).optional(),
  randomOptions: z.object({ seed: z.coerce.number().int().nullish() }).optional(),
};

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
  publishPluginOptions: publishPluginOptionsSchema,
  ...includeForms,
  ...randomSort,
});

const searchRequest = z.object({
  dataCollectionId: collectionId,
  search: querySpec
    .extend({
      search: z.object({ expression: z.string().optional(), fuzzy: booleanish.optional(), mode: z.enum(["OR", "AND"]).optional() }).optional(),
    })
    .default({}),
  returnTotalCount: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
  ...includeForms,
});

const countRequest = z.object({ dataCollectionId: collectionId, filter: filterSchema.optional(), publishPluginOptions: publishPluginOptionsSchema });

function includeList(body: {
  includeReferences?: { field: string; limit?: number }[];
  includeReferencedItems?: string[];
  referencedItemOptions?: { fieldName: string; limit?: number }[];
}) {
  return [
    ...(body.includeReferences ?? []),
    ...(body.includeReferencedItems ?? []).map((field) => ({ field })),
    ...(body.referencedItemOptions ?? []).map(({ fieldName, limit }) => ({ field: fieldName, limit })),
  ];
}

/** What a cursor carries for a query or search: everything a follow-up request leaves out. Fuzzy search is not emulated. */
const queryState = z.object({
  filter: filterSchema.optional(),
  sort: sortSchema.optional(),
  fields: z.array(fieldPath).optional(),
  search: z.object({ expression: z.string().optional(), mode: z.enum(["OR", "AND"]).optional() }).optional(),
  randomSeed: z.number().int().optional(),
});
type QueryState = z.infer<typeof queryState>;

export function registerQueryRoutes(app: FastifyInstance, services: DataServices) {
  const { store, items } = services;

  const run = (
    request: FastifyRequest,
    body: { dataCollectionId: string; returnTotalCount?: boolean; publishPluginOptions?: { includeDraftItems?: boolean } },
    spec: z.infer<typeof querySpec>,
    state: QueryState,
    defaultLimit: number,
    include: { field: string; limit?: number }[],
  ) => {
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const page = resolvePage(spec, collection.id, state, { defaultLimit, maxLimit: MAX_PAGE_SIZE, stateSchema: queryState });
    const result = store.query(collection.id, {
      filter: page.state.filter,
      sort: page.state.sort,
      fields: page.state.fields,
      limit: page.limit,
      offset: page.offset,
      countTotal: body.returnTotalCount === true && !page.cursorMode,
      visibility: rowScope(collection, caller),
      search: page.state.search,
      randomSeed: page.state.randomSeed,
      includeDrafts,
    });
    const data = items.includeReferences(
      collection,
      caller,
      result.items.map((item) => item.data as ItemData),
      include,
      includeDrafts,
    );
    return {
      dataItems: result.items.map((item, index) => ({ ...item, data: data[index] })),
      pagingMetadata: pagingMetadata(page, collection.id, result.items.length, result.hasNext, result.total),
    };
  };

  const query = async (request: FastifyRequest) => {
    const body = parseRequest(queryRequest, requestPayload(request));
    const { filter, sort, fields } = body.query;
    // Without a seed each request shuffles anew; a cursor keeps the seed it started with.
    const randomSeed = body.sortMode === "RANDOM" ? (body.randomOptions?.seed ?? randomInt(2 ** 31)) : undefined;
    return run(request, body, body.query, { filter, sort, fields, randomSeed }, DEFAULT_PAGE_SIZE, includeList(body));
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
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    return { totalCount: store.count(collection.id, { filter: body.filter, visibility: rowScope(collection, caller), includeDrafts }) };
  });
}
