import type { PlatformContext } from "../context";
import { memberNotFound } from "../http/errors";
import type { MemberStatus } from "../identity/store";
import type { ActivityStatus, Member, MemberStore } from "./store";

/** The site owner's actions on one member, shared by the members API (routes.ts) and the Studio. */

/** Approves, blocks or unblocks (approves again) a member; 404 for an unknown id. */
export function setMemberStatus(members: MemberStore, id: string, status: MemberStatus): Member {
  const member = members.update(id, { status }, {});
  if (!member) throw memberNotFound(id);
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
