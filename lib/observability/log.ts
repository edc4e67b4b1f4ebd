import pino, { type DestinationStream, type Logger } from "pino";
import { getConfig, type LogLevel } from "@/lib/config";

/**
 * The site's structured log: one JSON object a line on stdout (docs/operations.md). Fields
 * that can hold a credential are replaced wherever they appear in what is logged, a few
 * levels deep: a careless `log.info({ request })` still prints no cookie or token.
 */
const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "set-cookie",
  "code",
  "state",
  "verifier",
  "codeVerifier",
  "code_verifier",
  "password",
  "currentPassword",
  "newPassword",
  "token",
  "accessToken",
  "refreshToken",
  "access_token",
  "refresh_token",
  "sessionToken",
  "stateToken",
  "captchaToken",
  "invisibleCaptchaToken",
  "secret",
  "clientSecret",
];

const field = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`);
const join = (prefix: string, name: string) => (name.startsWith("[") ? `${prefix}${name}` : `${prefix}.${name}`);

/** Each secret field at the top level and up to three objects deep (`*.token`, `*.*.token`, …). */
export const REDACTED_PATHS = SECRET_FIELDS.flatMap((name) => {
  const key = field(name);
  return [key, join("*", key), join("*.*", key), join("*.*.*", key)];
});

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "site" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** The one line each request gets (server/serve.ts): only these fields, none of which can hold a credential. */
export type RequestLine = {
  method: string | undefined;
  /** Through `loggablePath`: the query's names, never its values. */
  path: string;
  status: number;
  durationMs: number;
  platformRequestIds: string[];
  cache?: string;
  serverAction?: true;
  aborted?: true;
};

/**
 * Writes request lines to the same log, skipping the redaction: a line is built field by field
 * from what cannot hold a credential (RequestLine), and walking every secret field's paths
 * through it cost about 0.1 ms a line, a fifth of a cached page's CPU. Everything else logged
 * is still redacted.
 */
export function requestLogger(log: Logger): (level: "error" | "info" | "debug", line: RequestLine) => void {
  const plain = log.child({}, { redact: [] });
  return (level, line) => plain[level](line, "request");
}

const LOGGER = Symbol.for("ridgeline.logger");

/** The process's logger, shared like the request context: each Next.js bundle and the server entry reach the same one. */
export function logger(): Logger {
  const global = globalThis as typeof globalThis & { [LOGGER]?: Logger };
  global[LOGGER] ??= createLogger(getConfig().logLevel);
  return global[LOGGER];
}

/**
 * A URL's path as it may be logged: the query keeps its names, not its values, which can
 * carry a code, a state or an e-mail address (`/api/auth/callback?code&state`).
 */
export function loggablePath(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart === -1) return url;
  const names = url
    .slice(queryStart + 1)
    .split("&")
    .filter(Boolean)
    .map((part) => {
      const name = part.split("=")[0];
      try {
        return decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        return name;
      }
    });
  return `${url.slice(0, queryStart)}${names.length ? `?${[...new Set(names)].join("&")}` : ""}`;
}
