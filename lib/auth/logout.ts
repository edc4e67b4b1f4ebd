import { NextResponse, type NextRequest } from "next/server";
import { platformLogoutUrl } from "@/lib/wix/oauth";
import { isPrefetch } from "./prefetch";
import { noStoreRedirect, siteUrl } from "./responses";
import { SESSION_COOKIE, sessionCookieOptions, unsealSession } from "./session";
import { deleteAllTransactions } from "./transactions";

/** A state-changing request from our own pages only: the browser's Origin or Sec-Fetch-Site says so. */
function isSameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (origin) return origin === siteUrl("/").origin;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

/**
 * `POST /api/auth/logout`: clears the session here, then sends the browser to the platform's
 * logout page, which ends the platform's session and comes back to the site.
 */
export async function handleLogout(request: NextRequest): Promise<NextResponse> {
  if (isPrefetch(request.headers)) return new NextResponse(null, { status: 204 });
  if (!isSameOrigin(request)) return new NextResponse("Cross-site logout refused.", { status: 403 });

  const session = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
  let target = siteUrl("/").href;
  if (session?.role === "member") {
    try {
      target = await platformLogoutUrl(session, siteUrl("/").href);
    } catch (error) {
      // The local session still ends; the platform's own session expires on its side.
      console.error("Platform logout failed:", error instanceof Error ? error.message.split("\n")[0] : "unknown error");
    }
  }
  const response = noStoreRedirect(target);
  response.cookies.set(SESSION_COOKIE, "", { ...sessionCookieOptions(), maxAge: 0 });
  deleteAllTransactions(request, response);
  return response;
}
