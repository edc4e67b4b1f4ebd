import { NextResponse, type NextRequest } from "next/server";
import { logger } from "@/lib/observability/log";
import { TokenRefusedError, describeFailure } from "@/lib/wix/errors";
import { sessionPrewarmUrl } from "@/lib/wix/identity";
import { renewSession } from "./refresh";
import { writeRenewal } from "./renew";
import { readSession } from "./session-store";
import { nowSeconds, type Session } from "./session";

const noStore = { "cache-control": "private, no-store" };

/**
 * `POST /api/auth/prewarm`: the session pre-warm URL for the signed-in member's browser, as
 * `{url}` (docs/auth-pitfalls.md, "Session pre-warm"). The browser never holds `@wix/*` or a
 * token, so the server asks the platform with the member's session. Anyone else gets
 * `{url: null}`; a platform that fails is logged and answered the same way, with 503.
 */
export async function handlePrewarm(request: NextRequest): Promise<NextResponse> {
  const session = await readSession(request.cookies);
  if (session?.role !== "member") return NextResponse.json({ url: null }, { headers: noStore });
  try {
    return NextResponse.json({ url: await sessionPrewarmUrl(session.accessToken) }, { headers: noStore });
  } catch (error) {
    if (error instanceof TokenRefusedError) return afterRefusal(session).catch(unavailable);
    return unavailable(error);
  }
}

function unavailable(error: unknown): NextResponse {
  logger().warn({ failure: describeFailure(error) }, "session pre-warm URL failed");
  return NextResponse.json({ url: null }, { status: 503, headers: noStore });
}

/**
 * The platform refused the member's token, so the site has learnt their session may have ended
 * elsewhere ("Sign out everywhere"): a renewal asks, and the answer goes into the cookie at once.
 * Renewed, the URL is asked for again; ended, the answer is 401, and the page shows a visitor.
 */
async function afterRefusal(session: Session): Promise<NextResponse> {
  const renewal = await renewSession(session, nowSeconds(), "refused");
  const url = renewal.session ? await sessionPrewarmUrl(renewal.session.accessToken) : null;
  const response = NextResponse.json({ url }, { status: renewal.session ? 200 : 401, headers: noStore });
  await writeRenewal(response.cookies, renewal);
  return response;
}
