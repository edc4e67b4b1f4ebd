import { NextResponse, type NextRequest } from "next/server";
import { decideTokenAction, renewSession } from "./refresh";
import { SESSION_COOKIE, sealSession, sessionCookieOptions, unsealSession } from "./session";

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Makes sure every request reaches the app with a live token pair. A renewed cookie is
 * written to the response and also into the request itself, so server components see the
 * new tokens in this same request (pitfall P3).
 */
export async function withSession(request: NextRequest): Promise<NextResponse> {
  const current = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
  if (decideTokenAction(current, nowSeconds()) === "keep") return NextResponse.next();

  let sealed: string;
  try {
    const renewal = await renewSession(current, nowSeconds());
    sealed = await sealSession(renewal.session);
  } catch (error) {
    // The platform is unreachable or failing: keep whatever the visitor has and let the page report it.
    console.error("Session renewal failed:", error instanceof Error ? error.message.split("\n")[0] : "unknown error");
    return NextResponse.next();
  }
  request.cookies.set(SESSION_COOKIE, sealed);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(SESSION_COOKIE, sealed, sessionCookieOptions());
  return response;
}
