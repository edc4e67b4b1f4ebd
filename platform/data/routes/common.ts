import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../../context";
import type { Caller } from "../../types";
import { PlatformError } from "../../http/errors";
import { decodeQueryParams } from "../../http/request-params";
import { adminRequired, badRequest, invalidQuery, type QueryModelCode } from "../errors";
import type { ItemService } from "../items";
import { fieldPathProblem, MAX_REQUEST_DEPTH, unreadableRequestProblem } from "../limits";
import { assertPermitted } from "../permissions";
import { sortProblem, type SortSpec } from "../query-compiler";
import type { DataStore } from "../store";
import type { DataAction, StoredCollection } from "../collection";

/** What every data route module needs. */
export type DataServices = { ctx: PlatformContext; store: DataStore; items: ItemService };

/**
 * Validates a request with zod and turns violations into a clear 400 naming the field. Requests
 * nested beyond any sensible depth are refused first, before anything walks them recursively.
 */
export function parseRequest<T>(schema: z.ZodType<T>, input: unknown): T {
  const unreadable = unreadableRequestProblem(input, MAX_REQUEST_DEPTH);
  if (unreadable) throw badRequest(`Invalid request: ${unreadable}.`);
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = `Invalid request: ${issue.path.join(".") || "body"}: ${issue.message}.`;
    // A check that has a code of its own (sortSchema) names it; everything else is WDE0075.
    const code = issue.code === "custom" ? (issue.params as { wdeCode?: QueryModelCode } | undefined)?.wdeCode : undefined;
    throw code ? invalidQuery(message, code) : badRequest(message, { field: issue.path.join(".") });
  }
  return parsed.data;
}

/** The request object: the JSON body, or for GET the `.r`/flat query string (a malformed one is WDE0075). */
export function requestPayload(request: FastifyRequest): unknown {
  if (request.method !== "GET" && request.method !== "DELETE") return request.body;
  try {
    return decodeQueryParams(request.query as Record<string, string>);
  } catch (error) {
    throw error instanceof PlatformError ? badRequest(error.message) : error;
  }
}

/** A dotted field path that is safe to address (no NUL, no reserved or `$` names). */
export const fieldPath = z.string().superRefine((path, context) => {
  const problem = fieldPathProblem(path);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

/** Resolves the collection and the caller, and checks the collection-level permission. */
export function authorise(services: DataServices, request: FastifyRequest, collectionId: string, action: DataAction | null) {
  const caller: Caller = services.ctx.callerOf(request);
  const collection: StoredCollection = services.store.getCollection(collectionId);
  if (action) assertPermitted(collection, action, caller);
  return { caller, collection };
}

/**
 * Whether a call reaches draft items (docs/platform/data.md §18): only when it asks, and only the
 * admin key may ask (WDE0027 otherwise).
 */
export function draftsIncluded(caller: Caller, options: { includeDraftItems?: boolean } | undefined): boolean {
  if (!options?.includeDraftItems) return false;
  if (caller.kind !== "admin") throw adminRequired("include draft items");
  return true;
}

/** Site-wide admin calls (backups, tasks, jobs) need the admin key. */
export function assertAdmin(services: DataServices, request: FastifyRequest, action: string): void {
  if (services.ctx.callerOf(request).kind !== "admin") throw adminRequired(action);
}

/** One offset page of an already-listed, already-ordered result. */
export function offsetPage<T>(all: T[], paging: { limit?: number; offset?: number } | undefined) {
  const offset = paging?.offset ?? 0;
  const items = all.slice(offset, offset + (paging?.limit ?? 50));
  return { items, pagingMetadata: { count: items.length, offset, total: all.length, tooManyToCount: false } };
}

const noNul = (text: string) => !text.includes("\u0000");

export const collectionId = z.string().min(1, "dataCollectionId is required").refine(noNul, "a collection id cannot contain a NUL character");

/** An item id as requests name it. */
export const itemId = z.string().refine(noNul, "an item id cannot contain a NUL character");

/** Numbers may arrive as strings from flat GET parameters. */
export const pagingSchema = z.object({ limit: z.coerce.number().int().min(0).optional(), offset: z.coerce.number().int().min(0).optional() }).optional();
export const cursorPagingSchema = z.object({ limit: z.coerce.number().int().min(0).optional(), cursor: z.string().optional() }).optional();

/** A sort, refused with the client's sort-model codes (WDE0065–WDE0067) rather than WDE0075. */
export const sortSchema = z.custom<SortSpec[]>().superRefine((sort, context) => {
  const problem = sortProblem(sort);
  if (problem) context.addIssue({ code: "custom", message: problem.message, params: { wdeCode: problem.code } });
});

/** Projections (`fields`); flat GET params send a single field as a string. */
export const fieldList = z.union([z.array(fieldPath), fieldPath.transform((s) => [s])]);

export const booleanish = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

/** `publishPluginOptions` of item calls (the SDK's `showDrafts`). */
export const publishPluginOptionsSchema = z.object({ includeDraftItems: booleanish.optional() }).optional();

export const filterSchema = z.record(z.string(), z.unknown());

/** A write's `condition`: the item is written only if it matches `filter` (docs/platform/data.md §5). */
export const conditionSchema = z.object({ filter: filterSchema.nullish() }).optional();

/** Every `id` key of a value renamed to `_id`, at any depth. */
function withItemIdKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withItemIdKeys);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, nested]) => [key === "id" ? "_id" : key, withItemIdKeys(nested)]));
}

/**
 * A filter on data items sent through the generated `tasks` and `movementJobs` clients: they
 * rename every `_id` key to `id` on the way out (their REST naming), so `id` here means `_id`.
 */
export const renamedItemFilterSchema = filterSchema.nullish().transform((filter) => withItemIdKeys(filter) as Record<string, unknown> | null | undefined);

export const includeReferencesSchema = z
  .array(z.union([z.object({ field: fieldPath, limit: z.coerce.number().int().min(1).optional() }), fieldPath.transform((field) => ({ field }))]))
  .optional();
