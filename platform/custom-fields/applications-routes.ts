import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { alreadyExists, invalidRevision, notFound, parseWith, found } from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { requireSiteOwner } from "../http/site-owner";
import { BadgeStore } from "../badges/store";
import { MemberRoleStore } from "../member-roles/store";
import { type CustomField, CustomFieldStore, type Entity, ENTITY_TYPES, type FieldApplication } from "./store";
import { fieldWire } from "./wire";

/**
 * `@wix/members` `customFieldApplications` under `/members/v1/custom-fields-applications`
 * (docs/platform/custom-fields.md): which members a custom field applies to, by role, badge or
 * member, less exclusions; and the fields that apply to given members or roles.
 */

const idSchema = z.string().min(1).max(100);
const entityList = (kind: "applicationType" | "exclusionType") =>
  z
    .object({
      items: z
        .array(z.object({ [kind]: z.enum(ENTITY_TYPES), entityId: idSchema }))
        .max(100)
        .optional(),
    })
    .nullish()
    .transform((wrapper): Entity[] => (wrapper?.items ?? []).map((item) => ({ type: item[kind] as Entity["type"], entityId: item.entityId })));
const applicationInput = z.object({ customFieldId: idSchema, applications: entityList("applicationType"), exclusions: entityList("exclusionType") });
const createRequest = z.object({ application: applicationInput });
const updateRequest = z.object({
  application: applicationInput.extend({
    revision: z.union([z.string().regex(/^\d{1,15}$/, "a revision is a whole number"), z.number().int().nonnegative()]).transform(String),
  }),
});
const idsRequest = (name: "customFieldIds" | "memberIds" | "roleIds") => z.object({ [name]: z.array(idSchema).min(1).max(100) });

const applicationWire = (field: CustomField, application: FieldApplication) => ({
  customFieldId: field.id,
  customFieldKey: field.key,
  applications: { items: application.applications.map((entity) => ({ applicationType: entity.type, entityId: entity.entityId })) },
  exclusions: { items: application.exclusions.map((entity) => ({ exclusionType: entity.type, entityId: entity.entityId })) },
  revision: String(application.revision),
});

/** Whether an application takes in something known by these entities: named by one of the applications and by no exclusion. */
const takesIn = (application: FieldApplication | null, entities: Entity[]) => {
  if (!application) return true;
  const named = (list: Entity[]) => list.some((entity) => entities.some((own) => own.type === entity.type && own.entityId === entity.entityId));
  return named(application.applications) && !named(application.exclusions);
};

export function registerCustomFieldApplicationRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const fields = new CustomFieldStore(ctx.db);
  const roles = new MemberRoleStore(ctx.db);
  const badges = new BadgeStore(ctx.db);
  const params = (request: FastifyRequest) => decodeQueryParams(request.query as Record<string, string>);
  const requireAdmin = (request: FastifyRequest, action: string) => requireSiteOwner(ctx.callerOf(request), action);
  const fieldOr404 = (id: string) => found(fields.get(id), () => notFound(`Custom field ${id} not found.`));
  const applicationOr404 = (field: CustomField) =>
    found(fields.application(field.id), () => notFound(`Custom field ${field.id} has no application: it applies to all members.`));

  /** Each listed field, whether it applies to something known by these entities. */
  const fieldApplications = (entities: Entity[]) =>
    fields.listed().map((field) => {
      const application = fields.application(field.id);
      return { customFieldKey: field.key, applies: takesIn(application, entities), customField: fieldWire(field, application !== null) };
    });

  /** A member as applications name them: by id, by each role they have (its definition's id) and each badge. */
  const memberEntities = (memberId: string): Entity[] => {
    const roleIds = new Map(roles.definitions().map((definition) => [definition.roleKey, definition.id]));
    return [
      { type: "MEMBER", entityId: memberId },
      ...roles.rolesOf(memberId).flatMap((role): Entity[] => (roleIds.has(role.roleKey) ? [{ type: "ROLE", entityId: roleIds.get(role.roleKey)! }] : [])),
      ...badges
        .assignments()
        .filter((assignment) => assignment.memberId === memberId)
        .map((assignment): Entity => ({ type: "BADGE", entityId: assignment.badgeId })),
    ];
  };

  app.post("/members/v1/custom-fields-applications", async (request) => {
    requireAdmin(request, "createCustomFieldApplication");
    const input = parseWith(createRequest, request.body).application;
    const field = fieldOr404(input.customFieldId);
    const created = fields.createApplication(field.id, input.applications, input.exclusions);
    if (!created) throw alreadyExists(`Custom field ${field.id} has an application already; update it.`, { customFieldId: field.id });
    return { application: applicationWire(field, created) };
  });

  // updateCustomFieldApplication(customFieldId, application) → {application}: the whole application, with the current revision.
  app.patch<{ Params: { customFieldId: string } }>("/members/v1/custom-fields-applications/:customFieldId", async (request) => {
    requireAdmin(request, "updateCustomFieldApplication");
    const input = parseWith(updateRequest, request.body).application;
    const field = fieldOr404(request.params.customFieldId);
    const updated = fields.replaceApplication(field.id, input.applications, input.exclusions, Number(input.revision));
    if (updated === "stale") throw invalidRevision(input.revision);
    return { application: applicationWire(field, updated ?? applicationOr404(field)) };
  });

  app.get<{ Params: { customFieldId: string } }>("/members/v1/custom-fields-applications/:customFieldId", async (request) => {
    requireAdmin(request, "getCustomFieldApplication");
    const field = fieldOr404(parseWith(z.object({ customFieldId: idSchema }), { ...params(request), ...request.params }).customFieldId);
    return { application: applicationWire(field, applicationOr404(field)) };
  });

  // deleteCustomFieldApplication(customFieldId) → {}: the field applies to all members again.
  app.delete<{ Params: { customFieldId: string } }>("/members/v1/custom-fields-applications/:customFieldId", async (request) => {
    requireAdmin(request, "deleteCustomFieldApplication");
    const field = fieldOr404(request.params.customFieldId);
    if (!fields.deleteApplication(field.id)) applicationOr404(field);
    return {};
  });

  // getCustomFieldApplications(customFieldIds) → {applications}: those that exist.
  app.post("/members/v1/custom-fields-applications/applications", async (request) => {
    requireAdmin(request, "getCustomFieldApplications");
    const { customFieldIds } = parseWith(idsRequest("customFieldIds"), request.body) as { customFieldIds: string[] };
    const applications = customFieldIds.flatMap((id) => {
      const field = fields.get(id);
      const application = field && fields.application(field.id);
      return field && application ? [applicationWire(field, application)] : [];
    });
    return { applications };
  });

  // getMembersCustomFieldApplications(memberIds) → {results: [{memberId, applications: [{customFieldKey, applies, customField}]}]}
  app.post("/members/v1/custom-fields-applications/members", async (request) => {
    requireAdmin(request, "getMembersCustomFieldApplications");
    const { memberIds } = parseWith(idsRequest("memberIds"), request.body) as { memberIds: string[] };
    return { results: memberIds.map((memberId) => ({ memberId, applications: fieldApplications(memberEntities(memberId)) })) };
  });

  // getRolesCustomFieldApplications(roleIds) → {results: [{roleId, applications}]}
  app.post("/members/v1/custom-fields-applications/roles", async (request) => {
    requireAdmin(request, "getRolesCustomFieldApplications");
    const { roleIds } = parseWith(idsRequest("roleIds"), request.body) as { roleIds: string[] };
    return { results: roleIds.map((roleId) => ({ roleId, applications: fieldApplications([{ type: "ROLE", entityId: roleId }]) })) };
  });
}
