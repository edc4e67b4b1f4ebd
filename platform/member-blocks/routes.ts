import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import {
  blockDoesNotExist,
  memberAlreadyBlocked,
  memberNotFound,
  parseWith,
  permissionDenied,
  selfBlockingForbidden,
  selfUnblockingForbidden,
} from "../http/errors";
import { cursorPagingSchema, pageOf } from "../http/id-pages";
import { decodeQueryParams } from "../http/request-params";
import { MemberBlockStore } from "./store";

/**
 * `@wix/members` `memberToMemberBlock` under `/members/v1/member-to-member-blocks`
 * (docs/platform/member-blocks.md): a member blocks and unblocks others and lists whom they block;
 * the site owner (API key or an app's token) lists the blocks a member is part of.
 */

const memberIdRequest = z.object({ memberId: z.string().min(1).max(100) });
const listRequest = z.object({ cursorPaging: cursorPagingSchema });
const memberBlocksRequest = memberIdRequest.extend({ cursorPaging: cursorPagingSchema });

export function registerMemberBlockRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const blocks = new MemberBlockStore(ctx.db);
  const query = (request: FastifyRequest) => decodeQueryParams(request.query as Record<string, string>);

  const currentMember = (request: FastifyRequest, action: string) => {
    const caller = ctx.callerOf(request);
    if (caller.kind !== "member") throw permissionDenied(`${action} needs a signed-in member's token.`);
    return caller.id;
  };

  app.post("/members/v1/member-to-member-blocks/members/my", async (request) => {
    const me = currentMember(request, "blockMember");
    const { memberId } = parseWith(memberIdRequest, request.body);
    if (memberId === me) throw selfBlockingForbidden(me);
    if (!ctx.identities.get(memberId)) throw memberNotFound(memberId);
    // A pair has one block at most: the blocked member cannot block the blocker back.
    const blockedBack = blocks.involving(me).some((block) => block.memberId === memberId && block.blockDirection === "BLOCKING");
    if (blockedBack || !blocks.block(me, memberId)) throw memberAlreadyBlocked(me, memberId);
    return {};
  });

  app.delete("/members/v1/member-to-member-blocks/members/my/:memberId", async (request) => {
    const me = currentMember(request, "unblockMember");
    const { memberId } = parseWith(memberIdRequest, query(request));
    if (memberId === me) throw selfUnblockingForbidden(me);
    if (!blocks.unblock(me, memberId)) throw blockDoesNotExist(me, memberId);
    return {};
  });

  app.get("/members/v1/member-to-member-blocks/members/my", async (request) => {
    const me = currentMember(request, "listCurrentMemberBlocking");
    const { page, pagingMetadata } = pageOf(blocks.blockedBy(me), parseWith(listRequest, query(request)).cursorPaging);
    return { blockedMemberIds: page, pagingMetadata };
  });

  // An app's call on Wix: who blocks a member, and whom they block, is the site owner's to read.
  app.get("/members/v1/member-to-member-blocks/members/:memberId", async (request) => {
    if (ctx.callerOf(request).kind !== "admin") throw permissionDenied("listMemberBlocks needs the site's API key or an app's token.");
    const { memberId, cursorPaging } = parseWith(memberBlocksRequest, query(request));
    if (!ctx.identities.get(memberId)) throw memberNotFound(memberId);
    const { page, pagingMetadata } = pageOf(blocks.involving(memberId), cursorPaging);
    return { memberBlocks: page, pagingMetadata };
  });
}
