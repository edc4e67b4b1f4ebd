import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import {
  alreadyExists,
  found,
  invalidRevision,
  memberBlockedForRole,
  memberNotFound,
  notFound,
  parseWith,
  roleDoesNotExist,
  roleNotAssigned,
} from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { requireSiteOwner } from "../http/site-owner";
import { isShutOut } from "../identity/store";
import { matchesFilter } from "../members/query";
import { MemberRoleStore, type RoleDefinition } from "./store";

/**
 * `@wix/members` `authorization` (a member's roles, `/members/v1/roles/members`) and
 * `memberRoleDefinition` (the site's roles, `/members/v1/roles/definitions`), docs/platform/member-roles.md.
 * Both are the site owner's: no local member holds the permission to manage roles.
 */

const roleKeySchema = z
  .string()
  .max(100)
  .regex(/^[A-Z][A-Z0-9_]*$/, "a role key is upper-case letters, digits and underscores, starting with a letter");
const memberIdSchema = z.string().min(1).max(100);
const defineRequest = z.object({ roleKey: roleKeySchema, roleTitle: z.string().trim().min(1).max(200), blockable: z.boolean().optional() });
const updateRequest = z.object({
  blockable: z.boolean().optional(),
  revision: z.union([z.string().regex(/^\d{1,15}$/, "a revision is a whole number"), z.number().int().nonnegative()]).transform(String),
});
const assignmentRequest = z.object({ memberId: memberIdSchema, roleKey: z.string().min(1).max(100) });
const queryRequest = z.object({ query: z.object({ filter: z.record(z.string(), z.unknown()).nullish() }).prefault({}) });

const definitionWire = ({ id, roleKey, title, blockable, revision }: RoleDefinition) => ({ id, roleKey, title, blockable, revision: String(revision) });

export function registerMemberRoleRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const roles = new MemberRoleStore(ctx.db);
  const params = (request: FastifyRequest) => decodeQueryParams(request.query as Record<string, string>);
  const requireAdmin = (request: FastifyRequest, action: string) => requireSiteOwner(ctx.callerOf(request), action);
  const noDefinition = (roleKey: string) => notFound(`There is no role definition ${roleKey}.`);
  const definitionOr404 = (roleKey: string) => found(roles.definition(roleKey), () => noDefinition(roleKey));
  const memberOr404 = (memberId: string) => found(ctx.identities.get(memberId), () => memberNotFound(memberId));

  // createMemberRoleDefinition(roleKey, {roleTitle, blockable}) → {role}
  app.post("/members/v1/roles/definitions", async (request) => {
    requireAdmin(request, "createMemberRoleDefinition");
    const { roleKey, roleTitle, blockable } = parseWith(defineRequest, request.body);
    const created = roles.define(roleKey, roleTitle, blockable ?? false);
    if (!created) throw alreadyExists(`Role ${roleKey} is defined already.`, { roleKey });
    return { role: definitionWire(created) };
  });

  // listMemberRoleDefinitions() → {roles}
  app.get("/members/v1/roles/definitions", async (request) => {
    requireAdmin(request, "listMemberRoleDefinitions");
    return { roles: roles.definitions().map(definitionWire) };
  });

  // getMemberRoleDefinition(roleKey) → {role}
  app.get<{ Params: { roleKey: string } }>("/members/v1/roles/definitions/:roleKey", async (request) => {
    requireAdmin(request, "getMemberRoleDefinition");
    return { role: definitionWire(definitionOr404(request.params.roleKey)) };
  });

  // updateMemberRoleDefinition(key, {blockable, revision}) → {role}: only `blockable` changes.
  app.patch<{ Params: { key: string } }>("/members/v1/roles/definitions/:key", async (request) => {
    requireAdmin(request, "updateMemberRoleDefinition");
    const { blockable, revision } = parseWith(updateRequest, request.body);
    const updated = roles.updateBlockable(request.params.key, blockable, Number(revision));
    if (updated === "stale") throw invalidRevision(revision);
    return { role: definitionWire(updated ?? definitionOr404(request.params.key)) };
  });

  // deleteMemberRoleDefinition(roleKey) → {}: members who have the role keep it until it is taken from them.
  app.delete<{ Params: { roleKey: string } }>("/members/v1/roles/definitions/:roleKey", async (request) => {
    requireAdmin(request, "deleteMemberRoleDefinition");
    if (!roles.undefine(request.params.roleKey)) throw noDefinition(request.params.roleKey);
    return {};
  });

  // assignRole(memberId, roleKey) → {roleKey}: a defined role; a blockable one not to a blocked member.
  app.post<{ Params: { memberId: string } }>("/members/v1/roles/members/:memberId", async (request) => {
    requireAdmin(request, "assignRole");
    const { memberId, roleKey } = parseWith(assignmentRequest, { ...(request.body as object), memberId: request.params.memberId });
    const member = memberOr404(memberId);
    const definition = roles.definition(roleKey);
    if (!definition) throw roleDoesNotExist(roleKey);
    if (definition.blockable && isShutOut(member)) throw memberBlockedForRole(memberId, roleKey);
    roles.assign(memberId, definition);
    return { roleKey };
  });

  // unassignRole(memberId, roleKey) → {roleKey}
  app.delete<{ Params: { memberId: string } }>("/members/v1/roles/members/:memberId", async (request) => {
    requireAdmin(request, "unassignRole");
    const { memberId, roleKey } = parseWith(assignmentRequest, { ...params(request), memberId: request.params.memberId });
    memberOr404(memberId);
    if (!roles.unassign(memberId, roleKey)) throw roleNotAssigned(memberId, roleKey);
    return { roleKey };
  });

  // getRoles(memberId) → {roles: [{roleKey, title}]}
  app.get<{ Params: { memberId: string } }>("/members/v1/roles/members/:memberId", async (request) => {
    requireAdmin(request, "getRoles");
    return { roles: roles.rolesOf(memberOr404(request.params.memberId).id) };
  });

  // queryRoles({query: {filter}}) → {rolesByMemberId}: the members with a role matching the filter (on memberId, roleKey, title), with all their roles.
  app.post("/members/v1/roles/members/query", async (request) => {
    requireAdmin(request, "queryRoles");
    const { filter } = parseWith(queryRequest, request.body ?? {}).query;
    const all = roles.assignments();
    const matching = new Set(all.filter((assignment) => matchesFilter(assignment, filter ?? {})).map((assignment) => assignment.memberId));
    const rolesByMemberId: Record<string, { roles: Array<{ roleKey: string; title: string }> }> = {};
    for (const { memberId, roleKey, title } of all) {
      if (matching.has(memberId)) (rolesByMemberId[memberId] ??= { roles: [] }).roles.push({ roleKey, title });
    }
    return { rolesByMemberId };
  });
}
