import { z } from "zod";

/**
 * Typed failures of the platform, told apart by HTTP status and body, never by message text
 * (the SDK's messages carry the status text, which is empty behind HTTP/2 and some proxies).
 */
export type WixFailure = "token_refused" | "grant_rejected" | "platform_unavailable";

/**
 * The SDK rethrows what the site's fetch throws, but its error transform first rewrites the
 * error's `message`, `code` and `details`; so the failure kind lives in `kind`, and callers
 * tell failures apart with instanceof.
 */
export class WixError extends Error {
  constructor(
    readonly kind: WixFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A platform call was refused for its access token (401): revoked, or expired early. */
export class TokenRefusedError extends WixError {
  constructor(readonly requestId: string | null) {
    super("token_refused", "The platform refused the access token.");
  }
}

/**
 * The token endpoint refused a grant with a client error and an OAuth error body: an unknown,
 * revoked or used refresh token or authorization code. Retrying will not help.
 */
export class GrantRejectedError extends WixError {
  constructor(
    readonly status: number,
    readonly oauthError: string,
  ) {
    super("grant_rejected", `The token endpoint rejected the grant (${status} ${oauthError}).`);
  }
}

/** The platform could not be reached, timed out, failed (5xx) or answered something unreadable. */
export class PlatformUnavailableError extends WixError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super("platform_unavailable", `The platform is unavailable: ${detail}.`, options);
  }
}

/** One line for the logs: the kind of failure or the first line of the message, never tokens or stack traces. */
export function describeFailure(error: unknown): string {
  if (error instanceof WixError) return error.kind;
  return error instanceof Error ? error.message.split("\n")[0] : "unknown error";
}

/**
 * What the platform says when it refuses a request for its content (a 4xx with details), and,
 * for a throttled one, how long it says to wait.
 */
export type Refusal = { code?: string; violations: Array<{ field: string; description?: string }>; retryAfterSeconds?: number };

const refusalDetails = z.object({
  applicationError: z
    .object({
      code: z.union([z.string(), z.number()]).transform(String),
      // Only a throttled refusal's wait is read; anything else in `data` never fails the whole refusal.
      data: z.object({ retryAfterSeconds: z.number().int().positive().optional().catch(undefined) }).catch({}),
    })
    .partial()
    .optional(),
  validationError: z.object({ fieldViolations: z.array(z.object({ field: z.string(), description: z.string().optional() })) }).optional(),
});

/** Reads the `details` of a refusal, as the SDK attaches them to the errors it throws. */
export function readRefusal(details: unknown): Refusal | null {
  const parsed = refusalDetails.safeParse(details);
  if (!parsed.success || (!parsed.data.applicationError && !parsed.data.validationError)) return null;
  const { code, data } = parsed.data.applicationError ?? {};
  return {
    code,
    violations: parsed.data.validationError?.fieldViolations ?? [],
    ...(data?.retryAfterSeconds && { retryAfterSeconds: data.retryAfterSeconds }),
  };
}

/** The refusal carried by an error the SDK threw, or null for any other failure. */
export function refusalOf(error: unknown): Refusal | null {
  if (error instanceof WixError || typeof error !== "object" || error === null) return null;
  return readRefusal((error as { details?: unknown }).details);
}
