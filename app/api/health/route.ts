import { NextResponse } from "next/server";
import { checkPlatform } from "@/lib/wix/health";

/** Asked afresh each time: a cached answer would say nothing about now. */
export const dynamic = "force-dynamic";

/**
 * `GET /api/health`: 200 when the site runs and the platform answers, 503 with the reason
 * when it does not, for load balancers and the container's HEALTHCHECK. Middleware skips it.
 */
export async function GET(): Promise<NextResponse> {
  const platform = await checkPlatform();
  const body = platform.ok ? { status: "ok", platform: "ok" } : { status: "unavailable", platform: "unavailable", reason: platform.reason };
  return NextResponse.json(body, { status: platform.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
}
