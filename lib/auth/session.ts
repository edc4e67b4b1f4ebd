import { z } from "zod";
import { renewalTime, type TokenPair } from "@/lib/wix/oauth";

/** The member's display data kept in the session, so no page view needs a members call for the header. */
const sessionMemberSchema = z.object({ id: z.string().min(1).max(200), name: z.string().max(200) });
export type SessionMember = z.infer<typeof sessionMemberSchema>;

/**
 * What the encrypted session cookie holds: the token pair, when to renew it, and for members
 * their display data. A member session may lack the display data when the members service
 * failed at login; middleware fills it in at the next renewal.
 */
export const sessionSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  role: z.enum(["visitor", "member"]),
  /** Unix seconds. */
  expiresAt: z.number(),
  /** Unix seconds after which middleware renews the access token, a little before it expires. */
  renewAt: z.number(),
  /** Unix seconds when these tokens were issued; a token refused right after issue is dead, not stale. */
  issuedAt: z.number().default(0),
  member: sessionMemberSchema.optional(),
});
export type Session = z.infer<typeof sessionSchema>;

export function sessionFromTokens(pair: TokenPair, nowSeconds: number, member?: SessionMember): Session {
  return { ...pair, issuedAt: nowSeconds, renewAt: renewalTime(pair, nowSeconds), ...(member && { member }) };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
