import "server-only";
import { z } from "zod";
import { clientFor } from "./client";
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

/** The member an access token belongs to. */
export async function currentMember(accessToken: string): Promise<Member> {
  const { member } = await clientFor(accessToken).members.getCurrentMember({ fieldsets: ["FULL"] });
  const parsed = memberData.parse(member);
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
