import { createPublicKey } from "node:crypto";
import { z } from "zod";
import {
  LOCAL_CLIENT_ID,
  LOCAL_SITE_APP_ID,
  LOG_LEVELS,
  generatedSecret,
  localWebhookKey,
  parseEnv,
  reachableUrl,
  sharedEnv,
  type LogLevel,
} from "@ridgeline/platform-contract";

export { ConfigError } from "@ridgeline/platform-contract";

/**
 * The site's configuration, parsed from the environment once. A missing WIX_CLIENT_ID means
 * local mode: the site talks to the local platform instead of Wix.
 */
const DAY = 24 * 60 * 60;
export { LOG_LEVELS, type LogLevel };

/** A public key as PEM, or as base64 of the PEM on one line (both forms Wix's dashboard and `AppStrategy` use), checked to parse; kept as PEM. */
const publicKeyPem = z
  .string()
  .trim()
  .transform((value) => (value.startsWith("-----BEGIN") ? value : Buffer.from(value, "base64").toString("utf8")).replace(/\\n/g, "\n").trim())
  .refine((pem) => {
    try {
      // SPKI only, what the SDK imports: a private key would parse here too, and must not be given out as the public one.
      return pem.startsWith("-----BEGIN PUBLIC KEY-----") && createPublicKey(pem).asymmetricKeyType === "rsa";
    } catch {
      return false;
    }
  }, "must be the app's RSA public key, as PEM or as base64 of the PEM");

const seconds = z.coerce.number("must be a number of seconds").int("must be a whole number of seconds").min(60, "must be at least 60 seconds");

