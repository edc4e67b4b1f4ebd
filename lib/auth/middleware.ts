import { NextResponse, type NextRequest } from "next/server";
import { NOTICE_COOKIE, SESSION_ENDED, noticeCookieOptions } from "./notice";
import { isPrefetch } from "./prefetch";
import { decideTokenAction, renewSession } from "./refresh";
import { SESSION_COOKIE, sealSession, sessionCookieOptions, unsealSession, type Session } from "./session";

/** Wix-hosted pages add this to the URL they return to: true after a login there, false after a logout. */
const MEMBER_LOGGED_IN_PARAM = "wixMemberLoggedIn";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Makes sure every request reaches the app with a live token pair. A renewed cookie is
 * written to the response and also into the request itself, so server components see the
 * new tokens in this same request (pitfall P3). A member whose refresh token is refused
 * becomes a visitor and gets a one-time notice, shown on the page this request renders.
 */
export async function withSession(request: NextRequest): Promise<NextResponse> {
  const prefetch = isPrefetch(request.headers);
  const current = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
  if (!prefetch && request.method === "GET" && request.nextUrl.searchParams.has(MEMBER_LOGGED_IN_PARAM)) {
    return reconcileHostedPageReturn(request, current);
  }

  const set: Array<[string, string, object]> = [];
  if (decideTokenAction(current, nowSeconds()) !== "keep") {
    try {
      const renewal = await renewSession(current, nowSeconds());
      set.push([SESSION_COOKIE, await sealSession(renewal.session), sessionCookieOptions()]);
      if (renewal.memberSessionEnded) set.push([NOTICE_COOKIE, SESSION_ENDED, noticeCookieOptions]);
    } catch (error) {
      // The platform is unreachable or failing: keep whatever the visitor has and let the page report it.
      console.error("Session renewal failed:", error instanceof Error ? error.message.split("\n")[0] : "unknown error");
    }
  }
  // A notice is shown once: the next real navigation removes it.
  const consumeNotice = !prefetch && request.cookies.has(NOTICE_COOKIE) && !set.some(([name]) => name === NOTICE_COOKIE);
  if (set.length === 0 && !consumeNotice) return NextResponse.next();

  for (const [name, value] of set) request.cookies.set(name, value);
  if (consumeNotice) request.cookies.delete(NOTICE_COOKIE);
  const response = NextResponse.next({ request: { headers: request.headers } });
  for (const [name, value, options] of set) response.cookies.set(name, value, options);
  if (consumeNotice) response.cookies.set(NOTICE_COOKIE, "", { ...noticeCookieOptions, maxAge: 0 });
  response.headers.set("cache-control", "private, no-store");
  return response;
}

/**
 * After a login on a Wix-hosted page a visitor here signs in silently (prompt=none); after a
 * logout there a member here is signed out. Either way the parameter leaves the URL.
 */
function reconcileHostedPageReturn(request: NextRequest, current: Session | null): NextResponse {
  const clean = request.nextUrl.clone();
  const loggedIn = clean.searchParams.get(MEMBER_LOGGED_IN_PARAM) === "true";
  clean.searchParams.delete(MEMBER_LOGGED_IN_PARAM);
  const isMember = current?.role === "member";
  if (loggedIn && !isMember) {
    const login = new URL("/api/auth/login", clean);
    login.search = "";
    login.searchParams.set("returnTo", clean.pathname + clean.search);
    login.searchParams.set("prompt", "none");
    return NextResponse.redirect(login, 303);
  }
  const response = NextResponse.redirect(clean, 303);
  if (!loggedIn && isMember) response.cookies.set(SESSION_COOKIE, "", { ...sessionCookieOptions(), maxAge: 0 });
  response.headers.set("cache-control", "private, no-store");
  return response;
}
