import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { PlatformError } from "../../http/errors";
import { distinctRows, groupedRows, pagedResults, type AggregateOperation } from "../aggregate";
import { pagingMetadata, resolvePage } from "../cursor";
import { readVisibility } from "../permissions";
import type { SortSpec, SqlFragment } from "../query-compiler";
import { authorise, booleanish, collectionId, cursorPagingSchema, filterSchema, pagingSchema, parseRequest, sortSchema, type DataServices } from "./common";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./query";

const fieldRef = z.object({ itemFieldName: z.string().min(1) }).optional();

const aggregateRequest = z.object({
  dataCollectionId: collectionId,
  initialFilter: filterSchema.optional(),
  aggregation: z
    .object({
      groupingFields: z.array(z.string().min(1)).default([]),
      operations: z
        .array(z.object({ resultFieldName: z.string().min(1), itemCount: z.object({}).passthrough().optional(), sum: fieldRef, average: fieldRef, min: fieldRef, max: fieldRef }))
        .default([]),
    })
    .default({ groupingFields: [], operations: [] }),
  finalFilter: filterSchema.optional(),
  sort: sortSchema.optional(),
  paging: pagingSchema,
  cursorPaging: cursorPagingSchema,
  returnTotalCount: booleanish.optional(),
});

const distinctRequest = z.object({
  dataCollectionId: collectionId,
  fieldName: z.string().min(1).optional(),
  filter: filterSchema.optional(),
  order: z.enum(["ASC", "DESC"]).optional(),
  paging: pagingSchema,
  cursorPaging: cursorPagingSchema,
  returnTotalCount: booleanish.optional(),
});

type AggregateState = { initialFilter?: unknown; groupingFields: string[]; operations: AggregateOperation[]; finalFilter?: unknown; sort?: SortSpec[] };
type DistinctState = { fieldName?: string; filter?: unknown; order?: "ASC" | "DESC" };

/** `/items/aggregate` and `/items/query-distinct-values`, computed in SQL. */
export function registerAggregateRoutes(app: FastifyInstance, services: DataServices) {
  const { store } = services;

  /** Runs a result relation through paging and answers `{rows, pagingMetadata}`. */
  const page = <State>(
    request: FastifyRequest,
    body: { dataCollectionId: string; returnTotalCount?: boolean; paging?: { limit?: number; offset?: number }; cursorPaging?: { limit?: number; cursor?: string } },
    initial: State,
    rowsOf: (state: State, source: (filter: unknown) => SqlFragment) => { rows: SqlFragment; finalFilter?: unknown; sort?: SortSpec[] },
  ) => {
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    const current = resolvePage(body, collection.id, initial, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE });
    const visibility = readVisibility(collection, caller);
    const { rows, finalFilter, sort } = rowsOf(current.state, (filter) => store.matchingData(collection.id, { filter, visibility }));
    const { select, count } = pagedResults(rows, { limit: current.limit, offset: current.offset, finalFilter, sort });
    const found = (store.db.prepare(select.sql).pluck().all(...select.params) as string[]).map((text) => JSON.parse(text) as Record<string, unknown>);
    const total = body.returnTotalCount && !current.cursorMode ? (store.db.prepare(count.sql).pluck().get(...count.params) as number) : undefined;
    const results = found.slice(0, current.limit);
    return { results, pagingMetadata: pagingMetadata(current, collection.id, results.length, found.length > current.limit, total) };
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
    const { results, pagingMetadata } = page(request, body, initial, (state, source) => ({
      rows: groupedRows(source(state.initialFilter), state.groupingFields, state.operations),
      finalFilter: state.finalFilter,
      sort: state.sort,
    }));
    return { results, pagingMetadata };
  });

  app.post("/wix-data/v2/items/query-distinct-values", async (request) => {
    const body = parseRequest(distinctRequest, request.body);
    const initial: DistinctState = { fieldName: body.fieldName, filter: body.filter, order: body.order };
    const { results, pagingMetadata } = page(request, body, initial, (state, source) => {
      if (!state.fieldName) throw new PlatformError(400, "WDE0075", "Invalid request: fieldName is required.");
      return { rows: distinctRows(source(state.filter), state.fieldName), sort: [{ fieldName: "value", order: state.order ?? "ASC" }] };
    });
    return { distinctValues: results.map((row) => row.value), pagingMetadata };
  });
}