const schema = z
  .object({
    WIX_CLIENT_ID: z.string().trim().min(1, "must not be empty when set").optional(),
    /** The Wix app whose webhooks the site takes (README, "Connect a real Wix site"): its id and public key. */
    WIX_APP_ID: z.string().trim().min(1, "must not be empty when set").optional(),
    WIX_APP_PUBLIC_KEY: publicKeyPem.optional(),
    /** Several secrets, comma-separated, while rotating: the first seals, all of them open. */
    SESSION_SECRET: z
      .string()
      .transform((value) =>
        value
          .split(",")
          .map((secret) => secret.trim())
          .filter(Boolean),
      )
      .refine(
        (secrets) => secrets.length > 0 && secrets.every((secret) => secret.length >= 32),
        "must be at least 32 characters (each, when several are given)",
      )
      .optional(),
    SESSION_IDLE_TIMEOUT: seconds.default(7 * DAY),
    SESSION_ABSOLUTE_TIMEOUT: seconds.default(30 * DAY),
    SESSION_CHECK_INTERVAL: z.coerce
      .number("must be a whole number of seconds from 0 to 3600")
      .int("must be a whole number of seconds from 0 to 3600")
      .min(0, "must be a whole number of seconds from 0 to 3600")
      .max(3600, "must be a whole number of seconds from 0 to 3600")
      .default(30),
    LOG_LEVEL: z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(", ")}`).default("info"),
    /** Set only behind a proxy that writes this header itself; otherwise a client could choose its own address. */
    TRUSTED_PROXY_HEADER: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]+$/, "must be a header name, like x-forwarded-for")
      .optional(),
    TRUSTED_PROXY_HOPS: z.coerce
      .number("must be a whole number from 1 to 10")
      .int("must be a whole number from 1 to 10")
      .min(1, "must be a whole number from 1 to 10")
      .max(10, "must be a whole number from 1 to 10")
      .default(1),
    MAX_CONCURRENT_REQUESTS: z.coerce
      .number("must be a whole number, 0 for no limit")
      .int("must be a whole number, 0 for no limit")
      .min(0, "must be a whole number, 0 for no limit")
      .max(10_000, "must be at most 10000")
      .default(8),
    REDIS_URL: z
      .url("must be a redis:// or rediss:// URL")
      .refine((value) => /^rediss?:\/\//.test(value), "must be a redis:// or rediss:// URL")
      .optional(),
    /** Also read by lib/cache/redis-cache-handler.mjs, which cannot import this module. */
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[\w:.-]{1,64}$/, "must be 1 to 64 letters, digits, or _ : . -")
      .default("ridgeline:"),
    PAGE_CACHE_MAX_MB: z.coerce
      .number("must be a number of MiB, 0 to turn the page cache off")
      .min(0, "must be a number of MiB, 0 to turn the page cache off")
      .max(65_536, "must be at most 65536")
      .default(64),
    PAGE_CACHE_FRESH_SECONDS: z.coerce
      .number("must be a whole number of seconds")
      .int("must be a whole number of seconds")
      .min(1, "must be at least 1 second")
      .default(300),
    PAGE_CACHE_STALE_SECONDS: z.coerce
      .number("must be a whole number of seconds")
      .int("must be a whole number of seconds")
      .min(0, "must be 0 or more seconds")
      .default(86_400),
    ...sharedEnv,
    NODE_ENV: z.string().optional(),
  })
  .superRefine((env, issue) => {
    if (!env.WIX_APP_ID !== !env.WIX_APP_PUBLIC_KEY) {
      issue.addIssue({
        code: "custom",
        path: [env.WIX_APP_ID ? "WIX_APP_PUBLIC_KEY" : "WIX_APP_ID"],
        message: "is needed with the other of WIX_APP_ID and WIX_APP_PUBLIC_KEY",
      });
    }
    if (env.WIX_CLIENT_ID && env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      issue.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required in production (32+ random characters)" });
    }
  });

export type SiteConfig = {
  wixClientId: string;
  /** The newest first: it seals; the others still open cookies sealed before a rotation. */
  sessionSecrets: string[];
  /**
   * Member sessions end after this long without a page view, and this long after the login,
   * whatever happens; a session the platform confirmed still stands is not asked again for
   * `checkIntervalSeconds` (0: at every page view) unless news of its member comes first.
   */
  memberSession: { idleSeconds: number; absoluteSeconds: number; checkIntervalSeconds: number };
  siteUrl: URL;
  /**
   * The Wix app whose webhook events tell the site what changed (its id, and the public key that
   * checks them, PEM); null: the webhook is off and cached pages refresh on their own.
   */
  wixApp: { appId: string; publicKey: string } | null;
  /** Set only in local mode: where the local platform listens. */
  localPlatformUrl: string | null;
  logLevel: LogLevel;
  /**
   * Where the client's address comes from behind a proxy (a header it sets, and for
   * X-Forwarded-For how many proxies appended to it); null: the socket's address.
   */
  trustedProxy: { header: string; hops: number } | null;
  /** Shared store for the auth rate limits across instances; null: each instance counts alone. */
  redisUrl: string | null;
  /** Namespace of every key the site writes to Redis. */
  redisKeyPrefix: string;
  /** How many requests the production server lets Next.js handle at once (0: no limit); the rest queue in order. */
  maxConcurrentRequests: number;
  /**
   * The production server's cache of visitors' pages (server/page-cache): its size in bytes (0:
   * off), how long a page is served as it is, and how long after that it may be served while
   * it is refreshed.
   */
  pageCache: { maxBytes: number; freshSeconds: number; staleSeconds: number };
};

export function parseConfig(env: Record<string, string | undefined>): SiteConfig {
  const e = parseEnv(schema, env, "site");
  const local = !e.WIX_CLIENT_ID;
  return {
    wixClientId: e.WIX_CLIENT_ID ?? LOCAL_CLIENT_ID,
    sessionSecrets: e.SESSION_SECRET ?? [generatedSecret(e.LOCAL_PLATFORM_DATA_DIR, "session-secret")],
    wixApp:
      e.WIX_APP_ID && e.WIX_APP_PUBLIC_KEY
        ? { appId: e.WIX_APP_ID, publicKey: e.WIX_APP_PUBLIC_KEY }
        : local
          ? { appId: LOCAL_SITE_APP_ID, publicKey: localPublicKey(e.LOCAL_PLATFORM_DATA_DIR) }
          : null,
    memberSession: { idleSeconds: e.SESSION_IDLE_TIMEOUT, absoluteSeconds: e.SESSION_ABSOLUTE_TIMEOUT, checkIntervalSeconds: e.SESSION_CHECK_INTERVAL },
    siteUrl: new URL(e.SITE_URL),
    localPlatformUrl: local ? reachableUrl(e.LOCAL_PLATFORM_HOST, e.LOCAL_PLATFORM_PORT) : null,
    logLevel: e.LOG_LEVEL,
    trustedProxy: e.TRUSTED_PROXY_HEADER ? { header: e.TRUSTED_PROXY_HEADER, hops: e.TRUSTED_PROXY_HOPS } : null,
    redisUrl: e.REDIS_URL ?? null,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    maxConcurrentRequests: e.MAX_CONCURRENT_REQUESTS,
    pageCache: { maxBytes: Math.round(e.PAGE_CACHE_MAX_MB * 2 ** 20), freshSeconds: e.PAGE_CACHE_FRESH_SECONDS, staleSeconds: e.PAGE_CACHE_STALE_SECONDS },
  };
}

/** Local mode: the local platform registers the site as its app and signs with the data folder's key. */
const localPublicKey = (dataDir: string) => createPublicKey(localWebhookKey(dataDir)).export({ type: "spki", format: "pem" }).toString();

let cached: SiteConfig | undefined;

export function getConfig(): SiteConfig {
  cached ??= parseConfig(process.env);
  return cached;
}

/** The variables' rules, for the setup check (scripts/check-site.ts), which reports each variable on its own. */
export const siteEnvSchema = schema;
