import type { PlatformContext } from "../context";
import { memberDisconnected, memberNotFound } from "../http/errors";
import type { SettableStatus } from "../identity/store";
import type { ActivityStatus, Member, MemberStore } from "./store";

/** The site owner's actions on one member, shared by the members API (routes.ts) and the Studio. */

/** Approves, blocks or unblocks (approves again) a member; 404 for an unknown id, 400 for a disconnected one. */
export function setMemberStatus(members: MemberStore, id: string, status: SettableStatus): Member {
  if (members.get(id)?.identity.status === "OFFLINE") throw memberDisconnected(id);
  const member = members.update(id, { status }, {});
  if (!member) throw memberNotFound(id);
  return member;
}

/**
 * Disconnects a member for good: status `OFFLINE`, no login and no tokens, out of the community's
 * sight, the profile kept (its slug stays taken); 404 for an unknown id.
 */
export function disconnectMember(ctx: Pick<PlatformContext, "tokens">, members: MemberStore, id: string): Member {
  const member = members.update(id, { status: "OFFLINE" }, {});
  if (!member) throw memberNotFound(id);
  ctx.tokens.revokeSubject(id);
  return member;
}

/** Mutes or unmutes a member; 404 for an unknown id. */
export function setMemberActivity(members: MemberStore, id: string, status: ActivityStatus): Member {
  const member = members.setActivityStatus(id, status);
  if (!member) throw memberNotFound(id);
  return member;
}

/** Deletes a member with their profile, and revokes every token they hold; 404 for an unknown id. */
export function deleteMember(ctx: Pick<PlatformContext, "identities" | "tokens">, id: string): void {
  if (!ctx.identities.delete(id)) throw memberNotFound(id);
  ctx.tokens.revokeSubject(id);
}
