import path from "node:path";
import { z } from "zod";

/** The local platform's own settings, read from the environment once. */
const schema = z.object({
  LOCAL_PLATFORM_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  LOCAL_PLATFORM_HOST: z.string().min(1).default("127.0.0.1"),
  LOCAL_PLATFORM_DATA_DIR: z.string().min(1).default(".data"),
  LOCAL_PLATFORM_TOKEN_TTL: z.coerce.number().int().positive().default(14400),
  LOCAL_PLATFORM_AUTH_CODE_TTL: z.coerce.number().int().positive().default(60),
  LOCAL_PLATFORM_API_KEY: z.string().min(16).default("local-platform-admin-key-change-me"),
  LOCAL_PLATFORM_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("warn"),
  SITE_URL: z.url().default("http://localhost:3000"),
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
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid local platform configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
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

/** The OAuth client the local platform registers for the site when no WIX_CLIENT_ID is set. */
export const LOCAL_CLIENT_ID = "local-site-client";
