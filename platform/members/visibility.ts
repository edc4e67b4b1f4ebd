import type { Identity } from "../identity/store";
import type { PrivacySettings } from "../member-privacy/store";
import type { Caller } from "../types";

/**
 * Whether a caller may see a member (docs/platform/members.md §3): the site owner sees everyone;
 * no one else sees a disconnected member; a member sees themselves; others see a public profile,
 * unless the site lets no one be public, or shows public profiles to signed-in members only.
 */
export function seesMember(
  caller: Caller,
  identity: Pick<Identity, "id" | "status" | "privacyStatus">,
  settings: Pick<PrivacySettings, "publicMemberVisibility" | "publicMemberCandidates">,
): boolean {
  if (caller.kind === "admin") return true;
  if (identity.status === "OFFLINE") return false;
  if (caller.kind === "member" && caller.id === identity.id) return true;
  if (identity.privacyStatus !== "PUBLIC" || settings.publicMemberCandidates === "NO_ONE") return false;
  return settings.publicMemberVisibility === "VISIBLE_TO_ALL" || caller.kind === "member";
}
