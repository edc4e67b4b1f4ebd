import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { cursorQuerySchema, cursorQueryPage } from "../http/cursor-query";
import { alreadyExists, invalidArgument, invalidRevision, memberNotFound, notFound, parseWith, permissionDenied } from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { MemberPrivacyStore } from "../member-privacy/store";
import { seesMember, visibilitySettings } from "../members/visibility";
import type { Caller } from "../types";
import { type MemberAbout, MemberAboutStore } from "./store";

/**
 * `@wix/members` `membersAbout` under `/members/v2/abouts` (docs/platform/member-abouts.md): a
 * member writes their own About section (rich content), the site owner anyone's; everyone reads
 * the sections of the members they may see.
 */

const idSchema = z.string().min(1).max(100);
// Rich content as the client sends it: kept whole, within a size a profile section needs.
const contentSchema = z
  .record(z.string(), z.unknown())
  .refine((content) => JSON.stringify(content).length <= 200_000, "content is larger than 200,000 characters of JSON");
const revisionSchema = z.union([z.string().regex(/^\d{1,15}$/, "a revision is a whole number"), z.number().int().nonnegative()]).transform(String);

const createRequest = z.object({ memberAbout: z.object({ memberId: idSchema.nullish(), content: contentSchema }) });
const updateRequest = z.object({ memberAbout: z.object({ memberId: idSchema.nullish(), content: contentSchema, revision: revisionSchema }) });
const idRequest = z.object({ id: idSchema });

const queryRequest = z.object({ query: cursorQuerySchema });

export const aboutWire = ({ id, memberId, content, revision }: MemberAbout) => ({ id, memberId, content, revision: String(revision) });

export function registerMemberAboutRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const abouts = new MemberAboutStore(ctx.db);
  const privacy = new MemberPrivacyStore(ctx.db);
  const params = (request: FastifyRequest) => decodeQueryParams(request.query as Record<string, string>);

  const readable = (caller: Caller, about: MemberAbout, settings = visibilitySettings(ctx, privacy)) => {
    const identity = ctx.identities.get(about.memberId);
    return identity !== null && seesMember(caller, identity, settings);
  };
  /** The section a caller may write: their own, or anyone's for the site owner; 404 otherwise, as for one they cannot see. */
  const writable = (caller: Caller, id: string) => {
    const about = abouts.get(id);
    if (!about || (caller.kind !== "admin" && !(caller.kind === "member" && caller.id === about.memberId))) {
      if (about && readable(caller, about)) throw permissionDenied("A member may change only their own About section.");
      throw notFound(`About section ${id} not found.`);
    }
    return about;
  };

  // createMemberAbout({memberId?, content}) → {memberAbout}: a member's own (memberId left out or theirs), or the site owner's for anyone.
  app.post("/members/v2/abouts", async (request) => {
    const caller = ctx.callerOf(request);
    const { memberId: asked, content } = parseWith(createRequest, request.body).memberAbout;
    let memberId: string;
    if (caller.kind === "admin") {
      if (!asked) throw invalidArgument("memberAbout.memberId: the site owner names the member whose About section this is.");
      memberId = asked;
    } else if (caller.kind === "member" && (!asked || asked === caller.id)) {
      memberId = caller.id;
    } else {
      throw permissionDenied("createMemberAbout needs a signed-in member's token (for their own section) or the site's API key.");
    }
    if (!ctx.identities.get(memberId)) throw memberNotFound(memberId);
    const created = abouts.create(memberId, content);
    if (!created) throw alreadyExists(`Member ${memberId} already has an About section; update it instead.`, { memberId });
    return { memberAbout: aboutWire(created) };
  });

  // updateMemberAbout(id, {content, revision}) → {memberAbout}
  app.patch<{ Params: { id: string } }>("/members/v2/abouts/:id", async (request) => {
    const about = writable(ctx.callerOf(request), request.params.id);
    const { content, revision, memberId } = parseWith(updateRequest, request.body).memberAbout;
    if (memberId && memberId !== about.memberId) throw invalidArgument("memberAbout.memberId cannot change.");
    const updated = abouts.update(about.id, content, Number(revision));
    if (updated === "stale") throw invalidRevision(revision);
    if (!updated) throw notFound(`About section ${about.id} not found.`);
    return { memberAbout: aboutWire(updated) };
  });

  // deleteMemberAbout(id) → {}
  app.delete<{ Params: { id: string } }>("/members/v2/abouts/:id", async (request) => {
    abouts.delete(writable(ctx.callerOf(request), request.params.id).id);
    return {};
  });

  // getMyMemberAbout() → {memberAbout?}: nothing in it while the member has written none.
  app.get("/members/v2/abouts/my", async (request) => {
    const caller = ctx.callerOf(request);
    if (caller.kind !== "member") throw permissionDenied("getMyMemberAbout needs a signed-in member's token.");
    const about = abouts.ofMember(caller.id);
    return about ? { memberAbout: aboutWire(about) } : {};
  });

  // getMemberAbout(id) → {memberAbout}
  app.get<{ Params: { id: string } }>("/members/v2/abouts/:id", async (request) => {
    const { id } = parseWith(idRequest, { ...params(request), id: request.params.id });
    const about = abouts.get(id);
    if (!about || !readable(ctx.callerOf(request), about)) throw notFound(`About section ${id} not found.`);
    return { memberAbout: aboutWire(about) };
  });

  // queryMemberAbouts().eq("memberId", …).find() → {memberAbouts, metadata: {count, cursors, hasNext}}
  app.post("/members/v2/abouts/query", async (request) => {
    const caller = ctx.callerOf(request);
    const { query } = parseWith(queryRequest, request.body ?? {});
    const settings = visibilitySettings(ctx, privacy);
    const visible = abouts
      .all()
      .filter((about) => readable(caller, about, settings))
      .map(aboutWire);
    const { items, count, cursors, hasNext } = cursorQueryPage(visible, query, { defaultLimit: 50, maxLimit: 100 });
    return { memberAbouts: items, metadata: { count, cursors, hasNext } };
  });
}
