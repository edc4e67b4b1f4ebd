import { getConfig } from "@/lib/config";
import { type CookieReader, type CookieWriter, cookieOptions, seal, unseal } from "./cookie-sealing";
import { sessionCookieName } from "./cookie-names";
import { memberSessionLapsed, nowSeconds, sessionSchema, type Session } from "./session";

// The session cookie: a visitor's or member's tokens, sealed.

/** Visitor and member sessions both last as long as their refresh token is honoured. */
export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

/**
 * The session a cookie holds, and whether it was a member session that ran out (idle or too
 * old): that one is not returned, and middleware ends it with a notice.
 */
export async function loadSession(cookies: CookieReader): Promise<{ session: Session | null; lapsed: boolean }> {
  // Read several times a view (middleware, the header, each component that asks): opened once per process.
  const session = await unseal(cookies.get(sessionCookieName())?.value, SESSION_MAX_AGE_SECONDS, sessionSchema, { remember: true });
  if (session && memberSessionLapsed(session, nowSeconds(), getConfig().memberSession)) return { session: null, lapsed: true };
  return { session, lapsed: false };
}

export async function readSession(cookies: CookieReader): Promise<Session | null> {
  return (await loadSession(cookies)).session;
}

export function hasSessionCookie(cookies: CookieReader): boolean {
  return cookies.get(sessionCookieName()) !== undefined;
}

export async function writeSession(cookies: CookieWriter, session: Session): Promise<void> {
  cookies.set(sessionCookieName(), await seal(session, SESSION_MAX_AGE_SECONDS), cookieOptions("/", SESSION_MAX_AGE_SECONDS));
}

export function clearSession(cookies: CookieWriter): void {
  cookies.set(sessionCookieName(), "", cookieOptions("/", 0));
}
