import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { distinctRows, groupedRows, pagedResults, type AggregateOperation } from "../aggregate";
import { pipelineRows } from "../pipeline";
import { pagingMetadata, resolvePage, type Page } from "../cursor";
import { badRequest } from "../errors";
import { rowScope } from "../permissions";
import type { SortSpec, SqlFragment } from "../query-compiler";
import {
  authorise,
  booleanish,
  collectionId,
  cursorPagingSchema,
  draftsIncluded,
  fieldPath,
  filterSchema,
  pagingSchema,
  parseRequest,
  publishPluginOptionsSchema,
  sortSchema,
  type DataServices,
} from "./common";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./query";

const fieldRef = z.object({ itemFieldName: fieldPath }).optional();
const groupingFields = z.array(fieldPath);
const operations = z.array(
  z.object({
    resultFieldName: z.string().min(1),
    itemCount: z.object({}).passthrough().optional(),
    sum: fieldRef,
    average: fieldRef,
    min: fieldRef,
    max: fieldRef,
  }),
);

const aggregateRequest = z.object({
  dataCollectionId: collectionId,
  initialFilter: filterSchema.optional(),
  aggregation: z.object({ groupingFields: groupingFields.default([]), operations: operations.default([]) }).default({ groupingFields: [], operations: [] }),
  finalFilter: filterSchema.optional(),
  sort: sortSchema.optional(),
  paging: pagingSchema,
  cursorPaging: cursorPagingSchema,
  returnTotalCount: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
});

const distinctRequest = z.object({
  dataCollectionId: collectionId,
  fieldName: fieldPath.optional(),
  filter: filterSchema.optional(),
  order: z.enum(["ASC", "DESC"]).optional(),
  paging: pagingSchema,
  cursorPaging: cursorPagingSchema,
  returnTotalCount: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
});

const pipelineStages = z.array(z.record(z.string(), z.unknown()));

const pipelineRequest = z.object({
  dataCollectionId: collectionId,
  pipeline: z.object({ stages: pipelineStages.default([]), paging: pagingSchema, cursorPaging: cursorPagingSchema }),
  returnTotalCount: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
});

/** What cursors carry for each endpoint, checked again when a cursor comes back. */
const aggregateState = z.object({
  initialFilter: filterSchema.optional(),
  groupingFields,
  operations,
  finalFilter: filterSchema.optional(),
  sort: sortSchema.optional(),
});
const distinctState = z.object({ fieldName: fieldPath.optional(), filter: filterSchema.optional(), order: z.enum(["ASC", "DESC"]).optional() });
type AggregateState = { initialFilter?: unknown; groupingFields: string[]; operations: AggregateOperation[]; finalFilter?: unknown; sort?: SortSpec[] };
type DistinctState = z.infer<typeof distinctState>;

/** `/items/aggregate`, `/items/aggregate-pipeline` and `/items/query-distinct-values`, computed in SQL. */
export function registerAggregateRoutes(app: FastifyInstance, services: DataServices) {
  const { store } = services;

  /** Runs one page of result rows (fetched one beyond the limit to know `hasNext`) and counts them when asked. */
  const fetchPage = <State>(current: Page<State>, collectionIdValue: string, query: { select: SqlFragment; count: SqlFragment }, countTotal?: boolean) => {
    const found = store.resultRows(query.select);
    const total = countTotal && !current.cursorMode ? store.resultCount(query.count) : undefined;
    const results = found.slice(0, current.limit);
    return { results, pagingMetadata: pagingMetadata(current, collectionIdValue, results.length, found.length > current.limit, total) };
  };

  /** Resolves paging for a result relation built from the matching items, and answers `{results, pagingMetadata}`. */
  const page = <State>(
    request: FastifyRequest,
    body: {
      dataCollectionId: string;
      returnTotalCount?: boolean;
      paging?: { limit?: number; offset?: number };
      cursorPaging?: { limit?: number; cursor?: string };
      publishPluginOptions?: { includeDraftItems?: boolean };
    },
    initial: State,
    stateSchema: z.ZodType<State>,
    rowsOf: (state: State, source: (filter: unknown) => SqlFragment) => { rows: SqlFragment; finalFilter?: unknown; sort?: SortSpec[] },
  ) => {
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    const current = resolvePage(body, collection.id, initial, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE, stateSchema });
    const visibility = rowScope(collection, caller);
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const { rows, finalFilter, sort } = rowsOf(current.state, (filter) => store.matchingData(collection.id, { filter, visibility, includeDrafts }));
    return fetchPage(current, collection.id, pagedResults(rows, { limit: current.limit, offset: current.offset, finalFilter, sort }), body.returnTotalCount);
  };

  app.post("/wix-data/v2/items/aggregate", async (request) => {
    const body = parseRequest(aggregateRequest, request.body);
    const initial: AggregateState = {
      initialFilter: body.initialFilter,
      groupingFields: body.aggregation.groupingFields,
      operations: body.aggregation.operations as AggregateOperation[],
      finalFilter: body.finalFilter,
      sort: body.sort,
    };
    const { results, pagingMetadata } = page(request, body, initial, aggregateState as z.ZodType<AggregateState>, (state, source) => ({
      rows: groupedRows(source(state.initialFilter), state.groupingFields, state.operations),
      finalFilter: state.finalFilter,
      sort: state.sort,
    }));
    return { results, pagingMetadata };
  });

  app.post("/wix-data/v2/items/query-distinct-values", async (request) => {
    const body = parseRequest(distinctRequest, request.body);
    const initial: DistinctState = { fieldName: body.fieldName, filter: body.filter, order: body.order };
    const { results, pagingMetadata } = page(request, body, initial, distinctState, (state, source) => {
      if (!state.fieldName) throw badRequest("Invalid request: fieldName is required.");
      return { rows: distinctRows(source(state.filter), state.fieldName), sort: [{ fieldName: "value", order: state.order ?? "ASC" }] };
    });
    return { distinctValues: results.map((row) => row.value), pagingMetadata };
  });

  app.post("/wix-data/v2/items/aggregate-pipeline", async (request) => {
    const body = parseRequest(pipelineRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    const current = resolvePage(body.pipeline, collection.id, body.pipeline.stages as unknown[], {
      defaultLimit: DEFAULT_PAGE_SIZE,
      maxLimit: MAX_PAGE_SIZE,
      stateSchema: pipelineStages,
    });
    const source = store.matchingData(collection.id, {
      visibility: rowScope(collection, caller),
      includeDrafts: draftsIncluded(caller, body.publishPluginOptions),
    });
    return fetchPage(current, collection.id, pipelineRows(source, current.state, current), body.returnTotalCount);
  });
}
