import { createHash } from "node:crypto";
import { logger } from "@/lib/observability/log";
import { SharedRuns } from "@/lib/shared-runs";
import { describeFailure } from "@/lib/wix/errors";
import { isTokenActive } from "@/lib/wix/token-info";
import type { Session } from "./session";

/** Parallel page views carrying the same token share one check; a settled one is never reused, so every page view asks. */
const checks = new SharedRuns<boolean>();

/** After a check fails (the platform unreachable, 5xx, garbage), page views keep their sessions unasked for a while, as renewals do. */
const PAUSE_AFTER_FAILURE_MS = 10_000;
let failingUntil = 0;

/**
 * Whether the platform still honours a session's access token, asked at each of a member's page
 * views by middleware and by the page cache's member templates, so a session the platform ended (a
 * block, "Sign out everywhere") ends at the next request rather than at the next renewal
 * (docs/auth-pitfalls.md P14). An unreachable platform leaves the session as it is.
 */
export async function sessionStands(current: Session): Promise<boolean> {
  if (Date.now() < failingUntil) return true;
  const key = createHash("sha256").update(current.accessToken).digest("base64url");
  try {
    return await checks.run(key, () => isTokenActive(current.accessToken), { reuseSettled: false });
  } catch (error) {
    failingUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
    logger().warn({ failure: describeFailure(error) }, "session check failed; keeping the session");
    return true;
  }
}
