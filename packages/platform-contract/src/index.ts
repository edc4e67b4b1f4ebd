import { createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
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

/**
 * The Wix app the local platform registers for the site, so the site takes the platform's webhook
 * events as a Wix app takes Wix's (docs/platform/webhooks.md): with a real site, the id of the
 * owner's own app (WIX_APP_ID).
 */
export const LOCAL_SITE_APP_ID = "local-site-app";

/** Where the site takes Wix's webhook events. */
export const WIX_WEBHOOK_PATH = "/api/webhooks/wix";

/** The file in the data folder that keeps the local platform's webhook signing key. */
export const WEBHOOK_KEY_FILE = "webhook-signing-key.pem";

/**
 * How long a webhook body is good for after it is signed (its `exp`): the receiver remembers each
 * one that long to refuse a replay, and a retry is signed afresh.
 */
export const WIX_EVENT_LIFETIME_SECONDS = 300;

/**
 * Local mode: the RSA key the local platform signs its webhooks with, made once per data folder
 * and kept there (readable by its owner only). The platform signs with it; the site, sharing the
 * folder, checks with its public half, as a Wix app checks Wix's with the key Wix gives it.
 */
export function localWebhookKey(dataDir: string): KeyObject {
  const file = path.resolve(dataDir, WEBHOOK_KEY_FILE);
  if (!fs.existsSync(file)) {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      // `wx`: when two processes on one folder race, the first key written is the one both keep.
      fs.writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return createPrivateKey(fs.readFileSync(file, "utf8"));
}

/** One webhook event as Wix's envelope carries it: its type, the site's instance, who did it, and the event itself. */
export type WixEventEnvelope = { eventType: string; instanceId: string; payload: unknown; identity?: string | null };

/**
 * A webhook body the way Wix sends one: a JWT signed RS256, issued by `wix.com` for the app, whose
 * `data` claim is the JSON envelope `@wix/sdk` reads (`eventType`, `instanceId`, `identity`, and the
 * event as a JSON string), good for WIX_EVENT_LIFETIME_SECONDS.
 */
export function signWixEvent(privateKey: KeyObject, appId: string, event: WixEventEnvelope, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const claims = {
    data: JSON.stringify({
      data: JSON.stringify(event.payload),
      eventType: event.eventType,
      instanceId: event.instanceId,
      ...(event.identity && { identity: event.identity }),
    }),
    iss: "wix.com",
    aud: appId,
    iat,
    exp: iat + WIX_EVENT_LIFETIME_SECONDS,
  };
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${base64url({ alg: "RS256", typ: "JWT" })}.${base64url(claims)}`;
  return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
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
