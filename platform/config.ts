import path from "node:path";
import { z } from "zod";
import { parseEnv, sharedEnv } from "../lib/local-mode";

export { LOCAL_CLIENT_ID } from "../lib/local-mode";

/** The local platform's own settings, read from the environment once. */
const schema = z.object({
  LOCAL_PLATFORM_PORT: sharedEnv.LOCAL_PLATFORM_PORT,
  LOCAL_PLATFORM_HOST: sharedEnv.LOCAL_PLATFORM_HOST,
  LOCAL_PLATFORM_DATA_DIR: sharedEnv.LOCAL_PLATFORM_DATA_DIR,
  LOCAL_PLATFORM_TOKEN_TTL: z.coerce.number().int().positive().default(14400),
  LOCAL_PLATFORM_AUTH_CODE_TTL: z.coerce.number().int().positive().default(60),
  LOCAL_PLATFORM_API_KEY: z.string().min(16).default("local-platform-admin-key-change-me"),
  LOCAL_PLATFORM_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("warn"),
  SITE_URL: sharedEnv.SITE_URL,
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
  logLevel: string;
  /** In-memory database instead of a file (tests). */
  inMemory?: boolean;
};

export function readPlatformConfig(env: Record<string, string | undefined> = process.env): PlatformConfig {
  const e = parseEnv(schema, env, "local platform");
  return {
    port: e.LOCAL_PLATFORM_PORT,
    host: e.LOCAL_PLATFORM_HOST,
    dataDir: path.resolve(e.LOCAL_PLATFORM_DATA_DIR),
    tokenTtlSeconds: e.LOCAL_PLATFORM_TOKEN_TTL,
    authCodeTtlSeconds: e.LOCAL_PLATFORM_AUTH_CODE_TTL,
    apiKey: e.LOCAL_PLATFORM_API_KEY,
    siteUrl: e.SITE_URL.replace(/\/+$/, ""),
    logLevel: e.LOCAL_PLATFORM_LOG_LEVEL,
  };
}

