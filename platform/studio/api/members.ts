import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../../context";
import { invalidArgument, memberNotFound } from "../../http/errors";
import { platformOrigin } from "../../http/origin";
import { endAllSessions, IdentityService, requirePasswordReset } from "../../identity/iam";
import { settingsPatchSchema } from "../../identity/settings";
import { MEMBER_STATUSES, type SettableStatus } from "../../identity/store";
import { deleteMember, setMemberActivity, setMemberStatus } from "../../members/actions";
import { type ActivityStatus, type Member, MemberStore } from "../../members/store";
import { toMemberWire } from "../../members/wire";

const LIST_QUERY = z.object({
  search: z.string().trim().max(320).optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
});

const RESET_BODY = z.object({ requireNewPassword: z.boolean().default(false) }).prefault({});

/** Unblocking approves again: a member is either waiting, let in, or kept out. */
const STATUS_ACTIONS: Record<string, SettableStatus> = { approve: "APPROVED", block: "BLOCKED", unblock: "APPROVED" };

/** Muting, as the members API's muteMember and unmuteMember. */
const ACTIVITY_ACTIONS: Record<string, ActivityStatus> = { mute: "MUTED", unmute: "ACTIVE" };

/** One row of the members list: what the owner scans for, with every name the search looks at. */
function listed({ identity, activityStatus }: Member) {
  return {
    id: identity.id,
    loginEmail: identity.loginEmail,
    nickname: identity.nickname,
    name: [identity.firstName, identity.lastName].filter(Boolean).join(" ") || null,
    status: identity.status,
    // In the community (a public profile) or not, and muted or not.
    privacyStatus: identity.privacyStatus,
    activityStatus,
    emailVerified: identity.emailVerified,
    createdDate: new Date(identity.createdAt).toISOString(),
  };
}

const matches = (member: Member, search: string) => {
  const { loginEmail, nickname, firstName, lastName, slug } = member.identity;
  const needle = search.toLowerCase();
  return [loginEmail, nickname, firstName, lastName, slug, [firstName, lastName].filter(Boolean).join(" ")].some((value) =>
    value?.toLowerCase().includes(needle),
  );
};

/**
 * The Studio's members (docs/platform/studio.md §5): the same member store, status changes and
 * deletion as the members API, the identity service's reset link, and the sign-up settings
 * `/_local/settings` changes.
 */
export function registerMembersApi(api: FastifyInstance, ctx: PlatformContext) {
  const members = new MemberStore(ctx.db, ctx.identities);
  const identity = new IdentityService(ctx);
  const memberOr404 = (id: string) =>
    members.get(id) ??
    (() => {
      throw memberNotFound(id);
    })();

  api.get("/members", async (request) => {
    const query = LIST_QUERY.safeParse(request.query ?? {});
    if (!query.success) throw invalidArgument(`Give \`search\` as text and \`status\` as one of ${MEMBER_STATUSES.join(", ")}.`);
    const { search, status } = query.data;
    // As on Wix's dashboard, a disconnected member is not listed.
    const all = members.all().filter((member) => member.identity.status !== "OFFLINE");
    const chosen = all.filter((member) => (!status || member.identity.status === status) && (!search || matches(member, search)));
    return { members: chosen.map(listed), total: all.length };
  });

  api.get("/members/sign-up-settings", async () => ctx.settings.get());

  api.patch("/members/sign-up-settings", async (request) => {
    const patch = settingsPatchSchema.safeParse(request.body);
    if (!patch.success)
      throw invalidArgument("Send any of requireEmailVerification, requireOwnerApproval, requireCaptcha, rejectInvisibleCaptcha as true or false.");
    request.log.info({ settings: patch.data }, "sign-up settings changed in the Studio");
    return ctx.settings.update(patch.data);
  });

  api.get<{ Params: { id: string } }>("/members/:id", async (request) => {
    const member = memberOr404(request.params.id);
    return { member: toMemberWire(member, ["FULL"]), liveSessions: ctx.loginSessions.countFor(member.identity.id) };
  });

  for (const [action, status] of Object.entries(STATUS_ACTIONS)) {
    api.post<{ Params: { id: string } }>(`/members/:id/${action}`, async (request) => ({
      member: toMemberWire(setMemberStatus(ctx, members, request.params.id, status), ["FULL"]),
    }));
  }

  for (const [action, status] of Object.entries(ACTIVITY_ACTIONS)) {
    api.post<{ Params: { id: string } }>(`/members/:id/${action}`, async (request) => ({
      member: toMemberWire(setMemberActivity(members, request.params.id, status), ["FULL"]),
    }));
  }

  api.delete<{ Params: { id: string } }>("/members/:id", async (request) => {
    deleteMember(ctx, request.params.id);
    return {};
  });

  api.post<{ Params: { id: string } }>("/members/:id/revoke-sessions", async (request) => {
    memberOr404(request.params.id);
    return { revoked: endAllSessions(ctx, request.params.id) };
  });

  // A reset link in the mailbox; optionally the current password stops working first, as the owner's "require a new password".
  api.post<{ Params: { id: string } }>("/members/:id/password-reset", async (request) => {
    const body = RESET_BODY.safeParse(request.body ?? {});
    if (!body.success) throw invalidArgument("requireNewPassword is true or false.");
    const member = memberOr404(request.params.id);
    if (body.data.requireNewPassword) requirePasswordReset(ctx, member.identity.loginEmail);
    identity.sendResetLink(member.identity, null, platformOrigin(request, ctx.config), "password-reset");
    return { sentTo: member.identity.loginEmail };
  });
}
