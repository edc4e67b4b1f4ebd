import { PlatformUnavailableError, TokenRefusedError } from "./errors";

/** How long one platform call may take before the site gives up on it. */
export const PLATFORM_TIMEOUT_MS = 10_000;

type Fetch = typeof globalThis.fetch;

/**
 * The fetch every site client uses. It turns what the SDK would bury in a message into typed
 * errors: a 401 becomes TokenRefusedError, a network failure, timeout or 5xx becomes
 * PlatformUnavailableError. The SDK rethrows what its fetch throws as it is (only the
 * message may be rewritten), so callers test with instanceof.
 */
export const platformFetch: Fetch = async (input, init) => {
  let response: Response;
  try {
    // The global fetch is read on each call: in local mode it is the routed one.
    response = await globalThis.fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(PLATFORM_TIMEOUT_MS) });
  } catch (cause) {
    throw new PlatformUnavailableError(cause instanceof Error && cause.name === "TimeoutError" ? "timed out" : "unreachable", { cause });
  }
  if (response.status === 401) throw new TokenRefusedError(response.headers.get("x-wix-request-id"));
  if (response.status >= 500) throw new PlatformUnavailableError(`answered ${response.status}`);
  return response;
};
