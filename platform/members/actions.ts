import type { PlatformContext } from "../context";
import { memberDisconnected, memberNotFound } from "../http/errors";
import { BRANDING } from "../identity/branding";
import { endAllSessions } from "../identity/iam";
import type { Identity, SettableStatus } from "../identity/store";
import type { NewMail } from "../mail/outbox";
import type { ActivityStatus, Member, MemberStore } from "./store";

/** The site owner's actions on one member, shared by the members API (routes.ts), the Studio and the CLI. */

type StatusContext = Pick<PlatformContext, "outbox" | "config" | "loginSessions" | "tokens">;

/**
 * Approves, blocks or unblocks (approves again) a member; 404 for an unknown id, 400 for a
 * disconnected one. Approving a sign-up that was waiting mails the member that they can log in,
 * as the sign-up form promised. A block ends the member's access at once (endAccessIfBlocked).
 */
export function setMemberStatus(ctx: StatusContext, members: MemberStore, id: string, status: SettableStatus): Member {
  const before = members.get(id);
  if (before?.identity.status === "OFFLINE") throw memberDisconnected(id);
  const member = before && members.update(id, { status }, {});
  if (!before || !member) throw memberNotFound(id);
  if (before.identity.status === "PENDING" && status === "APPROVED") ctx.outbox.send(approvedMessage(member.identity, ctx.config.siteUrl));
  endAccessIfBlocked(ctx, member);
  return member;
}

/**
 * A blocked member keeps nothing: their platform login sessions end (no silent sign-in from the
 * hosted pages' cookie) and every token pair they hold is revoked, as for a disconnected or
 * deleted member. Called after any change that may have blocked them (updateMember sets the status too).
 */
export function endAccessIfBlocked(ctx: Pick<PlatformContext, "loginSessions" | "tokens">, member: Member): void {
  if (member.identity.status === "BLOCKED") endAllSessions(ctx, member.identity.id);
}

/**
 * Disconnects a member for good: status `OFFLINE`, no login and no tokens (their login sessions
 * end too), out of the community's sight, the profile kept (its slug stays taken); 404 for an unknown id.
 */
export function disconnectMember(ctx: Pick<PlatformContext, "loginSessions" | "tokens">, members: MemberStore, id: string): Member {
  const member = members.update(id, { status: "OFFLINE" }, {});
  if (!member) throw memberNotFound(id);
  endAllSessions(ctx, id);
  return member;
}

/** Mutes or unmutes a member; 404 for an unknown id. */
export function setMemberActivity(members: MemberStore, id: string, status: ActivityStatus): Member {
  const member = members.setActivityStatus(id, status);
  if (!member) throw memberNotFound(id);
  return member;
}

/** The mail a member waiting for approval gets once approved. */
export function approvedMessage(identity: Identity, siteUrl: string): NewMail {
  return {
    to: identity.loginEmail,
    kind: "approved",
    subject: `You can now log in to ${BRANDING.name}`,
    text:
      `A club organiser has approved your account, so you can log in now: ${siteUrl}/login\n\n` +
      "Log in with the e-mail address and password you signed up with. If you have forgotten the password, " +
      `set a new one with “Forgot password?”: ${siteUrl}/forgot-password`,
    link: `${siteUrl}/login`,
  };
}

/** Deletes a member with their profile, and revokes every token they hold; 404 for an unknown id. */
export function deleteMember(ctx: Pick<PlatformContext, "identities" | "tokens">, id: string): void {
  if (!ctx.identities.delete(id)) throw memberNotFound(id);
  ctx.tokens.revokeSubject(id);
}
