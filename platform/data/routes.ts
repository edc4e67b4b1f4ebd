import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { PlatformError } from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { assertPermitted } from "./permissions";
import { DataStore } from "./store";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

const queryRequest = z.object({
  dataCollectionId: z.string().min(1, "dataCollectionId is required"),
  query: z
    .object({
      filter: z.record(z.string(), z.unknown()).optional(),
      sort: z.array(z.object({ fieldName: z.string().min(1), order: z.string().optional() })).optional(),
      paging: z
        .object({ limit: z.coerce.number().int().min(0).optional(), offset: z.coerce.number().int().min(0).optional() })
        .optional(),
      fields: z.array(z.string()).optional(),
    })
    .default({}),
  returnTotalCount: z.union([z.boolean(), z.literal("true"), z.literal("false")]).optional(),
});

/** Validates a request body with zod and turns violations into a clear 400. */
export function parseRequest<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlatformError(400, "WDE0020", `Invalid request: ${issue.path.join(".") || "body"}: ${issue.message}.`);
  }
  return parsed.data;
}

function requestPayload(request: FastifyRequest): unknown {
  return request.method === "GET" ? decodeQueryParams(request.query as Record<string, string>) : request.body;
}

export function registerDataRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const store = new DataStore(ctx.db);

  const query = async (request: FastifyRequest) => {
    const body = parseRequest(queryRequest, requestPayload(request));
    const caller = ctx.callerOf(request);
    assertPermitted(store.getCollection(body.dataCollectionId), "read", caller);
    const limit = body.query.paging?.limit ?? DEFAULT_PAGE_SIZE;
    if (limit > MAX_PAGE_SIZE) {
      throw new PlatformError(400, "WDE0077", `'limit' cannot exceed ${MAX_PAGE_SIZE}`);
    }
    const offset = body.query.paging?.offset ?? 0;
    const page = store.query(body.dataCollectionId, {
      filter: body.query.filter,
      sort: body.query.sort,
      fields: body.query.fields,
      limit,
      offset,
      countTotal: body.returnTotalCount === true || body.returnTotalCount === "true",
    });
    return {
      dataItems: page.items,
      pagingMetadata: {
        count: page.items.length,
        offset,
        ...(page.total !== undefined && { total: page.total }),
        tooManyToCount: false,
        hasNext: page.hasNext,
      },
    };
  };

  app.get("/wix-data/v2/items/query", query);
  app.post("/wix-data/v2/items/query", query);
}
