import { NextResponse, type NextRequest } from "next/server";
import { logger } from "@/lib/observability/log";
import { describeFailure } from "@/lib/wix/errors";
import { platformLogoutUrl } from "@/lib/wix/oauth";
import { clearSession, deleteAllTransactions, readSession } from "./cookie-store";
import { isPrefetch } from "./prefetch";
import { noStoreRedirect, prefetchAnswer, siteUrl } from "./responses";

/** A state-changing request from our own pages only: the browser's Origin or Sec-Fetch-Site says so. */
export function isSameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (origin) return origin === siteUrl("/").origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

/**
 * `POST /api/auth/logout`: clears the session here, then sends the browser to the platform's
 * logout page, which ends the platform's session and comes back to the site.
 */
export async function handleLogout(request: NextRequest): Promise<NextResponse> {
  if (isPrefetch(request.headers)) return prefetchAnswer();
  if (!isSameOrigin(request)) return new NextResponse("Cross-site logout refused.", { status: 403, headers: { "cache-control": "private, no-store" } });

  const session = await readSession(request.cookies);
  let target = siteUrl("/").href;
  if (session?.role === "member") {
    try {
      target = await platformLogoutUrl(session, siteUrl("/").href);
    } catch (error) {
      // The local session still ends; the platform's own session expires on its side.
      logger().error({ failure: describeFailure(error) }, "platform logout failed");
    }
  }
  const response = noStoreRedirect(target);
  clearSession(response.cookies);
  deleteAllTransactions(request.cookies, response.cookies);
  return response;
}
