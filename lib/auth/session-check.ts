import { createHash } from "node:crypto";
import { MEMBER_SESSIONS_TAG_PREFIX, announceRevalidation, memberTag, onRemoteRevalidation } from "@/lib/cache/page-cache-signals";
import { getConfig } from "@/lib/config";
import { logger } from "@/lib/observability/log";
import { SharedRuns } from "@/lib/shared-runs";
import { describeFailure } from "@/lib/wix/errors";
import { isTokenActive } from "@/lib/wix/token-info";
import type { Session } from "./session";
import { SessionConfirmations } from "./session-confirmations";

/** Parallel page views carrying the same token share one check. */
const checks = new SharedRuns<boolean>();

/** After a check fails (the platform unreachable, 5xx, garbage), page views keep their sessions unasked for a while, as renewals do. */
const PAUSE_AFTER_FAILURE_MS = 10_000;
let failingUntil = 0;

/** Sessions confirmed at once on one instance, at most: past that the oldest are asked again. */
const MAX_CONFIRMED_SESSIONS = 100_000;

const STORE = Symbol.for("ridgeline.session-confirmations");

/** One memo per process: middleware's bundle and the production server's page cache each load this module. */
function confirmations(): SessionConfirmations {
  const global = globalThis as typeof globalThis & { [STORE]?: SessionConfirmations };
  if (!global[STORE]) {
    const memo = new SessionConfirmations({ intervalMs: getConfig().memberSession.checkIntervalSeconds * 1000, maxSessions: MAX_CONFIRMED_SESSIONS });
    onRemoteRevalidation(({ tags, everything }) => {
      if (everything) memo.everythingChanged();
      for (const tag of tags) if (tag.startsWith(MEMBER_SESSIONS_TAG_PREFIX)) memo.memberChanged(tag.slice(MEMBER_SESSIONS_TAG_PREFIX.length));
    });
    global[STORE] = memo;
  }
  return global[STORE];
}

const tokenKey = (accessToken: string) => createHash("sha256").update(accessToken).digest("base64url");

/**
 * Whether the platform still honours a member session's access token, asked by middleware at a
 * member's page view and by the page cache's member templates, so a session the platform ended (a
 * block, "Sign out everywhere", a password change elsewhere) ends at a page view rather than at
 * the next renewal (docs/auth-pitfalls.md P14). A confirmed session goes unasked for
 * `SESSION_CHECK_INTERVAL` seconds, unless its member's sessions are said to have changed
 * (`recheckSessionsOf`). An unreachable platform leaves the session as it is.
 */
export async function sessionStands(current: Session): Promise<boolean> {
  if (Date.now() < failingUntil) return true;
  const memberId = current.member?.id ?? "";
  const key = tokenKey(current.accessToken);
  const memo = confirmations();
  if (memo.standsUnasked(key, memberId)) return true;
  const question = memo.question(memberId);
  try {
    const active = await checks.run(key, () => isTokenActive(current.accessToken), { reuseSettled: false });
    if (active) memo.confirm(key, question);
    return active;
  } catch (error) {
    failingUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
    logger().warn({ failure: describeFailure(error) }, "session check failed; keeping the session");
    return true;
  }
}

/** Tokens the platform has just issued (a login, a renewal) stand: their first page views need not ask. */
export function noteSessionIssued(session: Session): void {
  if (session.role !== "member") return;
  const memo = confirmations();
  memo.confirm(tokenKey(session.accessToken), memo.question(session.member?.id ?? ""));
}

/**
 * A member's sessions may have ended on the platform (their password changed, a Wix member event,
 * their logout): every session of theirs is asked again at its next page view, on every instance,
 * and the pages kept for them go.
 */
export function recheckSessionsOf(memberId: string): void {
  confirmations().memberChanged(memberId);
  announceRevalidation([`${MEMBER_SESSIONS_TAG_PREFIX}${memberId}`, memberTag(memberId)]);
}
