import path from "node:path";
import { z } from "zod";
import { LOG_LEVELS, parseEnv, sharedEnv } from "@ridgeline/platform-contract";
import { faultsFromEnv, type FaultRule } from "./http/faults";
import type { SignupSettings } from "./identity/settings";
import { siteCurrencyFromEnv, siteLanguagesFromEnv, siteLocaleFromEnv, siteTimeZoneFromEnv, type SiteLocale } from "./site-assets/properties";
import { siteScriptsFromEnv, type SiteScript } from "./site-assets/scripts";

export { LOCAL_CLIENT_ID } from "@ridgeline/platform-contract";

/** The admin key everyone knows: it works only from this machine (docs/platform/operations.md §1). */
export const DEFAULT_API_KEY = "local-platform-admin-key-change-me";

/** "true"/"1"/"yes" or "false"/"0"/"no"; unset is off. */
const flag = z
  .enum(["true", "false", "1", "0", "yes", "no"], "must be true or false")
  .optional()
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** The local platform's own settings, read from the environment once. */
const schema = z.object({
  LOCAL_PLATFORM_PORT: sharedEnv.LOCAL_PLATFORM_PORT,
  LOCAL_PLATFORM_HOST: sharedEnv.LOCAL_PLATFORM_HOST,
  LOCAL_PLATFORM_DATA_DIR: sharedEnv.LOCAL_PLATFORM_DATA_DIR,
  LOCAL_PLATFORM_TOKEN_TTL: z.coerce.number().int().positive().default(14400),
  LOCAL_PLATFORM_AUTH_CODE_TTL: z.coerce.number().int().positive().default(60),
  LOCAL_PLATFORM_API_KEY: z.string().min(16).default(DEFAULT_API_KEY),
  LOCAL_PLATFORM_LOG_LEVEL: z.enum(LOG_LEVELS).default("warn"),
  SITE_URL: sharedEnv.SITE_URL,
  /** The platform's address as browsers and mail readers open it; unset: the bind address and port. */
  LOCAL_PLATFORM_PUBLIC_URL: z
    .url("must be an absolute http(s) URL")
    .refine((value) => /^https?:\/\//.test(value), "must be an absolute http(s) URL")
    .optional(),
  LOCAL_PLATFORM_REQUIRE_EMAIL_VERIFICATION: flag,
  LOCAL_PLATFORM_REQUIRE_OWNER_APPROVAL: flag,
  LOCAL_PLATFORM_REQUIRE_CAPTCHA: flag,
  LOCAL_PLATFORM_REJECT_INVISIBLE_CAPTCHA: flag,
  /** Browser origins allowed to call the public API (docs/platform/operations.md §1), comma-separated; unset: none. */
  LOCAL_PLATFORM_CORS_ORIGINS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/?#\s]+$/, "must be origins such as http://localhost:5173, separated by commas"))),
  /** Extra OAuth clients as JSON (docs/platform/oauth.md §1). */
  LOCAL_PLATFORM_OAUTH_CLIENTS: z.string().optional(),
  /** Where the site takes webhook events: the platform registers it as the app LOCAL_SITE_APP_ID (docs/platform/webhooks.md); unset: not registered. */
  LOCAL_PLATFORM_SITE_WEBHOOK_URL: z
    .url("must be an absolute http(s) URL")
    .refine((value) => /^https?:\/\//.test(value), "must be an absolute http(s) URL")
    .optional(),
  /** Faults from the start, as JSON (docs/platform/operations.md §3). */
  LOCAL_PLATFORM_FAULTS: faultsFromEnv,
  /** The scripts the site embeds in its pages, as JSON (docs/platform/site-assets.md). */
  LOCAL_PLATFORM_SITE_SCRIPTS: siteScriptsFromEnv,
  LOCAL_PLATFORM_SITE_LOCALE: siteLocaleFromEnv,
  LOCAL_PLATFORM_SITE_CURRENCY: siteCurrencyFromEnv,
  LOCAL_PLATFORM_SITE_TIME_ZONE: siteTimeZoneFromEnv,
  LOCAL_PLATFORM_SITE_LANGUAGES: siteLanguagesFromEnv,
  LOCAL_PLATFORM_ANONYMOUS_GRANTS_PER_MINUTE: z.coerce.number().int().positive().default(120),
  LOCAL_PLATFORM_PRUNE_INTERVAL: z.coerce.number().int().positive().default(300),
  LOCAL_PLATFORM_VISITOR_TOKEN_IDLE_DAYS: z.coerce
    .number("must be a number of days")
    .int("must be a whole number of days")
    .positive("must be at least 1 day")
    .default(30),
});

export type PlatformConfig = {
  port: number;
  host: string;
  dataDir: string;
  /** Access-token lifetime in seconds (`expires_in`). */
  tokenTtlSeconds: number;
  /** Authorization-code lifetime in seconds; tests shorten it to see codes expire. */
  authCodeTtlSeconds: number;
  apiKey: string;
  siteUrl: string;
  /** Where links in mails and redirect sessions point; null: the bind address and the port listened on. */
  publicUrl: string | null;
  logLevel: string;
  /** The sign-up settings the platform starts with (docs/platform/identity.md §4). */
  signup: SignupSettings;
  /** Browser origins that get CORS headers on the public API; empty: none (the default). */
  corsOrigins: string[];
  /** Extra OAuth clients, JSON from the environment; `oauth-clients.json` in the data folder adds more. */
  oauthClientsJson?: string;
  /** Where the site takes webhook events as the app LOCAL_SITE_APP_ID; null: the site is no app here. */
  siteWebhookUrl: string | null;
  /** Fault rules in force when the platform starts. */
  faults: FaultRule[];
  /** The scripts `listSiteScripts` answers; empty: none. */
  siteScripts: SiteScript[];
  /** The site's locale, billing currency, time zone and further languages (`getEssentialProperties`). */
  siteProperties: { locale: SiteLocale; currency: string; timeZone: string; languages: SiteLocale[] };
  /** Anonymous token grants one client address may make per minute. */
  anonymousGrantsPerMinute: number;
  /** Seconds between sweeps of expired and revoked tokens, codes and sessions. */
  pruneIntervalSeconds: number;
  /** A visitor's token pair not refreshed for this long is swept. */
  visitorTokenIdleSeconds: number;
  /** In-memory database instead of a file (tests). */
  inMemory?: boolean;
};

export function readPlatformConfig(env: Record<string, string | undefined> = process.env): PlatformConfig {
  const e = parseEnv(schema, env, "local platform");
  const dataDir = path.resolve(e.LOCAL_PLATFORM_DATA_DIR);
  return {
    port: e.LOCAL_PLATFORM_PORT,
    host: e.LOCAL_PLATFORM_HOST,
    dataDir,
    tokenTtlSeconds: e.LOCAL_PLATFORM_TOKEN_TTL,
    authCodeTtlSeconds: e.LOCAL_PLATFORM_AUTH_CODE_TTL,
    apiKey: e.LOCAL_PLATFORM_API_KEY,
    siteUrl: e.SITE_URL.replace(/\/+$/, ""),
    publicUrl: e.LOCAL_PLATFORM_PUBLIC_URL?.replace(/\/+$/, "") ?? null,
    logLevel: e.LOCAL_PLATFORM_LOG_LEVEL,
    signup: {
      requireEmailVerification: e.LOCAL_PLATFORM_REQUIRE_EMAIL_VERIFICATION,
      requireOwnerApproval: e.LOCAL_PLATFORM_REQUIRE_OWNER_APPROVAL,
      requireCaptcha: e.LOCAL_PLATFORM_REQUIRE_CAPTCHA,
      rejectInvisibleCaptcha: e.LOCAL_PLATFORM_REJECT_INVISIBLE_CAPTCHA,
    },
    corsOrigins: e.LOCAL_PLATFORM_CORS_ORIGINS,
    oauthClientsJson: e.LOCAL_PLATFORM_OAUTH_CLIENTS,
    siteWebhookUrl: e.LOCAL_PLATFORM_SITE_WEBHOOK_URL ?? null,
    faults: e.LOCAL_PLATFORM_FAULTS,
    siteScripts: e.LOCAL_PLATFORM_SITE_SCRIPTS,
    siteProperties: {
      locale: e.LOCAL_PLATFORM_SITE_LOCALE,
      currency: e.LOCAL_PLATFORM_SITE_CURRENCY,
      timeZone: e.LOCAL_PLATFORM_SITE_TIME_ZONE,
      languages: e.LOCAL_PLATFORM_SITE_LANGUAGES,
    },
    anonymousGrantsPerMinute: e.LOCAL_PLATFORM_ANONYMOUS_GRANTS_PER_MINUTE,
    pruneIntervalSeconds: e.LOCAL_PLATFORM_PRUNE_INTERVAL,
    visitorTokenIdleSeconds: e.LOCAL_PLATFORM_VISITOR_TOKEN_IDLE_DAYS * 24 * 60 * 60,
  };
}
