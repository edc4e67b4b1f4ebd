import type { FastifyInstance, FastifyRequest } from "fastify";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { requireSiteOwner } from "../http/site-owner";
import { cursorQueryPage, cursorQuerySchema } from "../http/cursor-query";
import { bulkResults } from "../http/bulk-results";
import { alreadyExists, FieldViolations, invalidArgument, invalidRevision, memberNotFound, notFound, parseWith, found } from "../http/errors";
import { matchesFilter } from "../members/query";
import { type BadgeAssignment, BadgeStore, type TagIds } from "./store";
import { assignmentWire, badgeChanges, badgeChangesSchema, badgeV4Wire, newBadgeFields, newBadgeSchema, tagIdsOf, tagsSchema } from "./wire";

/**
 * `@wix/members` `badgesV2` (`/badges/v4/badges`) and `badgeAssignments` (`/badges/v4/assignments`),
 * docs/platform/badges.md: the site owner's badges, their display order, and who has which.
 */

const idSchema = z.string().min(1).max(100);
const ids = z.array(idSchema).min(1).max(100);
const createRequest = z.object({ badge: newBadgeSchema });
const updateRequest = z.object({ badge: badgeChangesSchema.nullish() });
const orderRequest = z.object({ ids });
const moveRequest = z.object({ position: z.enum(["FIRST", "LAST", "AFTER"]).default("LAST"), moveAfterBadgeId: idSchema.nullish() });
const queryRequest = z.object({ query: cursorQuerySchema });
const assignmentInput = z.object({ badgeId: idSchema, memberId: idSchema, tags: tagsSchema });
const bulkCreateRequest = z.object({ badgeAssignments: z.array(assignmentInput).min(1).max(100), returnEntity: z.boolean().optional() });
const bulkDeleteRequest = z.object({ badgeAssignmentIds: ids });
const tagChanges = { assignTags: tagsSchema.unwrap(), unassignTags: tagsSchema };
const bulkTagsRequest = z.object({ ids, ...tagChanges });
const tagsByFilterRequest = z.object({ filter: z.record(z.string(), z.unknown()), ...tagChanges });

const PAGE = { defaultLimit: 50, maxLimit: 100 };

/** Adds the tags to assign and drops those to unassign; a tag in both stays. */
function changedTags(current: TagIds, assign: TagIds, unassign: TagIds): TagIds {
  const apply = (list: string[], add: string[], drop: string[]) => [...new Set([...list.filter((tag) => !drop.includes(tag) || add.includes(tag)), ...add])];
  return { privateTags: apply(current.privateTags, assign.privateTags, unassign.privateTags), tags: apply(current.tags, assign.tags, unassign.tags) };
}

