import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { LOCAL_CLIENT_ID } from "@/platform/config";

/**
 * The site's configuration, parsed from the environment once. A missing WIX_CLIENT_ID means
 * local mode: the site talks to the local platform instead of Wix.
 */
const schema = z
  .object({
    WIX_CLIENT_ID: z.string().trim().min(1, "must not be empty when set").optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SITE_URL: z.url("must be an absolute http(s) URL").default("http://localhost:3000"),
    LOCAL_PLATFORM_PORT: z.coerce.number("must be a port number").int().min(1).max(65535).default(4010),
    LOCAL_PLATFORM_DATA_DIR: z.string().min(1).default(".data"),
    NODE_ENV: z.string().optional(),
  })
  .superRefine((env, issue) => {
    if (env.WIX_CLIENT_ID && env.NODE_ENV === "production" && !env.SESSION_SECRET) {
      issue.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required in production (32+ random characters)" });
    }
  });

export type SiteConfig = {
  wixClientId: string;
  sessionSecret: string;
  siteUrl: URL;
  /** Set only in local mode: where the local platform listens. */
  localPlatformUrl: string | null;
};

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): SiteConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid site configuration:\n${lines.join("\n")}\nSee .env.example.`);
  }
  const e = parsed.data;
  const local = !e.WIX_CLIENT_ID;
  return {
    wixClientId: e.WIX_CLIENT_ID ?? LOCAL_CLIENT_ID,
    sessionSecret: e.SESSION_SECRET ?? generatedSecret(e.LOCAL_PLATFORM_DATA_DIR),
    siteUrl: new URL(e.SITE_URL),
    localPlatformUrl: local ? `http://127.0.0.1:${e.LOCAL_PLATFORM_PORT}` : null,
  };
}

/** Development only: a random secret kept under the data folder, created once and reused. */
function generatedSecret(dataDir: string): string {
  const file = path.resolve(dataDir, "session-secret");
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

let cached: SiteConfig | undefined;

export function getConfig(): SiteConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
