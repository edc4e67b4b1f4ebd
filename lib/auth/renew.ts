import type { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { SESSION_ENDED, writeNotice } from "./notice-store";
import { clearSession, readSession, writeSession } from "./session-store";
import { isPrefetch, isScriptFetch } from "./prefetch";
import type { CookieWriter } from "./cookie-sealing";
import { logRenewalFailure, renewSession, type Renewal } from "./refresh";
import { noStoreRedirect, prefetchAnswer, signInProblem, siteUrl } from "./responses";
import { safeReturnTo } from "./return-to";
import { nowSeconds } from "./session";

const renewParams = z.object({
  returnTo: z.string().optional().catch(undefined),
  ifEnded: z.string().optional().catch(undefined),
});

/**
 * `GET /api/auth/renew?returnTo=/path[&ifEnded=/path]`: a page whose platform call was refused
 * for its token sends the browser here (server components cannot write cookies). The session
 * is renewed once and the browser goes back; if the platform refuses the refresh too, or the
 * token was refused right after it was issued, the session ends and the browser goes on as a
 * visitor to `ifEnded`, where the "your session ended" notice shows.
 */
export async function handleRenew(request: NextRequest): Promise<NextResponse> {
  // The App Router fetches this URL when a page it navigates to redirects here: it gets no
  // payload, and loads the URL as a document. Followed inside its fetch, the redirect back would
  // show the router's cached copy of that page, still naming a member whose session just ended.
  if (isPrefetch(request.headers) || isScriptFetch(request.headers)) return prefetchAnswer();
  const params = renewParams.parse(Object.fromEntries(request.nextUrl.searchParams));
  const origin = siteUrl("/").origin;
  const returnTo = safeReturnTo(params.returnTo, origin);
  const ifEnded = params.ifEnded === undefined ? returnTo : safeReturnTo(params.ifEnded, origin);
  const current = await readSession(request.cookies);
  if (!current) return noStoreRedirect(siteUrl(ifEnded));

  try {
    const renewal = await renewSession(current, nowSeconds(), "refused");
    const response = noStoreRedirect(siteUrl(renewal.session ? returnTo : ifEnded));
    await writeRenewal(response.cookies, renewal);
    return response;
  } catch (error) {
    logRenewalFailure(error, "renewing a refused session failed");
    return signInProblem("unavailable", returnTo);
  }
}

/**
 * What a route handler answers with after renewing a session the platform refused: the renewed
 * session, or none, with the "session ended" notice for a member whose session ended.
 */
export async function writeRenewal(cookies: CookieWriter, renewal: Renewal): Promise<void> {
  if (renewal.session) return writeSession(cookies, renewal.session);
  clearSession(cookies);
  if (renewal.memberSessionEnded) writeNotice(cookies, SESSION_ENDED);
}
