import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import type { Caller } from "../types";
import {
  communityJoinImpossible,
  emailAlreadyExists,
  invalidArgument,
  memberNotFound,
  memberToMemberBlocked,
  notFound,
  permissionDenied,
  slugAlreadyExists,
} from "../http/errors";
import { bulkResults } from "../http/bulk-results";
import { decodeQueryParams } from "../http/request-params";
import { hashPassword } from "../identity/passwords";
import { nicknameOrDefault, type IdentityChanges, type SettableStatus } from "../identity/store";
import { MemberBlockStore } from "../member-blocks/store";
import { MemberPrivacyStore } from "../member-privacy/store";
import { newToken } from "../oauth/store";
import { endAccessIfBlocked, deleteMember, disconnectMember, setMemberActivity, setMemberStatus } from "./actions";
import { matchesFilter, matchesSearch, type Paging, pagingSchema, runQuery, type Search, searchSchema, type Sort, sortSchema } from "./query";
import { type ActivityStatus, type Member, MemberStore, type ProfileDetails } from "./store";
import { seesMember, visibilitySettings } from "./visibility";
import { FIELDSETS, type Fieldset, type MemberInput, memberInputSchema, slugSchema, toMemberWire } from "./wire";

/** `fieldsets` arrives as one string or a repeated key; at most three values (docs/platform/members.md §3). */
const fieldsetsSchema = z
  .union([z.enum(FIELDSETS), z.array(z.enum(FIELDSETS)).max(3)])
  .optional()
  .transform((value): Fieldset[] => (value === undefined ? ["PUBLIC"] : Array.isArray(value) ? value : [value]));

const listSchema = z.object({ fieldsets: fieldsetsSchema, paging: pagingSchema, sorting: sortSchema });

const querySchema = z.object({
  fieldsets: fieldsetsSchema,
  query: z
    .object({
      filter: z.record(z.string(), z.unknown()).nullish(),
      paging: pagingSchema,
      // The query builder sends `sort`; the typings call it `sorting`.
      sort: sortSchema.optional(),
      sorting: sortSchema.optional(),
    })
    .prefault({}),
  search: searchSchema,
});

const bulkDeleteSchema = z.object({ memberIds: z.array(z.string().min(1).max(100)).min(1).max(100) });

const byFilterSchema = z.object({
  filter: z.record(z.string(), z.unknown()),
  search: searchSchema,
  contentAssigneeId: z.string().max(100).nullish(),
});

const slugBodySchema = z.object({ slug: slugSchema });
const createSchema = z.object({ member: memberInputSchema.extend({ loginEmail: z.string().email().max(254) }) });
const updateSchema = z.object({ member: memberInputSchema });

function parse<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.join(".") || "request";
  throw invalidArgument(`${field}: ${issue.message}`);
}

const queryOf = (request: FastifyRequest) => decodeQueryParams(request.query as Record<string, string | string[] | undefined>);

function requireAdmin(caller: Caller, action: string): void {
  if (caller.kind !== "admin") throw permissionDenied(`${action} needs the site's API key.`);
}

function requireMember(caller: Caller, action: string): string {
  if (caller.kind !== "member") throw permissionDenied(`${action} needs a signed-in member's token; this caller is not a member.`);
  return caller.id;
}

const isSelf = (caller: Caller, id: string) => caller.kind === "member" && caller.id === id;

/** Only the admin and the member themselves may see more than the public profile. */
function assertFieldsetsAllowed(caller: Caller, fieldsets: Fieldset[], subjectId: string | null): void {
  const beyondPublic = fieldsets.some((set) => set !== "PUBLIC");
  if (beyondPublic && caller.kind !== "admin" && (subjectId === null || !isSelf(caller, subjectId))) {
    throw permissionDenied("Only the site's API key, or the member themselves, may read the EXTENDED or FULL fieldsets.");
  }
}

/** A member may change only themselves; the admin anyone. Status changes are the admin's alone. */
function assertMayEdit(caller: Caller, id: string): void {
  if (caller.kind !== "admin" && !isSelf(caller, id)) throw permissionDenied("A member may change only their own profile.");
}

