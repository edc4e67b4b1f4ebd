import "server-only";
import { z } from "zod";
import { sessionClient, type WixClient } from "./client";
import { date, text } from "./reshape";

/** The signed-in member as the site shows them. */
export type Member = {
  id: string;
  name: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  joinedAt?: Date;
};

const memberData = z.object({
  _id: z.string(),
  loginEmail: z.string().optional().catch(undefined),
  profile: z.object({ nickname: text }).partial().optional().catch(undefined),
  contact: z.object({ firstName: text, lastName: text }).partial().optional().catch(undefined),
  _createdDate: date,
});

/** Reshapes the platform's member into the site's. */
function toMember(raw: unknown): Member {
  const parsed = memberData.parse(raw);
  const firstName = parsed.contact?.firstName || undefined;
  const lastName = parsed.contact?.lastName || undefined;
  const fullName = [firstName, lastName].filter(Boolean).join(" ");
  return {
    id: parsed._id,
    name: parsed.profile?.nickname || fullName || parsed.loginEmail || "Member",
    email: parsed.loginEmail,
    firstName,
    lastName,
    joinedAt: parsed._createdDate,
  };
}

/** The member a session's client belongs to. */
export async function currentMember(client: WixClient): Promise<Member> {
  const { member } = await client.members.getCurrentMember({ fieldsets: ["FULL"] });
  return toMember(member);
}

/** How long a login waits for the member's display name before going on without it. */
export const DISPLAY_LOOKUP_TIMEOUT_MS = 3_000;

/** The id and display name the header shows, bounded in time. */
export async function memberDisplay(accessToken: string): Promise<{ id: string; name: string }> {
  const { id, name } = await currentMember(sessionClient(accessToken, AbortSignal.timeout(DISPLAY_LOOKUP_TIMEOUT_MS)));
  return { id, name };
}
