import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { parseWith } from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { requireSiteOwner } from "../http/site-owner";
import { pagingSchema, runQuery, sortSchema } from "../members/query";
import { type CustomField, CustomFieldStore } from "./store";

/**
 * `@wix/members` `customFieldSuggestions` under `/members/v1/custom-field-suggestions`
 * (docs/platform/custom-fields.md): the fields the site owner can bring back. On Wix these add
 * fields from the Members Area's own catalogue; locally they are the hidden custom fields.
 */

const listRequest = z.object({ paging: pagingSchema, sorting: sortSchema });
// The query builder sends `sort`; the typings call it `sorting`.
const queryRequest = z.object({
  query: z
    .object({ filter: z.record(z.string(), z.unknown()).nullish(), paging: pagingSchema, sort: sortSchema.optional(), sorting: sortSchema.optional() })
    .prefault({}),
});

const suggestionWire = (field: CustomField) => ({
  name: field.name,
  defaultPrivacy: field.defaultPrivacy,
  fieldType: field.fieldType,
  socialType: field.socialType,
  fieldOrigin: "CUSTOM",
  customFieldId: field.id,
});

export function registerCustomFieldSuggestionRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const fields = new CustomFieldStore(ctx.db);
  const requireAdmin = (request: FastifyRequest, action: string) => requireSiteOwner(ctx.callerOf(request), action);
  const answer = (filter: unknown, sorting: z.infer<typeof sortSchema>, paging: z.infer<typeof pagingSchema>) => {
    const { items, metadata } = runQuery(fields.hiddenFields().map(suggestionWire), filter, sorting, paging);
    return { suggestions: items, metadata };
  };

  app.get("/members/v1/custom-field-suggestions", async (request) => {
    requireAdmin(request, "listCustomFieldSuggestions");
    const { paging, sorting } = parseWith(listRequest, decodeQueryParams(request.query as Record<string, string>));
    return answer(undefined, sorting, paging);
  });

  app.post("/members/v1/custom-field-suggestions/query", async (request) => {
    requireAdmin(request, "queryCustomFieldSuggestions");
    const { filter, sort, sorting, paging } = parseWith(queryRequest, request.body ?? {}).query;
    return answer(filter, sort ?? sorting ?? [], paging);
  });
}
