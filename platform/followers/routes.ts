import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { invalidArgument, memberNotFound, parseWith as parse, permissionDenied } from "../http/errors";
import { cursorPagingSchema, pageOf } from "../http/id-pages";
import { decodeQueryParams } from "../http/request-params";
import { MemberPrivacyStore } from "../member-privacy/store";
import { seesMember, visibilitySettings } from "../members/visibility";
import type { Caller } from "../types";
import { FollowerStore, type FollowDirection } from "./store";

/**
 * `@wix/members` `memberFollowers` under `/members/v3/followers` (docs/platform/followers.md):
 * a member follows and unfollows others, and anyone lists who follows whom among the members
 * they may see. Ids are read from the body or the query, where the client repeats them.
 */

const listRequest = z.object({ memberId: z.string().min(1).max(100).optional(), paging: cursorPagingSchema });
const followRequest = z.object({ memberId: z.string().min(1).max(100) });
const connectionsRequest = z.object({ memberId: z.string().min(1).max(100).optional(), connectedMemberIds: z.array(z.string().min(1).max(100)).max(100) });

export function registerFollowerRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const follows = new FollowerStore(ctx.db);
  const privacy = new MemberPrivacyStore(ctx.db);

  const visible = (caller: Caller, id: string) => {
    const identity = ctx.identities.get(id);
    return identity !== null && seesMember(caller, identity, visibilitySettings(ctx, privacy));
  };
  const visibleOr404 = (caller: Caller, id: string) => {
    if (!visible(caller, id)) throw memberNotFound(id);
    return id;
  };
  const currentMember = (request: FastifyRequest, action: string) => {
    const caller = ctx.callerOf(request);
    if (caller.kind !== "member") throw permissionDenied(`${action} needs a signed-in member's token.`);
    return caller.id;
  };

  function page(caller: Caller, memberId: string, direction: FollowDirection, paging: z.infer<typeof cursorPagingSchema>) {
    const { page: memberIds, pagingMetadata } = pageOf(
      follows.list(memberId, direction).filter((id) => visible(caller, id)),
      paging,
    );
    return { memberIds, pagingMetadata };
  }

  function connections(caller: Caller, memberId: string, connectedMemberIds: string[]) {
    return {
      connectedMembers: connectedMemberIds
        .filter((id) => visible(caller, id))
        .map((id) => ({ connectedMemberId: id, followedByMember: follows.follows(memberId, id), followingMember: follows.follows(id, memberId) })),
    };
  }

  const query = (request: FastifyRequest) => decodeQueryParams(request.query as Record<string, string>);

  // The paths with `my` first: they would otherwise read as a member id.
  app.get("/members/v3/followers/my", async (request) => {
    const me = currentMember(request, "listCurrentMemberFollowers");
    return page(ctx.callerOf(request), me, "followers", parse(listRequest, query(request)).paging);
  });
  app.get("/members/v3/followers/my/following", async (request) => {
    const me = currentMember(request, "listCurrentMemberFollowing");
    return page(ctx.callerOf(request), me, "following", parse(listRequest, query(request)).paging);
  });
  app.post("/members/v3/followers/my/connections", async (request) => {
    const me = currentMember(request, "queryCurrentMemberConnections");
    return connections(ctx.callerOf(request), me, parse(connectionsRequest, request.body).connectedMemberIds);
  });

  app.post("/members/v3/followers/:memberId", async (request) => {
    const me = currentMember(request, "followMember");
    const { memberId } = parse(followRequest, request.body);
    if (memberId === me) throw invalidArgument("A member cannot follow themselves.");
    follows.follow(me, visibleOr404(ctx.callerOf(request), memberId));
    return {};
  });
  app.delete("/members/v3/followers/:memberId", async (request) => {
    const me = currentMember(request, "unfollowMember");
    // Unfollowing needs no sight of the member: one who went private can still be let go.
    follows.unfollow(me, parse(followRequest, query(request)).memberId);
    return {};
  });
  app.get("/members/v3/followers/:memberId", async (request) => {
    const caller = ctx.callerOf(request);
    const { memberId, paging } = parse(listRequest.required({ memberId: true }), query(request));
    return page(caller, visibleOr404(caller, memberId), "followers", paging);
  });
  app.get("/members/v3/followers/:memberId/following", async (request) => {
    const caller = ctx.callerOf(request);
    const { memberId, paging } = parse(listRequest.required({ memberId: true }), query(request));
    return page(caller, visibleOr404(caller, memberId), "following", paging);
  });
  app.post("/members/v3/followers/:memberId/connections", async (request) => {
    const caller = ctx.callerOf(request);
    const { memberId, connectedMemberIds } = parse(connectionsRequest.required({ memberId: true }), request.body);
    return connections(caller, visibleOr404(caller, memberId!), connectedMemberIds);
  });
}