/** Splits a member input into identity changes and profile details; arrays replace whole, empty arrays are ignored. */
function splitInput(input: MemberInput): { changes: IdentityChanges; details: ProfileDetails } {
  const { profile = {}, contact = {} } = input;
  const nonEmpty = <T>(list: T[] | undefined) => (list && list.length > 0 ? list : undefined);
  const details: ProfileDetails = {
    photo: profile.photo,
    cover: profile.cover,
    title: profile.title,
    emails: nonEmpty(contact.emails),
    phones: nonEmpty(contact.phones),
    addresses: nonEmpty(contact.addresses)?.map((address) => ({ ...address, id: address.id ?? randomUUID() })),
    birthdate: contact.birthdate,
    company: contact.company,
    jobTitle: contact.jobTitle,
    customFields: contact.customFields,
  };
  const changes: IdentityChanges = {
    nickname: profile.nickname,
    firstName: contact.firstName,
    lastName: contact.lastName,
    privacyStatus: input.privacyStatus,
    status: input.status,
  };
  const defined = <T extends object>(record: T) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
  return { changes: defined(changes), details: defined(details) };
}

export function registerMemberRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const members = new MemberStore(ctx.db, ctx.identities);
  const privacy = new MemberPrivacyStore(ctx.db);
  const blocks = new MemberBlockStore(ctx.db);
  /**
   * The blocks a member caller is part of, by the other member's id (docs/platform/member-blocks.md):
   * they shape what members see of each other; other callers are not affected.
   */
  const blocksOf = (caller: Caller) =>
    new Map(caller.kind === "member" ? blocks.involving(caller.id).map((block) => [block.memberId, block.blockDirection]) : []);
  const visibleTo = (caller: Caller, member: Member, settings = visibilitySettings(ctx, privacy)) => seesMember(caller, member.identity, settings);
  /** Whether the site lets members make their profile public (the privacy settings' candidates). */
  const assertMayBePublic = () => {
    if (privacy.settings().publicMemberCandidates === "NO_ONE") throw communityJoinImpossible();
  };

  const memberOr404 = (id: string) =>
    members.get(id) ??
    (() => {
      throw memberNotFound(id);
    })();

  const fullReply = (id: string) => ({ member: toMemberWire(memberOr404(id), ["FULL"]) });

  const applySlug = (id: string, slug: string): void => {
    const result = ctx.identities.setSlug(id, slug);
    if (result === "taken") throw slugAlreadyExists(slug);
    if (result === null) throw memberNotFound(id);
  };

  const setStatus = (request: FastifyRequest<{ Params: { id: string } }>, status: SettableStatus, action: string) => {
    requireAdmin(ctx.callerOf(request), action);
    return { member: toMemberWire(setMemberStatus(ctx, members, request.params.id, status), ["FULL"]) };
  };

  const setActivity = (request: FastifyRequest<{ Params: { id: string } }>, status: ActivityStatus, action: string) => {
    requireAdmin(ctx.callerOf(request), action);
    return { member: toMemberWire(setMemberActivity(members, request.params.id, status), ["FULL"]) };
  };

  /** Joining the community makes the member's profile public; leaving it makes it private. */
  const setCommunity = (request: FastifyRequest, privacyStatus: Member["identity"]["privacyStatus"], action: string) => {
    const id = requireMember(ctx.callerOf(request), action);
    if (privacyStatus === "PUBLIC") assertMayBePublic();
    if (!members.update(id, { privacyStatus }, {})) throw notFound("The current member no longer exists.");
    return fullReply(id);
  };

  const removeMember = (id: string) => {
    deleteMember(ctx, id);
    return {};
  };

  /**
   * Filters and sorts over what the caller may read (all fields for the admin, the public
   * profile for others), then answers in the requested fieldsets.
   */
  const findMembers = (caller: Caller, fieldsets: Fieldset[], filter: unknown, sort: Sort, paging: Paging, search?: Search) => {
    const readable: Fieldset[] = caller.kind === "admin" ? ["FULL"] : ["PUBLIC"];
    const settings = visibilitySettings(ctx, privacy);
    const blocked = blocksOf(caller);
    const visible = new Map(
      members
        .all()
        .filter((member) => visibleTo(caller, member, settings) && !blocked.has(member.identity.id))
        .map((member) => [member.identity.id, member]),
    );
    const readableRecords = [...visible.values()].map((member) => toMemberWire(member, readable));
    const { items, metadata } = runQuery(readableRecords, filter, sort, paging, search);
    return { members: items.map((record) => toMemberWire(visible.get(record.id)!, fieldsets)), metadata };
  };

  // getCurrentMember({fieldsets}) → {member}
  app.get("/members/v1/members/my", async (request) => {
    const id = requireMember(ctx.callerOf(request), "getCurrentMember");
    const { fieldsets } = parse(z.object({ fieldsets: fieldsetsSchema }), queryOf(request));
    const member = members.get(id);
    if (!member) throw notFound("The current member no longer exists.");
    return { member: toMemberWire(member, fieldsets) };
  });

  // deleteMyMember() → {}
  app.delete("/members/v1/members/my", async (request) => removeMember(requireMember(ctx.callerOf(request), "deleteMyMember")));

  // updateCurrentMemberSlug(slug) → {member}
  app.post("/members/v1/members/my/slug", async (request) => {
    const id = requireMember(ctx.callerOf(request), "updateCurrentMemberSlug");
    applySlug(id, parse(slugBodySchema, request.body).slug);
    return fullReply(id);
  });

  // getMember(id, {fieldsets}) → {member}
  app.get<{ Params: { id: string } }>("/members/v1/members/:id", async (request) => {
    const caller = ctx.callerOf(request);
    const { fieldsets } = parse(z.object({ fieldsets: fieldsetsSchema }), queryOf(request));
    assertFieldsetsAllowed(caller, fieldsets, request.params.id);
    const member = members.get(request.params.id);
    if (!member || !visibleTo(caller, member)) throw memberNotFound(request.params.id);
    // Blocked by them: as if they did not exist. Blocking them: a refusal that says so.
    const block = blocksOf(caller).get(member.identity.id);
    if (block === "BLOCKING") throw memberNotFound(request.params.id);
    if (block === "BLOCKED") throw memberToMemberBlocked(request.params.id);
    return { member: toMemberWire(member, fieldsets) };
  });

  // listMembers({paging, sorting, fieldsets}) → {members, metadata}
  app.get("/members/v1/members", async (request) => {
    const caller = ctx.callerOf(request);
    const { fieldsets, paging, sorting } = parse(listSchema, queryOf(request));
    assertFieldsetsAllowed(caller, fieldsets, null);
    return findMembers(caller, fieldsets, undefined, sorting, paging);
  });

  // queryMembers({search}).find() → {members, metadata}; the filter and the search see only the fields the caller may read.
  app.post("/members/v1/members/query", async (request) => {
    const caller = ctx.callerOf(request);
    const { fieldsets, query, search } = parse(querySchema, request.body ?? {});
    assertFieldsetsAllowed(caller, fieldsets, null);
    return findMembers(caller, fieldsets, query.filter, query.sort ?? query.sorting ?? [], query.paging, search);
  });

  // joinCommunity() / leaveCommunity() → {member}: the current member's profile becomes public / private.
  app.post("/members/v1/members/join-community", async (request) => setCommunity(request, "PUBLIC", "joinCommunity"));
  app.post("/members/v1/members/leave-community", async (request) => setCommunity(request, "PRIVATE", "leaveCommunity"));

  // bulkDeleteMembers(memberIds) → {results, bulkActionMetadata}: each id on its own; an unknown one fails alone.
  app.post("/members/v1/members/bulk/delete", async (request) => {
    requireAdmin(ctx.callerOf(request), "bulkDeleteMembers");
    const { memberIds } = parse(bulkDeleteSchema, request.body);
    return bulkResults(memberIds, (id) => {
      deleteMember(ctx, id);
      return { id };
    });
  });

  /**
   * The by-filter bulk actions: the filter (and search) sees every member's full record, as the
   * site owner does; each match is changed at once, so the job whose id the reply names is
   * already done when the reply arrives (there is no job to look up locally). Approving and
   * blocking pass over disconnected members, whose status stays `OFFLINE`.
   */
  const forEachMatch = (request: FastifyRequest, action: string, apply: (id: string) => void, { withDisconnected = false } = {}) => {
    requireAdmin(ctx.callerOf(request), action);
    const { filter, search } = parse(byFilterSchema, request.body);
    const candidates = members.all().filter((member) => withDisconnected || member.identity.status !== "OFFLINE");
    const matching = candidates.filter((member) => {
      const record = toMemberWire(member, ["FULL"]);
      return matchesFilter(record, filter) && matchesSearch(record, search);
    });
    ctx.db.transaction(() => matching.forEach((member) => apply(member.identity.id)))();
    return { jobId: randomUUID() };
  };

  // bulkApproveMembers(filter) / bulkBlockMembers(filter) / bulkDeleteMembersByFilter(filter, {search}) → {jobId}
  app.post("/members/v1/members/bulk/approve-by-filter", async (request) =>
    forEachMatch(request, "bulkApproveMembers", (id) => setMemberStatus(ctx, members, id, "APPROVED")),
  );
  app.post("/members/v1/members/bulk/block-by-filter", async (request) =>
    forEachMatch(request, "bulkBlockMembers", (id) => setMemberStatus(ctx, members, id, "BLOCKED")),
  );
  app.post("/members/v1/members/bulk/delete-by-filter", async (request) =>
    forEachMatch(request, "bulkDeleteMembersByFilter", (id) => deleteMember(ctx, id), { withDisconnected: true }),
  );

  // createMember({member}) → {member}; the new member has no usable password until they reset it.
  app.post("/members/v1/members", async (request) => {
    requireAdmin(ctx.callerOf(request), "createMember");
    const { member: input } = parse(createSchema, request.body);
    const { changes, details } = splitInput(input);
    const passwordHash = await hashPassword(newToken("UNUSABLE"));
    // One transaction: a taken slug leaves no half-created member behind.
    const id = ctx.db.transaction(() => {
      const created = members.create(
        {
          email: input.loginEmail,
          passwordHash,
          nickname: nicknameOrDefault(changes),
          firstName: changes.firstName,
          lastName: changes.lastName,
          privacyStatus: privacy.initialPrivacy(changes.privacyStatus),
          status: changes.status,
        },
        details,
      );
      if (!created) {
        throw emailAlreadyExists(input.loginEmail);
      }
      if (input.profile?.slug) applySlug(created.identity.id, input.profile.slug);
      return created.identity.id;
    })();
    return fullReply(id);
  });

  // updateMember(id, member) → {member}: only the given fields change.
  app.patch<{ Params: { id: string } }>("/members/v1/members/:id", async (request) => {
    const caller = ctx.callerOf(request);
    const id = request.params.id;
    assertMayEdit(caller, id);
    const { member: input } = parse(updateSchema, request.body);
    if (input.status !== undefined) requireAdmin(caller, "Changing a member's status");
    if (input.privacyStatus === "PUBLIC") assertMayBePublic();
    if (input.loginEmail !== undefined && input.loginEmail !== members.get(id)?.identity.loginEmail) {
      throw invalidArgument("member.loginEmail cannot be changed through updateMember.");
    }
    const { changes, details } = splitInput(input);
    ctx.db.transaction(() => {
      const member = members.update(id, changes, details);
      if (!member) throw memberNotFound(id);
      if (input.profile?.slug) applySlug(id, input.profile.slug);
      if (changes.status !== undefined) endAccessIfBlocked(ctx, member);
    })();
    return fullReply(id);
  });

  // deleteMemberEmails / deleteMemberPhones / deleteMemberAddresses(id) → {member}
  for (const list of ["emails", "phones", "addresses"] as const) {
    app.delete<{ Params: { id: string } }>(`/members/v1/members/:id/${list}`, async (request) => {
      assertMayEdit(ctx.callerOf(request), request.params.id);
      if (!members.clearList(request.params.id, list)) throw memberNotFound(request.params.id);
      return fullReply(request.params.id);
    });
  }

  // updateMemberSlug(id, slug) → {member}
  app.post<{ Params: { id: string } }>("/members/v1/members/:id/slug", async (request) => {
    assertMayEdit(ctx.callerOf(request), request.params.id);
    applySlug(request.params.id, parse(slugBodySchema, request.body).slug);
    return fullReply(request.params.id);
  });

  app.post<{ Params: { id: string } }>("/members/v1/members/:id/approve", async (request) => setStatus(request, "APPROVED", "approveMember"));
  app.post<{ Params: { id: string } }>("/members/v1/members/:id/block", async (request) => setStatus(request, "BLOCKED", "blockMember"));
  app.post<{ Params: { id: string } }>("/members/v1/members/:id/disconnect", async (request) => {
    requireAdmin(ctx.callerOf(request), "disconnectMember");
    return { member: toMemberWire(disconnectMember(ctx, members, request.params.id), ["FULL"]) };
  });
  app.post<{ Params: { id: string } }>("/members/v1/members/:id/mute", async (request) => setActivity(request, "MUTED", "muteMember"));
  app.post<{ Params: { id: string } }>("/members/v1/members/:id/unmute", async (request) => setActivity(request, "ACTIVE", "unmuteMember"));

  // deleteMember(id) → {}
  app.delete<{ Params: { id: string } }>("/members/v1/members/:id", async (request) => {
    requireAdmin(ctx.callerOf(request), "deleteMember");
    return removeMember(request.params.id);
  });
}
