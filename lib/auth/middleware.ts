import { NextResponse, type NextRequest } from "next/server";
import { MiddlewareCookies } from "./middleware-cookies";
import { SESSION_ENDED } from "./notice-store";
import { hasSessionCookie, loadSession } from "./session-store";
import { CACHE_RENDER_HEADER } from "@/lib/security/policy";
import { isMarkedRouterPrefetch, isNavigation, isScriptFetch } from "./prefetch";
import { logRenewalFailure, renewSession, type RenewalReason } from "./refresh";
import { sessionStands } from "./session-check";
import { prefetchAnswer, siteUrl } from "./responses";
import { MEMBER_LOGGED_IN_PARAM, loginHref } from "./routes";
import { nowSeconds, type Session } from "./session";
import { sessionStep } from "./session-decision";

/**
 * Keeps an existing session's tokens fresh. A renewed cookie is written to the response and
 * also into the request itself, so server components see the new tokens in this same request
 * (docs/auth-pitfalls.md P3). Middleware never creates a session: a request without the
 * cookie (a first view, a crawler, a cross-site POST that cannot carry a SameSite=Lax cookie)
 * passes through untouched, so it can neither cost a token grant nor overwrite a member's
 * cookie (docs/auth-pitfalls.md P13). Each of a member's page views (not the router's
 * prefetches) asks the platform whether their token still stands. A member whose refresh token is refused, or whose session ran past
 * its idle or absolute limit, becomes a visitor and the page says so.
 */
export async function withSession(request: NextRequest, forward: Record<string, string> = {}): Promise<NextResponse> {
  const navigation = isNavigation(request.method, request.headers);
  const { session: current, lapsed } = await loadSession(request.cookies);
  if (navigation && request.nextUrl.searchParams.has(MEMBER_LOGGED_IN_PARAM)) {
    return reconcileHostedPageReturn(request, current);
  }

  const cookies = new MiddlewareCookies(request, forward);
  const now = nowSeconds();
  const step = sessionStep({ session: current, lapsed, cookiePresent: hasSessionCookie(request.cookies) }, navigation, now);
  let memberSessionEnded = false;
  if (step === "end") {
    // Idle too long, or too long since the login: the member is a visitor from here on.
    cookies.setSession(null);
    cookies.showNotice(SESSION_ENDED);
    memberSessionEnded = true;
  } else if (step === "renew") {
    memberSessionEnded = await renewInto(cookies, current!, "due");
  } else if (current?.role === "member" && navigation && mayCheck(request.headers) && !(await sessionStands(current))) {
    // Ended on the platform (a block, "Sign out everywhere"): a renewal asks, and its refusal ends the session here, with the notice.
    memberSessionEnded = await renewInto(cookies, current, "refused");
  } else if (step === "record-seen") {
    cookies.setSession({ ...current!, seenAt: now });
  } else if (step === "drop") {
    // Unreadable (tampered, truncated, sealed with another secret): dropped on the browser's own navigation only.
    cookies.setSession(null);
  }
  // Found by the App Router's fetch, whose page would keep the layout (the header naming the member):
  // it gets no payload and loads the page as a document, whose own request ends the session, with
  // the notice. Next.js takes its prefetch headers off before middleware, so this may be a
  // prefetch, which must end nothing.
  if (memberSessionEnded && navigation && isScriptFetch(request.headers)) return prefetchAnswer();
  if (navigation) cookies.consumeNotice();
  return cookies.changed ? cookies.respond() : cookies.pass();
}

/**
 * Whether a member's request asks the platform if their token stands: not the router's prefetches,
 * and not the page cache's own renders of a members' template, whose session holds tokens no
 * platform issued (lib/auth/session-store.ts, templateSessionCookie). Only the server sets either header.
 */
const mayCheck = (headers: Headers) => !isMarkedRouterPrefetch(headers) && headers.get(CACHE_RENDER_HEADER) !== "1";

/** Renews into the pending cookie changes; an unreachable platform leaves the session as it is. Answers whether a member's session ended. */
async function renewInto(cookies: MiddlewareCookies, current: Session, reason: RenewalReason): Promise<boolean> {
  try {
    const renewal = await renewSession(current, nowSeconds(), reason);
    cookies.setSession(renewal.session);
    if (renewal.memberSessionEnded) cookies.showNotice(SESSION_ENDED);
    return renewal.memberSessionEnded;
  } catch (error) {
    logRenewalFailure(error, "session renewal failed; keeping the session");
    return false;
  }
}

/**
 * After a login on a Wix-hosted page a visitor here signs in silently (prompt=none). After a
 * logout there, a member here is not signed out blindly, since anyone can link to that URL:
 * the platform is asked by renewing the session, and only a refused refresh ends it. Either
 * way the parameter leaves the URL. Redirects go to SITE_URL, never to the request's Host
 * (docs/auth-pitfalls.md P12).
 */
async function reconcileHostedPageReturn(request: NextRequest, current: Session | null): Promise<NextResponse> {
  const params = new URLSearchParams(request.nextUrl.searchParams);
  const loggedIn = params.get(MEMBER_LOGGED_IN_PARAM) === "true";
  params.delete(MEMBER_LOGGED_IN_PARAM);
  const query = params.toString();
  const clean = siteUrl(`${request.nextUrl.pathname}${query ? `?${query}` : ""}`);
  const isMember = current?.role === "member";
  if (loggedIn && !isMember) {
    // The silent login goes on at the platform, where only the document may go. The App Router's
    // fetch gets no payload instead, and the router loads the same URL as a document.
    if (isScriptFetch(request.headers)) return prefetchAnswer();
    return NextResponse.redirect(siteUrl(loginHref(clean.pathname + clean.search, { prompt: "none" })), 303);
  }
  const cookies = new MiddlewareCookies(request);
  if (!loggedIn && current && isMember) await renewInto(cookies, current, "check");
  return cookies.respond(NextResponse.redirect(clean, 303));
}
