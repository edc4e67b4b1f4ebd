import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { Caller, PlatformContext } from "../../context";
import { PlatformError } from "../../http/errors";
import { decodeQueryParams } from "../../http/request-params";
import { ItemService } from "../items";
import { assertPermitted, type DataAction } from "../permissions";
import { DataStore, type StoredCollection } from "../store";

/** What every data route module needs. */
export type DataServices = { ctx: PlatformContext; store: DataStore; items: ItemService };

export function createDataServices(ctx: PlatformContext): DataServices {
  const store = new DataStore(ctx.db);
  return { ctx, store, items: new ItemService(store) };
}

/** Validates a request with zod and turns violations into a clear 400 naming the field. */
export function parseRequest<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PlatformError(400, "WDE0075", `Invalid request: ${issue.path.join(".") || "body"}: ${issue.message}.`, {
      field: issue.path.join("."),
    });
  }
  return parsed.data;
}

/** The request object: the JSON body, or for GET the `.r`/flat query string. */
export function requestPayload(request: FastifyRequest): unknown {
  return request.method === "GET" || request.method === "DELETE"
    ? decodeQueryParams(request.query as Record<string, string>)
    : request.body;
}

/** Resolves the collection and the caller, and checks the collection-level permission. */
export function authorise(services: DataServices, request: FastifyRequest, collectionId: string, action: DataAction | null) {
  const caller: Caller = services.ctx.callerOf(request);
  const collection: StoredCollection = services.store.getCollection(collectionId);
  if (action) assertPermitted(collection, action, caller);
  return { caller, collection };
}

export const collectionId = z.string().min(1, "dataCollectionId is required");

/** Numbers may arrive as strings from flat GET parameters. */
export const pagingSchema = z
  .object({ limit: z.coerce.number().int().min(0).optional(), offset: z.coerce.number().int().min(0).optional() })
  .optional();
export const cursorPagingSchema = z
  .object({ limit: z.coerce.number().int().min(0).optional(), cursor: z.string().optional() })
  .optional();

export const sortSchema = z.array(z.object({ fieldName: z.string().min(1), order: z.enum(["ASC", "DESC", "asc", "desc"]).optional() }));

export const booleanish = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

export const filterSchema = z.record(z.string(), z.unknown());

export const includeReferencesSchema = z
  .array(z.union([z.object({ field: z.string().min(1), limit: z.coerce.number().int().min(1).optional() }), z.string().min(1).transform((field) => ({ field }))]))
  .optional();

/** Flat GET params send a single repeated key as a string. */
export const stringList = z.union([z.array(z.string()), z.string().transform((s) => [s])]);
