import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * What the site and the local platform both need to agree on, and nothing else: the platform
 * may import this module, the site never imports the platform. Keep it free of Next.js and
 * Node-only APIs beyond what both sides run on.
 */

/** The OAuth client the local platform registers for the site when no WIX_CLIENT_ID is set. */
export const LOCAL_CLIENT_ID = "local-site-client";

/** The log levels both the site and the platform accept (pino's). */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export { routeWixApis } from "./wix-apis";

/** The address to reach a server that listens on `host`: wildcard binds are reached on loopback. */
export function reachableUrl(host: string, port: number): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}

/** Variables both sides read, parsed by the same rules on both. */
export const sharedEnv = {
  SITE_URL: z
    .url("must be an absolute http(s) URL")
    .refine((value) => /^https?:\/\//.test(value), "must be an absolute http(s) URL")
    .default("http://localhost:3000"),
  LOCAL_PLATFORM_PORT: z.coerce
    .number("must be a port number")
    .int("must be a port number")
    .min(1, "must be a port number")
    .max(65535, "must be a port number")
    .default(4010),
  LOCAL_PLATFORM_HOST: z.string().trim().min(1, "must not be empty when set").default("127.0.0.1"),
  LOCAL_PLATFORM_DATA_DIR: z.string().trim().min(1, "must not be empty when set").default(".data"),
  /** Signs the local platform's "data changed" calls to the site's revalidation webhook. */
  REVALIDATE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
};

/**
 * Development only: a random secret kept under the data folder, created once and reused, so
 * that the site and the local platform (which share the folder) agree on it without setup.
 */
export function generatedSecret(dataDir: string, name: string): string {
  const file = path.resolve(dataDir, name);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    return fs.readFileSync(file, "utf8").trim();
  }
}

/** The file under the data folder that holds the generated revalidation secret. */
export const REVALIDATE_SECRET_FILE = "revalidate-secret";

/** The header that carries a revalidation call's signature: HMAC-SHA256 of `<timestamp header>.<raw body>`. */
export const REVALIDATE_SIGNATURE_HEADER = "x-revalidate-signature";
/**
 * The header that carries when the call was signed, in Unix seconds, and after a dot a random
 * nonce: two calls with the same body in the same second (an edit and its undo) are two calls,
 * not a replay. The signature covers both.
 */
export const REVALIDATE_TIMESTAMP_HEADER = "x-revalidate-timestamp";
const SIGNED_STAMP = /^(\d{1,12})(\.[\w-]{8,64})?$/;
/** A call signed longer ago than this, or as far ahead (clock skew), is refused as stale. */
export const REVALIDATION_MAX_AGE_SECONDS = 300;

export function signRevalidation(timestamp: string, body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** Where the site listens for "this data changed" calls. */
export const REVALIDATE_PATH = "/api/revalidate";

/** What one revalidation call names: data collections, and whether public member profiles changed. */
export type RevalidationChange = { collections: string[]; members: boolean };

/** The most collections one call may name; a bigger change is sent as several calls. */
export const MAX_REVALIDATION_COLLECTIONS = 100;

/** The bodies of the calls that announce a change: at most the webhook's limit of collections each. */
export function revalidationBodies(change: RevalidationChange): string[] {
  const chunks: RevalidationChange[] = [];
  for (let start = 0; start < change.collections.length; start += MAX_REVALIDATION_COLLECTIONS) {
    chunks.push({ collections: change.collections.slice(start, start + MAX_REVALIDATION_COLLECTIONS), members: false });
  }
  if (chunks.length === 0) chunks.push({ collections: [], members: change.members });
  else chunks[0].members = change.members;
  return chunks.map((chunk) => JSON.stringify(chunk));
}

/** One call, signed now: each attempt is signed afresh, since the webhook takes a signature once. */
export function signedRevalidation(body: string, secret: string, now = Date.now()): { body: string; headers: Record<string, string> } {
  const timestamp = `${Math.floor(now / 1000)}.${randomBytes(12).toString("base64url")}`;
  return {
    body,
    headers: {
      "content-type": "application/json",
      [REVALIDATE_TIMESTAMP_HEADER]: timestamp,
      [REVALIDATE_SIGNATURE_HEADER]: signRevalidation(timestamp, body, secret),
    },
  };
}

/** The signed calls that announce a change, body and headers ready for `fetch`. */
export function revalidationRequests(change: RevalidationChange, secret: string, now = Date.now()): Array<{ body: string; headers: Record<string, string> }> {
  return revalidationBodies(change).map((body) => signedRevalidation(body, secret, now));
}

/**
 * Checks a call's signature in constant time, then its age; anything malformed is simply not
 * valid. Replays within the age window are the receiver's to refuse (it remembers signatures).
 */
export function checkRevalidation(
  body: string,
  signature: string | null,
  timestamp: string | null,
  secret: string,
  now = Date.now(),
): "valid" | "bad-signature" | "stale" {
  const stamp = timestamp === null ? null : SIGNED_STAMP.exec(timestamp);
  if (!signature || !stamp) return "bad-signature";
  const expected = Buffer.from(signRevalidation(timestamp!, body, secret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "bad-signature";
  return Math.abs(now / 1000 - Number(stamp[1])) > REVALIDATION_MAX_AGE_SECONDS ? "stale" : "valid";
}

/** A configuration that cannot be used; its message names every bad variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses an environment with a zod schema, or throws one ConfigError listing every problem. */
export function parseEnv<T extends z.ZodType>(schema: T, env: Record<string, string | undefined>, what: string): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`);
  throw new ConfigError(`Invalid ${what} configuration:\n${lines.join("\n")}\nSee .env.example.`);
}

/** The answer the local platform's test captcha accepts; any other answer is refused. */
export const LOCAL_CAPTCHA_TOKEN = "local-captcha-pass";

/** The local platform's Studio, and its mailbox the site links to in local mode. */
export const LOCAL_STUDIO_PATH = "/_local/studio";
export const LOCAL_MAILBOX_PATH = `${LOCAL_STUDIO_PATH}/mailbox`;
