import { NextResponse, type NextRequest } from "next/server";
import { logger } from "@/lib/observability/log";
import { describeFailure } from "@/lib/wix/errors";
import { sessionPrewarmUrl } from "@/lib/wix/identity";
import { readSession } from "./session-store";

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
    logger().warn({ failure: describeFailure(error) }, "session pre-warm URL failed");
    return NextResponse.json({ url: null }, { status: 503, headers: noStore });
  }
}
