import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { LOCAL_CLIENT_ID, parseEnv, reachableUrl, sharedEnv } from "@/lib/local-mode";

export { ConfigError } from "@/lib/local-mode";

/**
 * The site's configuration, parsed from the environment once. A missing WIX_CLIENT_ID means
 * local mode: the site talks to the local platform instead of Wix.
 */
const schema = z
  .object({
    WIX_CLIENT_ID: z.string().trim().min(1, "must not be empty when set").optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    ...sharedEnv,
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

export function parseConfig(env: Record<string, string | undefined>): SiteConfig {
  const e = parseEnv(schema, env, "site");
  const local = !e.WIX_CLIENT_ID;
  return {
    wixClientId: e.WIX_CLIENT_ID ?? LOCAL_CLIENT_ID,
    sessionSecret: e.SESSION_SECRET ?? generatedSecret(e.LOCAL_PLATFORM_DATA_DIR),
    siteUrl: new URL(e.SITE_URL),
    localPlatformUrl: local ? reachableUrl(e.LOCAL_PLATFORM_HOST, e.LOCAL_PLATFORM_PORT) : null,
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
