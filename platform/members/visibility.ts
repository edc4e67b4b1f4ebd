import type { PlatformContext } from "../context";
import type { SignupSettings } from "../identity/settings";
import type { Identity } from "../identity/store";
import type { MemberPrivacyStore, PrivacySettings } from "../member-privacy/store";
import type { Caller } from "../types";

/** What decides who sees a member: the privacy settings, and whether the site asks for confirmed e-mails. */
export type VisibilitySettings = Pick<PrivacySettings, "publicMemberVisibility" | "publicMemberCandidates"> & Pick<SignupSettings, "requireEmailVerification">;

/** The settings `seesMember` goes by, as they stand now. */
export function visibilitySettings(ctx: Pick<PlatformContext, "settings">, privacy: MemberPrivacyStore): VisibilitySettings {
  return { ...privacy.settings(), requireEmailVerification: ctx.settings.get().requireEmailVerification };
}

/**
 * Whether a caller may see a member (docs/platform/members.md §3): the site owner sees everyone;
 * no one else sees a disconnected member; a member sees themselves. Others see only a member who
 * can log in: approved (not waiting for the owner, not blocked) and past the e-mail confirmation
 * when the site asks for one, or anyone could put a name on the club's directory by signing up.
 * Of those, a public profile, unless the site lets no one be public, or shows public profiles to
 * signed-in members only.
 */
export function seesMember(
  caller: Caller,
  identity: Pick<Identity, "id" | "status" | "privacyStatus" | "emailVerified">,
  settings: VisibilitySettings,
): boolean {
  if (caller.kind === "admin") return true;
  if (identity.status === "OFFLINE") return false;
  if (caller.kind === "member" && caller.id === identity.id) return true;
  if (identity.status !== "APPROVED" || (settings.requireEmailVerification && !identity.emailVerified)) return false;
  if (identity.privacyStatus !== "PUBLIC" || settings.publicMemberCandidates === "NO_ONE") return false;
  return settings.publicMemberVisibility === "VISIBLE_TO_ALL" || caller.kind === "member";
}
