import "server-only";
import { PlatformUnavailableError, WixError, describeFailure } from "./errors";
import { TOKEN_ENDPOINT } from "./oauth";
import { platformFetch } from "./platform-fetch";

/** A health check must answer before the orchestrator's own timeout gives up on it. */
export const HEALTH_TIMEOUT_MS = 2_000;

export type PlatformHealth = { ok: true } | { ok: false; reason: string };

/**
 * Whether the platform answers, at the cost of one request that changes nothing: an empty
 * grant at the token endpoint, which the platform refuses with a 4xx. Any answer of its own
 * means it is up (on Wix, and in local mode, where the same call reaches the local platform);
 * no answer in time, a 5xx or a network failure means it is not. No token is asked for or
 * sent, so nothing secret can appear in the reason.
 */
export async function checkPlatform(timeoutMs = HEALTH_TIMEOUT_MS): Promise<PlatformHealth> {
  try {
    const response = await platformFetch(TOKEN_ENDPOINT, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      signal: AbortSignal.timeout(timeoutMs),
      cache: "no-store",
    });
    await response.body?.cancel();
    return { ok: true };
  } catch (error) {
    // A 401 is an answer too: the endpoint is there and refused an empty grant.
    if (error instanceof WixError && error.kind === "token_refused") return { ok: true };
    return { ok: false, reason: error instanceof PlatformUnavailableError ? error.message : describeFailure(error) };
  }
}
