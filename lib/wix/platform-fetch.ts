import { notePlatformRequestId } from "@/lib/observability/request-context";
import { setTimeout as sleep } from "node:timers/promises";
import { PlatformUnavailableError, TokenRefusedError } from "./errors";

/**
 * How long a read or a token grant may take, a retry included, before the site gives up on it
 * and says the data is unavailable: long enough for any normal answer, short enough that a page
 * still says something within a few seconds (docs/architecture.md, "When the platform fails").
 */
export const PLATFORM_TIMEOUT_MS = 5_000;

/**
 * Writes are waited for longer: one the site gave up on may still be done on the platform, and
 * a member told it failed would send it again.
 */
export const PLATFORM_WRITE_TIMEOUT_MS = 10_000;

/** A pause before the one retry, so a platform that just dropped a connection can catch its breath. */
const RETRY_DELAY_MS = 100;

type Fetch = typeof globalThis.fetch;

/** The POSTs the `@wix/*` clients send for reads: queries travel in a body, but change nothing. */
const DATA_READS = ["query", "count", "search", "aggregate", "aggregate-pipeline", "query-distinct-values", "query-referenced", "is-referenced"];
const READ_POSTS = new RegExp(`^/(?:wix-data/v2/items/(?:${DATA_READS.join("|")})|members/v1/members/query|oauth2/token-info)$`);

/** Whether sending a call twice is harmless: every GET, and the read POSTs. Writes and token grants are never repeated. */
export function isIdempotentRead(url: string, method: string): boolean {
  const verb = method.toUpperCase();
  return verb === "GET" || verb === "HEAD" || (verb === "POST" && READ_POSTS.test(new URL(url).pathname));
}

const TOKEN_PATH = "/oauth2/token";

/** The deadline of a call: the short one for reads and token grants, the long one for writes. */
export function timeoutFor(url: string, method: string): number {
  return isIdempotentRead(url, method) || new URL(url).pathname === TOKEN_PATH ? PLATFORM_TIMEOUT_MS : PLATFORM_WRITE_TIMEOUT_MS;
}

/** A reply whose `json()` fails as PlatformUnavailableError: a 200 that is not JSON is an outage, not a bug here. */
function withReadableBody(response: Response): Response {
  const json = response.json.bind(response);
  response.json = () => json().catch((cause: unknown) => Promise.reject(new PlatformUnavailableError("answered something that is not JSON", { cause })));
  return response;
}

/**
 * The fetch every site client uses. It turns what the SDK would bury in a message into typed
 * errors: a 401 becomes TokenRefusedError; a network failure, timeout, 5xx or unreadable body
 * becomes PlatformUnavailableError. The SDK rethrows what its fetch throws as it is (only the
 * message may be rewritten), so callers test with instanceof. Every call has one deadline;
 * a read that failed for the connection or a 5xx is tried once more within it. Every answer's
 * request id goes to the request log line (docs/operations.md).
 */
export const platformFetch: Fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const method = init?.method ?? (input instanceof Request ? input.method : "GET");
  const deadline = AbortSignal.timeout(timeoutFor(url, method));
  const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  // A body that is a stream cannot be sent twice; the SDK sends strings.
  const retryable = isIdempotentRead(url, method) && !(input instanceof Request) && (init?.body == null || typeof init.body === "string");

  for (let attempt = 1; ; attempt++) {
    let failure: PlatformUnavailableError;
    try {
      // The global fetch is read on each call: in local mode it is the routed one.
      const response = await globalThis.fetch(input, { ...init, signal });
      notePlatformRequestId(response.headers.get("x-wix-request-id"));
      if (response.status === 401) throw new TokenRefusedError(response.headers.get("x-wix-request-id"));
      if (response.status < 500) return withReadableBody(response);
      await response.body?.cancel();
      failure = new PlatformUnavailableError(`answered ${response.status}`);
    } catch (cause) {
      if (cause instanceof TokenRefusedError) throw cause;
      // Out of time (ours or the caller's): no retry could finish either.
      if (signal.aborted) throw new PlatformUnavailableError("timed out", { cause });
      failure = new PlatformUnavailableError("unreachable", { cause });
    }
    if (!retryable || attempt > 1) throw failure;
    await sleep(RETRY_DELAY_MS, undefined, { signal }).catch(() => Promise.reject(failure));
  }
};

/**
 * For calls the SDK makes with its own fetch (OAuthStrategy's redirect sessions and identity
 * helpers: logins, sign-ups, resets), which the site cannot give a signal. They change state on
 * the platform, so the site stops waiting after a write's time.
 */
export async function withinPlatformTimeout<T>(call: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PlatformUnavailableError("timed out")), PLATFORM_WRITE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([call(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the platform refused, for a call no SDK function sends: `details` as the SDK's errors carry them, so refusalOf reads both. */
export class PlatformRefusal extends Error {
  constructor(
    readonly status: number,
    readonly details: unknown,
  ) {
    super(`the platform refused the request (${status})`);
  }
}

/**
 * A JSON call to an endpoint no installed `@wix/*` function sends (second factors), on the
 * host the SDK uses, through platformFetch: the same deadline, typed errors and request ids.
 */
export async function platformCall<T>(
  path: string,
  init: { method?: "GET" | "POST" | "DELETE"; accessToken: string; body?: unknown; headers?: Record<string, string> },
): Promise<T> {
  const response = await platformFetch(`https://www.wixapis.com${path}`, {
    method: init.method ?? "POST",
    headers: { ...init.headers, Authorization: init.accessToken, ...(init.body !== undefined && { "Content-Type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { details?: unknown };
  if (!response.ok) throw new PlatformRefusal(response.status, body?.details);
  return body as T;
}
