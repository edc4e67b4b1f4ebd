import { redirect } from "next/navigation";
import { readAsMember, requireMember } from "@/lib/auth/request-session";
import { loginPageHref } from "@/lib/auth/routes";
import { currentProfile } from "@/lib/wix/members";

/**
 * "View my profile" in the member menu: the session knows the member's id and name, not their
 * profile address, which they may have just changed, so it is looked up when asked for.
 */
export default async function MyProfilePage() {
  const session = await requireMember("/account/profile");
  const { slug } = await readAsMember(session, "/account/profile", currentProfile, loginPageHref("/account/profile"));
  redirect(slug ? `/members/${encodeURIComponent(slug)}` : "/account#profile-address");
}