export function registerBadgeRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const badges = new BadgeStore(ctx.db);
  const requireAdmin = (request: FastifyRequest, action: string) => requireSiteOwner(ctx.callerOf(request), action);
  const badgeOr404 = (id: string) => found(badges.get(id), () => notFound(`Badge ${id} not found.`));
  const assignmentOr404 = (id: string) => found(badges.assignment(id), () => notFound(`Badge assignment ${id} not found.`));
  const createAssignment = (input: z.infer<typeof assignmentInput>): BadgeAssignment => {
    badgeOr404(input.badgeId);
    if (!ctx.identities.get(input.memberId)) throw memberNotFound(input.memberId);
    const created = badges.assign(input.badgeId, input.memberId, tagIdsOf(input.tags));
    if (!created) throw alreadyExists(`Member ${input.memberId} has badge ${input.badgeId} already.`, { badgeId: input.badgeId, memberId: input.memberId });
    return created;
  };
  const retag = (assignment: BadgeAssignment, request: z.infer<typeof bulkTagsRequest> | z.infer<typeof tagsByFilterRequest>) =>
    badges.setTags(assignment.id, changedTags(assignment.tags, tagIdsOf(request.assignTags), tagIdsOf(request.unassignTags)));

  // badgesV2.createBadge(badge) → {badge}: last in the display order.
  app.post("/badges/v4/badges", async (request) => {
    requireAdmin(request, "createBadge");
    return { badge: badgeV4Wire(badges.create(newBadgeFields(parseWith(createRequest, request.body).badge))) };
  });

  app.get<{ Params: { id: string } }>("/badges/v4/badges/:id", async (request) => {
    requireAdmin(request, "getBadge");
    return { badge: badgeV4Wire(badgeOr404(request.params.id)) };
  });

  // queryBadges() → {badges, pagingMetadata}, in display order unless sorted.
  app.post("/badges/v4/badges/query", async (request) => {
    requireAdmin(request, "queryBadges");
    const { query } = parseWith(queryRequest, request.body ?? {});
    const { items, count, cursors, hasNext } = cursorQueryPage(badges.all().map(badgeV4Wire), query, PAGE);
    return { badges: items, pagingMetadata: { count, cursors, hasNext } };
  });

  // updateBadge(id, badge) → {badge}: the fields given; a revision, when given, must be the current one.
  app.patch<{ Params: { id: string } }>("/badges/v4/badges/:id", async (request) => {
    requireAdmin(request, "updateBadge");
    const { badge } = parseWith(updateRequest, request.body);
    if (!badge) {
      throw new FieldViolations([
        { field: "badge", description: "The badge to update is missing.", violatedRule: "REQUIRED_FIELD", ruleName: "BADGE_NOT_PROVIDED", data: {} },
      ]);
    }
    const updated = badges.update(request.params.id, badgeChanges(badge), badge.revision === undefined ? undefined : Number(badge.revision));
    if (updated === "stale") throw invalidRevision(String(badge.revision));
    return { badge: badgeV4Wire(updated ?? badgeOr404(request.params.id)) };
  });

  app.delete<{ Params: { id: string } }>("/badges/v4/badges/:id", async (request) => {
    requireAdmin(request, "deleteBadge");
    if (!badges.delete(request.params.id)) badgeOr404(request.params.id);
    return {};
  });

  // updateBadgesDisplayOrder(ids) → {badges}: the badges named first, in that order.
  app.post("/badges/v4/badges/order", async (request) => {
    requireAdmin(request, "updateBadgesDisplayOrder");
    const order = parseWith(orderRequest, request.body).ids;
    order.forEach(badgeOr404);
    badges.reorder(order);
    return { badges: badges.all().map(badgeV4Wire) };
  });

  // moveBadge(id, {position, moveAfterBadgeId}) → {}
  app.post<{ Params: { id: string } }>("/badges/v4/badges/:id/move", async (request) => {
    requireAdmin(request, "moveBadge");
    const moved = badgeOr404(request.params.id).id;
    const { position, moveAfterBadgeId } = parseWith(moveRequest, request.body ?? {});
    const others = badges
      .all()
      .map((badge) => badge.id)
      .filter((id) => id !== moved);
    if (position === "FIRST") badges.reorder([moved, ...others]);
    else if (position === "LAST") badges.reorder([...others, moved]);
    else {
      if (!moveAfterBadgeId) throw invalidArgument("moveAfterBadgeId: needed to move a badge AFTER another.");
      const after = others.indexOf(badgeOr404(moveAfterBadgeId).id);
      if (after < 0) throw invalidArgument("moveAfterBadgeId: a badge cannot follow itself.");
      badges.reorder([...others.slice(0, after + 1), moved, ...others.slice(after + 1)]);
    }
    return {};
  });

  // createBadgeAssignment({badgeId, memberId, tags}) → {badgeAssignment}
  app.post("/badges/v4/assignments", async (request) => {
    requireAdmin(request, "createBadgeAssignment");
    const { badgeAssignment } = parseWith(z.object({ badgeAssignment: assignmentInput }), request.body);
    return { badgeAssignment: assignmentWire(createAssignment(badgeAssignment)) };
  });

  app.delete<{ Params: { id: string } }>("/badges/v4/assignments/:id", async (request) => {
    requireAdmin(request, "deleteBadgeAssignment");
    if (!badges.unassign(request.params.id)) assignmentOr404(request.params.id);
    return {};
  });

  // queryBadgeAssignments() → {badgeAssignments, pagingMetadata}, newest first unless sorted.
  app.post("/badges/v4/assignments/query", async (request) => {
    requireAdmin(request, "queryBadgeAssignments");
    const { query } = parseWith(queryRequest, request.body ?? {});
    const newestFirst = badges.assignments().map(assignmentWire).reverse();
    const { items, count, cursors, hasNext } = cursorQueryPage(newestFirst, query, PAGE);
    return { badgeAssignments: items, pagingMetadata: { count, cursors, hasNext } };
  });

  app.post("/badges/v4/bulk/assignments/create", async (request) => {
    requireAdmin(request, "bulkCreateBadgeAssignments");
    const { badgeAssignments, returnEntity } = parseWith(bulkCreateRequest, request.body);
    return ctx.db.transaction(() =>
      bulkResults(badgeAssignments, (input) => {
        const created = createAssignment(input);
        return { id: created.id, ...(returnEntity && { item: assignmentWire(created) }) };
      }),
    )();
  });

  app.post("/badges/v4/bulk/assignments/delete", async (request) => {
    requireAdmin(request, "bulkDeleteBadgeAssignments");
    const { badgeAssignmentIds } = parseWith(bulkDeleteRequest, request.body);
    return ctx.db.transaction(() =>
      bulkResults(badgeAssignmentIds, (id) => {
        if (!badges.unassign(id)) assignmentOr404(id);
        return { id };
      }),
    )();
  });

  app.post("/badges/v4/bulk/assignments/bulk-update-tags", async (request) => {
    requireAdmin(request, "bulkUpdateBadgeAssignmentTags");
    const body = parseWith(bulkTagsRequest, request.body);
    const { results, bulkActionMetadata } = ctx.db.transaction(() =>
      bulkResults(body.ids, (id) => {
        retag(assignmentOr404(id), body);
        return { id };
      }),
    )();
    return { results: results.map(({ itemMetadata }) => ({ itemMetadata })), bulkActionMetadata };
  });

  // bulkUpdateBadgeAssignmentTagsByFilter(filter, tags) → {jobId}: done before the reply, as the members by-filter calls.
  app.post("/badges/v4/bulk/assignments/update-tags-by-filter", async (request) => {
    requireAdmin(request, "bulkUpdateBadgeAssignmentTagsByFilter");
    const body = parseWith(tagsByFilterRequest, request.body);
    const matching = badges.assignments().filter((assignment) => matchesFilter(assignmentWire(assignment), body.filter));
    ctx.db.transaction(() => matching.forEach((assignment) => retag(assignment, body)))();
    return { jobId: randomUUID() };
  });
}
