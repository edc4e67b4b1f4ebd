import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { memberNotFound, notFound, parseWith, found } from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { requireSiteOwner } from "../http/site-owner";
import { BadgeStore } from "./store";
import { badgeChanges, badgeChangesSchema, badgeWire, newBadgeFields, newBadgeSchema } from "./wire";

/**
 * `@wix/members` `badges`, the older v3 calls under `/members/v3/badges` (docs/platform/badges.md):
 * the same badges and assignments as v4, with offset pages and member id lists.
 */

const idSchema = z.string().min(1).max(100);
const memberIds = z.array(idSchema).min(1).max(100);
const pagingSchema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100), offset: z.coerce.number().int().min(0).default(0) }).prefault({});
const listRequest = z.object({ paging: pagingSchema });
const memberIdsRequest = z.object({ memberIds: z.union([memberIds, idSchema.transform((id) => [id])]) });

/** An offset page of a list, with the v3 `metadata`. */
function offsetPage<T>(all: T[], paging: z.infer<typeof pagingSchema>) {
  const page = all.slice(paging.offset, paging.offset + paging.limit);
  return { page, metadata: { count: page.length, offset: paging.offset, total: all.length, tooManyToCount: false } };
}

export function registerBadgeV3Routes(app: FastifyInstance, ctx: PlatformContext) {
  const badges = new BadgeStore(ctx.db);
  const params = (request: FastifyRequest) => decodeQueryParams(request.query as Record<string, string | string[]>);
  const requireAdmin = (request: FastifyRequest, action: string) => requireSiteOwner(ctx.callerOf(request), action);
  const badgeOr404 = (id: string) => found(badges.get(id), () => notFound(`Badge ${id} not found.`));
  const knownMembers = (ids: string[]) => {
    for (const id of ids) if (!ctx.identities.get(id)) throw memberNotFound(id);
    return ids;
  };
  const holders = (badgeId: string) =>
    badges
      .assignments()
      .filter((assignment) => assignment.badgeId === badgeId)
      .map((assignment) => assignment.memberId);

  app.post("/members/v3/badges", async (request) => {
    requireAdmin(request, "createBadge");
    return { badge: badgeWire(badges.create(newBadgeFields(parseWith(z.object({ badge: newBadgeSchema }), request.body).badge))) };
  });

  app.get("/members/v3/badges", async (request) => {
    requireAdmin(request, "listBadges");
    const { page, metadata } = offsetPage(badges.all(), parseWith(listRequest, params(request)).paging);
    return { badges: page.map(badgeWire), metadata };
  });

  // getMemberCountsPerBadge() → {badgeMemberCounts}: every badge, in display order.
  app.get("/members/v3/badges/members/count", async (request) => {
    requireAdmin(request, "getMemberCountsPerBadge");
    return { badgeMemberCounts: badges.all().map((badge) => ({ badgeId: badge.id, memberCount: holders(badge.id).length })) };
  });

  // listBadgesPerMember(memberIds) → {memberBadgeIds: [{memberId, badgeIds}]}
  app.post("/members/v3/badges/members", async (request) => {
    requireAdmin(request, "listBadgesPerMember");
    const ids = parseWith(z.object({ memberIds }), request.body).memberIds;
    const all = badges.assignments();
    return { memberBadgeIds: ids.map((memberId) => ({ memberId, badgeIds: all.filter((a) => a.memberId === memberId).map((a) => a.badgeId) })) };
  });

  // updateBadgesDisplayOrder(badgeIds) → {badges}
  app.patch("/members/v3/badges/order", async (request) => {
    requireAdmin(request, "updateBadgesDisplayOrder");
    const order = parseWith(z.object({ badgeIds: z.array(idSchema).min(1).max(1000) }), request.body).badgeIds;
    order.forEach(badgeOr404);
    badges.reorder(order);
    return { badges: badges.all().map(badgeWire) };
  });

  app.get<{ Params: { id: string } }>("/members/v3/badges/:id", async (request) => {
    requireAdmin(request, "getBadge");
    return { badge: badgeWire(badgeOr404(request.params.id)) };
  });

  app.patch<{ Params: { id: string } }>("/members/v3/badges/:id", async (request) => {
    requireAdmin(request, "updateBadge");
    const { badge } = parseWith(z.object({ badge: badgeChangesSchema.omit({ revision: true }) }), request.body);
    const updated = badges.update(request.params.id, badgeChanges(badge));
    return { badge: badgeWire(updated && updated !== "stale" ? updated : badgeOr404(request.params.id)) };
  });

  app.delete<{ Params: { id: string } }>("/members/v3/badges/:id", async (request) => {
    requireAdmin(request, "deleteBadge");
    if (!badges.delete(request.params.id)) badgeOr404(request.params.id);
    return {};
  });

  // assignBadge(id, memberIds) → {memberIds}: each member named has the badge afterwards.
  app.post<{ Params: { id: string } }>("/members/v3/badges/:id/members", async (request) => {
    requireAdmin(request, "assignBadge");
    const badge = badgeOr404(request.params.id);
    const ids = knownMembers(parseWith(z.object({ memberIds }), request.body).memberIds);
    ctx.db.transaction(() => ids.forEach((memberId) => badges.assign(badge.id, memberId, { privateTags: [], tags: [] })))();
    return { memberIds: ids };
  });

  // unassignBadge(id, memberIds) → {}: members without the badge are no error.
  app.delete<{ Params: { id: string } }>("/members/v3/badges/:id/members", async (request) => {
    requireAdmin(request, "unassignBadge");
    const badge = badgeOr404(request.params.id);
    const ids = parseWith(memberIdsRequest, params(request)).memberIds;
    ctx.db.transaction(() => ids.forEach((memberId) => badges.unassignMember(badge.id, memberId)))();
    return {};
  });

  // listMembersByBadge(id, {paging}) → {memberIds, metadata}, the first given the badge first.
  app.get<{ Params: { id: string } }>("/members/v3/badges/:id/members", async (request) => {
    requireAdmin(request, "listMembersByBadge");
    const badge = badgeOr404(request.params.id);
    const { page, metadata } = offsetPage(holders(badge.id), parseWith(listRequest, params(request)).paging);
    return { memberIds: page, metadata };
  });
}
