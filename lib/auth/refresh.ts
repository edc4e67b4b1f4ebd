import { createHash } from "node:crypto";
import { logger } from "@/lib/observability/log";
import { SharedRuns } from "@/lib/shared-runs";
import { GrantRejectedError, PlatformUnavailableError, describeFailure } from "@/lib/wix/errors";
import { memberDisplay } from "@/lib/wix/members";
import { renewAccessToken } from "@/lib/wix/oauth";
import { sessionFromTokens, type Session } from "./session";
import { noteSessionIssued } from "./session-check";

/** A token refused this soon after it was issued is dead, not stale: renewing it again would loop. */
export const FRESH_TOKEN_SECONDS = 10;

export type Renewal = {
  /** The renewed session, or null when the platform refused the refresh token. */
  session: Session | null;
  /** A member whose session ended on the platform: they are a visitor now and must be told. */
  memberSessionEnded: boolean;
};

/**
 * Parallel requests carrying the same cookie share one refresh, and its result is kept
 * briefly so requests that arrive just after it settled reuse it (docs/auth-pitfalls.md P1).
 */
const renewals = new SharedRuns<Renewal>({ keepForMs: 60_000 });

/**
 * After the token endpoint fails (unreachable, 5xx, garbage), renewals fail at once for a
 * while instead of asking it again: otherwise every request of every due session would wait
 * for the platform's timeout while it is down, holding one of the server's request slots.
 * The sessions are kept meanwhile, as for any failed renewal.
 */
export const RETRY_AFTER_FAILURE_MS = 10_000;
let failingUntil = 0;

/** A renewal not attempted: the token endpoint failed moments ago. */
export class RenewalPausedError extends PlatformUnavailableError {
  constructor() {
    super("renewals pause after a failure of the token endpoint");
  }
}

/** Logs a failed renewal: the failure itself as an error, the renewals skipped during the pause that follows at debug level only. */
export function logRenewalFailure(error: unknown, message: string): void {
  logger()[error instanceof RenewalPausedError ? "debug" : "error"]({ failure: describeFailure(error) }, message);
}

/**
 * Why a session is renewed:
 * - `due`: its renewal time has come; a renewal that settled moments ago is reused.
 * - `check`: to ask the platform whether the session still stands (never answered from the cache).
 * - `refused`: the platform refused its access token; a token refused right after it was
 *   issued is dead, and renewing it again would only loop.
 */
export type RenewalReason = "due" | "check" | "refused";

/**
 * Renews a session with its refresh token. A refusal ends the session (typed, from the token
 * endpoint's status and body); an unreachable or failing platform throws, and the caller
 * keeps the session as it is.
 */
export function renewSession(current: Session, nowSeconds: number, reason: RenewalReason = "due"): Promise<Renewal> {
  if (reason === "refused" && nowSeconds - current.issuedAt < FRESH_TOKEN_SECONDS) {
    return Promise.resolve({ session: null, memberSessionEnded: current.role === "member" });
  }
  const now = Date.now();
  if (now < failingUntil) return Promise.reject(new RenewalPausedError());
  const key = createHash("sha256").update(current.refreshToken).digest("base64url");
  return renewals.run(key, () => refresh(current, nowSeconds), { reuseSettled: reason === "due" });
}

async function refresh(current: Session, nowSeconds: number): Promise<Renewal> {
  try {
    const pair = await renewAccessToken(current);
    const member = current.role === "member" ? (current.member ?? (await lookUpDisplay(pair.accessToken))) : undefined;
    const renewed = sessionFromTokens(pair, nowSeconds, member, current);
    noteSessionIssued(renewed);
    return { session: renewed, memberSessionEnded: false };
  } catch (error) {
    if (!(error instanceof GrantRejectedError)) {
      failingUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
      throw error;
    }
    return { session: null, memberSessionEnded: current.role === "member" };
  }
}

/** The member's display data, if the members service answers in time; a login or renewal never fails for it. */
export async function lookUpDisplay(accessToken: string): Promise<Session["member"]> {
  try {
    return await memberDisplay(accessToken);
  } catch (error) {
    logger().warn({ failure: describeFailure(error) }, "member lookup failed; the display name follows later");
    return undefined;
  }
}
