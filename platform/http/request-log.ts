import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { decodeQueryParams } from "./request-params";
import type { LoggedRequest } from "./request-entry";

/**
 * The Studio's request log (docs/platform/studio.md §6): the last calls the platform answered,
 * in memory, with the bodies of the failed ones so a developer can see what their SDK sent and
 * why it was refused. No header is kept (the Authorization header least of all), and every
 * field or query parameter that can hold a secret is replaced before an entry is stored.
 */

export const REDACTED = "[redacted]";
/** The most a stored body keeps; a bulk insert's 8 MB is not for reading in a log. */
const BODY_LIMIT = 8 * 1024;
const DEFAULT_CAPACITY = 500;

/** Field and parameter names that hold credentials, compared without case, `_` or `-`. */
const SECRET_NAMES = new Set(["code", "csrf", "authorization", "cookie", "codeverifier", "authcode", "authorizationcode", "verificationcode", "otp"]);
const SECRET_ENDINGS = ["token", "tokens", "password", "secret", "apikey"];

function isSecretName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, "");
  return SECRET_NAMES.has(normalized) || SECRET_ENDINGS.some((ending) => normalized.endsWith(ending));
}

/** Nesting kept in a logged body; a hostile body nested thousands deep would otherwise exhaust the stack. */
const MAX_DEPTH = 32;
export const TOO_DEEP = "[nested too deep to show]";

/**
 * A copy of a parsed body with every secret field's value replaced, down to `MAX_DEPTH` levels
 * (deeper values are left out). The error envelope's own `details.applicationError.code` is the
 * error's name, not a secret, and stays.
 */
export function redactBody(value: unknown, parent?: string, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((entry) => redactBody(entry, parent, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([name, entry]) => {
      const errorCode = name === "code" && parent === "applicationError";
      return [name, isSecretName(name) && !errorCode ? REDACTED : redactBody(entry, name, depth + 1)];
    }),
  );
}

/** The SDK's GET calls carry their request as base64 JSON in `.r`: shown decoded (and redacted) as the request body instead. */
const ENCODED_REQUEST = ".r";
const ENCODED_MARK = "[the request, shown decoded]";

/** A query string with the values of secret parameters replaced. */
export function redactQuery(query: string): string {
  const params = new URLSearchParams(query);
  for (const name of new Set(params.keys())) {
    if (isSecretName(name)) params.set(name, REDACTED);
    else if (name === ENCODED_REQUEST) params.set(name, ENCODED_MARK);
  }
  return [REDACTED, ENCODED_MARK].reduce((text, mark) => text.replaceAll(new URLSearchParams({ x: mark }).toString().slice(2), mark), params.toString());
}

/** What a failed call sent: its body, or for a GET the request encoded in its query string. */
export function sentRequest(request: FastifyRequest, query: string): unknown {
  if (request.body !== undefined) return request.body;
  const encoded = new URLSearchParams(query).get(ENCODED_REQUEST);
  if (encoded === null) return undefined;
  try {
    return decodeQueryParams({ [ENCODED_REQUEST]: encoded });
  } catch {
    return `(a .r parameter that is not base64url JSON)`;
  }
}

function shortened(text: string): string {
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}… (${text.length.toLocaleString("en")} characters in all)` : text;
}

/** A body as the log shows it: JSON redacted and indented, anything else by its size only (HTML forms carry CSRF fields). */
export function bodyText(body: unknown, contentType: string | undefined): string | undefined {
  if (body === undefined || body === null || body === "") return undefined;
  if (typeof body === "object" && !Buffer.isBuffer(body)) return shortened(JSON.stringify(redactBody(body), null, 2));
  const text = Buffer.isBuffer(body) ? body.toString("utf8") : String(body);
  if (contentType?.includes("json")) {
    try {
      return shortened(JSON.stringify(redactBody(JSON.parse(text)), null, 2));
    } catch {
      return `(${text.length.toLocaleString("en")} characters that are not valid JSON)`;
    }
  }
  return `(${contentType?.split(";")[0] ?? "a body"} of ${text.length.toLocaleString("en")} characters, not kept)`;
}

export function errorCodeOf(responseBody: unknown): string | undefined {
  const details = (responseBody as { details?: { applicationError?: { code?: unknown }; validationError?: unknown } } | undefined)?.details;
  if (typeof details?.applicationError?.code === "string") return details.applicationError.code;
  if (details?.validationError) return "INVALID_ARGUMENT";
  const error = (responseBody as { error?: unknown } | undefined)?.error;
  return typeof error === "string" ? error : undefined;
}

/** A fixed-size ring of entries, oldest dropped first, with listeners told of each new one. */
export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  private readonly listeners = new Set<(entry: LoggedRequest) => void>();
  private sequence = 0;
  /** Tells this process's ids from those of a platform that ran before it on the same port. */
  readonly boot = randomBytes(4).toString("hex");

  constructor(readonly capacity = DEFAULT_CAPACITY) {}

  add(entry: Omit<LoggedRequest, "id">): LoggedRequest {
    const logged = { id: `${this.boot}:${++this.sequence}`, ...entry };
    this.entries.push(logged);
    if (this.entries.length > this.capacity) this.entries.shift();
    for (const listener of this.listeners) listener(logged);
    return logged;
  }

  /** Oldest first. */
  list(): LoggedRequest[] {
    return [...this.entries];
  }

  /**
   * What a reconnecting reader missed since the entry it saw last: the newer entries, or null
   * when that entry is gone (dropped from the ring, or from a platform that has since restarted).
   */
  since(lastId: string): LoggedRequest[] | null {
    const [boot, sequence] = lastId.split(":");
    const seen = Number(sequence);
    if (boot !== this.boot || !Number.isInteger(seen) || seen > this.sequence) return null;
    const oldest = this.entries.length > 0 ? Number(this.entries[0].id.split(":")[1]) : this.sequence + 1;
    if (seen < oldest - 1) return null;
    return this.entries.filter((entry) => Number(entry.id.split(":")[1]) > seen);
  }

  subscribe(listener: (entry: LoggedRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
