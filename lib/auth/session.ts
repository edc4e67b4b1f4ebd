import { z } from "zod";
import { renewalTime, type TokenPair } from "@/lib/wix/oauth";

/**
 * The member's display data kept in the session, so no page view needs a members call for the
 * header. `initial` is set only in the page cache's template sessions, where it is a placeholder
 * of its own (server/page-cache/member-template.ts); a member's initial is their name's first letter.
 */
const sessionMemberSchema = z.object({ id: z.string().min(1).max(200), name: z.string().max(200), initial: z.string().min(1).max(64).optional() });
export type SessionMember = z.infer<typeof sessionMemberSchema>;

/** What the header shows in the member's round badge. */
export function memberInitial(member: Pick<SessionMember, "name" | "initial">): string {
  return member.initial ?? member.name.slice(0, 1);
}

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
  /** Unix seconds when this session began (a member's login); renewals keep it. */
  startedAt: z.number().default(0),
  /** Unix seconds of the last page view, to the nearest SEEN_RESOLUTION_SECONDS. */
  seenAt: z.number().default(0),
  member: sessionMemberSchema.optional(),
});
export type Session = z.infer<typeof sessionSchema>;

/** A new session from fresh tokens; a renewal passes the session it continues, whose start it keeps. */
export function sessionFromTokens(pair: TokenPair, nowSeconds: number, member?: SessionMember, continues?: Session): Session {
  return {
    ...pair,
    issuedAt: nowSeconds,
    renewAt: renewalTime(pair, nowSeconds),
    startedAt: continues?.startedAt || nowSeconds,
    seenAt: Math.max(continues?.seenAt ?? 0, nowSeconds),
    ...(member && { member }),
  };
}

/** Whether middleware must renew the session it found: pure, so it is tested on its own. */
export function isDueForRenewal(session: Session, nowSeconds: number): boolean {
  return nowSeconds >= session.renewAt;
}

/** The last page view is recorded at most this often, so most views write no cookie. */
export const SEEN_RESOLUTION_SECONDS = 5 * 60;

export type MemberSessionLimits = { idleSeconds: number; absoluteSeconds: number };

/**
 * Whether a member session has run out: idle for too long, or too long since the login. A
 * session from before these fields existed counts from its tokens' issue. Visitors never lapse.
 */
export function memberSessionLapsed(session: Session, nowSeconds: number, limits: MemberSessionLimits): boolean {
  if (session.role !== "member") return false;
  const started = session.startedAt || session.issuedAt;
  const seen = session.seenAt || started;
  return nowSeconds - started > limits.absoluteSeconds || nowSeconds - seen > limits.idleSeconds;
}

/** Whether this page view should record itself in the session. */
export function isSeenStale(session: Session, nowSeconds: number): boolean {
  return session.role === "member" && nowSeconds - session.seenAt >= SEEN_RESOLUTION_SECONDS;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
