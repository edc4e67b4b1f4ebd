import { getConfig } from "@/lib/config";
import { type CookieReader, type CookieWriter, cookieOptions, seal, unseal } from "./cookie-sealing";
import { noticeCookieName, sessionCookieName, verificationCookieName } from "./cookie-names";
import { memberSessionLapsed, nowSeconds, sessionSchema, type Session, type SessionMember } from "./session";
import { sessionStands } from "./session-check";
import { mayServeFromTemplate } from "./session-decision";

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

/**
 * The member a request may be answered for from a page cache template (server/page-cache), or
 * null when it must go to Next.js: the decision middleware's own (lib/auth/session-decision.ts).
 * Like middleware, a page view (not a prefetch) asks the platform whether the member's token
 * still stands: a session it ended (a block, "Sign out everywhere") goes to Next.js, whose
 * middleware ends it with the notice.
 */
export async function templateViewer(cookies: CookieReader, { prefetch = false } = {}): Promise<SessionMember | null> {
  const loaded = { ...(await loadSession(cookies)), cookiePresent: hasSessionCookie(cookies) };
  const pending = { notice: cookies.get(noticeCookieName()) !== undefined, verification: cookies.get(verificationCookieName()) !== undefined };
  if (!mayServeFromTemplate(loaded, pending, nowSeconds())) return null;
  if (!prefetch && !(await sessionStands(loaded.session))) return null;
  return loaded.session.member ?? null;
}

/**
 * The Cookie header of the page cache's template member: a member session that opens and that
 * middleware leaves as it is, for an id nobody has, with tokens no platform issued (any read made
 * with them is refused), and placeholders for the name and initial.
 */
export async function templateSessionCookie(member: Required<SessionMember>, tokens: { accessToken: string; refreshToken: string }): Promise<string> {
  const now = nowSeconds();
  const session: Session = { ...tokens, role: "member", expiresAt: now + 3600, renewAt: now + 3600, issuedAt: now, startedAt: now, seenAt: now, member };
  return `${sessionCookieName()}=${await seal(session, SESSION_MAX_AGE_SECONDS)}`;
}
