import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import {
  incorrectFieldPrivacy,
  incorrectFieldType,
  invalidArgument,
  invalidFieldSocialType,
  invalidRevision,
  notFound,
  parseWith,
  found,
} from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { requireSiteOwner } from "../http/site-owner";
import { type CustomField, CustomFieldStore, FIELD_TYPES, type FieldType } from "./store";
import { fieldWire } from "./wire";

/**
 * `@wix/members` `customFields` under `/members/v1/custom-fields` (docs/platform/custom-fields.md):
 * the site owner's custom profile fields.
 */

const SOCIAL_TYPES = [
  "FACEBOOK",
  "INSTAGRAM",
  "LINKEDIN",
  "TWITTER",
  "YOUTUBE",
  "PINTEREST",
  "TIKTOK",
  "DEVIANTART",
  "SOUNDCLOUD",
  "TUMBLR",
  "VIMEO",
  "VKONTAKTE",
  "ODNOKLASSNIKI",
  "OTHER",
] as const;
const revisionSchema = z.union([z.string().regex(/^\d{1,15}$/, "a revision is a whole number"), z.number().int().nonnegative()]).transform(String);
const fieldInput = z.object({
  name: z.string().trim().min(1).max(150),
  fieldType: z.enum(["UNKNOWN", ...FIELD_TYPES]).optional(),
  socialType: z.enum(["UNKNOWN", ...SOCIAL_TYPES]).optional(),
  defaultPrivacy: z.enum(["UNKNOWN", "PUBLIC", "PRIVATE"]).optional(),
});
const createRequest = z.object({ field: fieldInput });
const updateRequest = z.object({ field: fieldInput.partial().extend({ revision: revisionSchema }) });
const revisionRequest = z.object({ revision: revisionSchema });
const pagingSchema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100), offset: z.coerce.number().int().min(0).default(0) }).prefault({});
const orderRequest = z.object({ fieldIds: z.array(z.string().min(1).max(100)).min(1).max(100), section: z.enum(["GENERAL", "SOCIAL"]).optional() });

/** A privacy that is PUBLIC or PRIVATE (UNKNOWN is refused). */
function privacyOf(privacy: string | undefined, fallback: "PUBLIC" | "PRIVATE"): "PUBLIC" | "PRIVATE" {
  if (privacy === "UNKNOWN") throw incorrectFieldPrivacy(privacy);
  return privacy === undefined ? fallback : (privacy as "PUBLIC" | "PRIVATE");
}

/** A SOCIAL field names its network; any other names none (UNKNOWN). */
function socialTypeOf(fieldType: FieldType, socialType: string | undefined): string {
  const given = socialType ?? "UNKNOWN";
  if ((fieldType === "SOCIAL") !== (given !== "UNKNOWN")) throw invalidFieldSocialType(given);
  return given;
}

export function registerCustomFieldRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const fields = new CustomFieldStore(ctx.db);
  const wired = (field: CustomField) => fieldWire(field, fields.application(field.id) !== null);
  const params = (request: FastifyRequest) => decodeQueryParams(request.query as Record<string, string>);
  const requireAdmin = (request: FastifyRequest, action: string) => requireSiteOwner(ctx.callerOf(request), action);
  const fieldOr404 = (id: string) => found(fields.get(id), () => notFound(`Custom field ${id} not found.`));
  const removeField = (request: FastifyRequest<{ Params: { id: string } }>, revision: string, how: "hide" | "delete") => {
    requireAdmin(request, how === "hide" ? "hideCustomField" : "deleteCustomField");
    const result = fields.remove(request.params.id, Number(revision), how);
    if (result === "stale") throw invalidRevision(revision);
    if (result === null) fieldOr404(request.params.id);
    return {};
  };

  // createCustomField({name, fieldType, socialType, defaultPrivacy}) → {field}
  app.post("/members/v1/custom-fields", async (request) => {
    requireAdmin(request, "createCustomField");
    const input = parseWith(createRequest, request.body).field;
    if (input.fieldType === "UNKNOWN") throw incorrectFieldType("UNKNOWN", "TEXT");
    const fieldType = input.fieldType ?? "TEXT";
    const created = fields.create({
      name: input.name,
      fieldType,
      socialType: socialTypeOf(fieldType, input.socialType),
      defaultPrivacy: privacyOf(input.defaultPrivacy, "PRIVATE"),
    });
    return { field: wired(created) };
  });

  // listCustomFields({paging}) → {fields, metadata}: general fields, then social ones, each section in its order; hidden ones left out.
  app.get("/members/v1/custom-fields", async (request) => {
    requireAdmin(request, "listCustomFields");
    const { paging } = parseWith(z.object({ paging: pagingSchema }), params(request));
    const all = fields.listed();
    const page = all.slice(paging.offset, paging.offset + paging.limit);
    return { fields: page.map(wired), metadata: { count: page.length, offset: paging.offset, total: all.length, tooManyToCount: false } };
  });

  // updateCustomFieldsOrder(fieldIds, {section}) → {fields, section}: the section's fields, those named first.
  app.post("/members/v1/custom-fields/order", async (request) => {
    requireAdmin(request, "updateCustomFieldsOrder");
    const { fieldIds, section: asked } = parseWith(orderRequest, request.body);
    const named = fieldIds.map(fieldOr404);
    const section = asked ?? named[0].section;
    const stray = named.find((field) => field.section !== section);
    if (stray) throw invalidArgument(`fieldIds: field ${stray.id} is in section ${stray.section}, not ${section}.`);
    fields.reorder(section, fieldIds);
    return {
      fields: fields
        .listed()
        .filter((field) => field.section === section)
        .map(wired),
      section,
    };
  });

  app.get<{ Params: { id: string } }>("/members/v1/custom-fields/:id", async (request) => {
    requireAdmin(request, "getCustomField");
    return { field: wired(fieldOr404(request.params.id)) };
  });

  // updateCustomField(id, {name, defaultPrivacy, socialType, revision}) → {field}; the type stays.
  app.patch<{ Params: { id: string } }>("/members/v1/custom-fields/:id", async (request) => {
    requireAdmin(request, "updateCustomField");
    const { revision, ...input } = parseWith(updateRequest, request.body).field;
    const current = fieldOr404(request.params.id);
    if (input.fieldType !== undefined && input.fieldType !== current.fieldType) throw incorrectFieldType(input.fieldType, current.fieldType);
    const updated = fields.update(
      current.id,
      {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.socialType !== undefined && { socialType: socialTypeOf(current.fieldType, input.socialType) }),
        defaultPrivacy: privacyOf(input.defaultPrivacy, current.defaultPrivacy),
      },
      Number(revision),
    );
    if (updated === "stale") throw invalidRevision(revision);
    return { field: wired(updated ?? fieldOr404(current.id)) };
  });

  // deleteCustomField(id, revision) → {}
  app.delete<{ Params: { id: string } }>("/members/v1/custom-fields/:id", async (request) =>
    removeField(request, parseWith(revisionRequest, params(request)).revision, "delete"),
  );

  // hideCustomField(id, revision) → {}: out of the list, kept.
  app.post<{ Params: { id: string } }>("/members/v1/custom-fields/:id/hide", async (request) =>
    removeField(request, parseWith(revisionRequest, request.body).revision, "hide"),
  );
}
