import { sealData, unsealData } from "iron-session";
import { getConfig } from "@/lib/config";
import type { TokenPair } from "@/lib/wix/oauth";

/**
 * What the encrypted session cookie holds: the token pair, when to renew it, and for members
 * the id and display name the header shows (so no page view needs a members call for them).
 */
export type Session = TokenPair & {
  /** Unix seconds after which middleware renews the access token, a little before it expires. */
  renewAt: number;
  member?: SessionMember;
};

export type SessionMember = { id: string; name: string };

export const SESSION_COOKIE = "wms_session";
/** Visitor and member sessions both last as long as their refresh token is honoured. */
const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

export function sessionFromTokens(pair: TokenPair, nowSeconds: number, member?: SessionMember): Session {
  // Renew a minute early, or a quarter of the lifetime early for short-lived tokens.
  const lifetime = Math.max(0, pair.expiresAt - nowSeconds);
  return { ...pair, renewAt: pair.expiresAt - Math.min(60, Math.floor(lifetime / 4)), ...(member && { member }) };
}

export async function sealSession(session: Session): Promise<string> {
  return sealData(session, { password: getConfig().sessionSecret, ttl: SESSION_MAX_AGE_SECONDS });
}

/** The session in a cookie value, or null when it is absent, tampered with, expired or malformed. */
export async function unsealSession(value: string | undefined): Promise<Session | null> {
  if (!value) return null;
  try {
    const data = await unsealData<Partial<Session>>(value, { password: getConfig().sessionSecret, ttl: SESSION_MAX_AGE_SECONDS });
    const valid =
      typeof data.accessToken === "string" &&
      typeof data.refreshToken === "string" &&
      typeof data.expiresAt === "number" &&
      typeof data.renewAt === "number" &&
      (data.role === "visitor" || (data.role === "member" && typeof data.member?.id === "string" && typeof data.member.name === "string"));
    return valid ? (data as Session) : null;
  } catch {
    return null;
  }
}

export function sessionCookieOptions() {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    secure: getConfig().siteUrl.protocol === "https:",
    path: "/",
    maxAge: SESSION_MAX_AGE_SECONDS,
  };
}
