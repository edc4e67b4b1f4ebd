import { NextResponse, type NextRequest } from "next/server";
import { logger } from "@/lib/observability/log";
import { describeFailure } from "@/lib/wix/errors";
import { endMemberSession } from "@/lib/wix/identity";
import { platformLogoutUrl } from "@/lib/wix/oauth";
import { LOGGED_OUT, writeNotice } from "./notice-store";
import { recheckSessionsOf } from "./session-check";
import { clearSession, readSession } from "./session-store";
import { deleteAllTransactions } from "./transaction-store";
import { isPrefetch } from "./prefetch";
import { noStoreRedirect, prefetchAnswer, siteUrl } from "./responses";

/** A state-changing request from our own pages only: the browser's Origin or Sec-Fetch-Site says so. */
export function isSameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (origin) return origin === siteUrl("/").origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

/**
 * `POST /api/auth/logout`: clears the session here, ends the member's session on the platform
 * from the server (their tokens are revoked even if the browser never follows the redirect),
 * then sends the browser to the platform's logout page, which ends the platform's browser
 * session and comes back to the site.
 */
export async function handleLogout(request: NextRequest): Promise<NextResponse> {
  if (isPrefetch(request.headers)) return prefetchAnswer();
  if (!isSameOrigin(request)) return new NextResponse("Cross-site logout refused.", { status: 403, headers: { "cache-control": "private, no-store" } });

  const session = await readSession(request.cookies);
  let target = siteUrl("/").href;
  if (session?.role === "member") {
    try {
      // The logout page is asked for first: it is made with the member's token, which the next call revokes.
      target = await platformLogoutUrl(session, siteUrl("/").href);
    } catch (error) {
      // The local session still ends; the revocation below still ends the tokens.
      logger().error({ failure: describeFailure(error) }, "platform logout failed");
    }
    try {
      await endMemberSession(session.accessToken);
    } catch (error) {
      // Refused (already revoked or expired) or unreachable: the cookie still goes, and the
      // platform's session ends with the logout page or expires on its side.
      logger().warn({ failure: describeFailure(error) }, "revoking the member's tokens failed");
    }
    // A copy of this cookie is asked about at its next use, on every instance, not taken on an earlier confirmation.
    if (session.member) recheckSessionsOf(session.member.id);
  }
  const response = noStoreRedirect(target);
  clearSession(response.cookies);
  // Read by middleware on the page the platform's logout page returns to.
  if (session?.role === "member") writeNotice(response.cookies, LOGGED_OUT);
  deleteAllTransactions(request.cookies, response.cookies);
  return response;
}
