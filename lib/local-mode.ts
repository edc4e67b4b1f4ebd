import { z } from "zod";

/**
 * What the site and the local platform both need to agree on, and nothing else: the platform
 * may import this module, the site never imports the platform. Keep it free of Next.js and
 * Node-only APIs beyond what both sides run on.
 */

/** The OAuth client the local platform registers for the site when no WIX_CLIENT_ID is set. */
export const LOCAL_CLIENT_ID = "local-site-client";

/**
 * The `@wix/*` packages hard-code https://www.wixapis.com and https://edge.wixapis.com, so a
 * fetch that talks to the local platform re-addresses requests for those hosts to it,
 * keeping path and query.
 */
const WIX_API_HOSTS = new Set(["www.wixapis.com", "edge.wixapis.com"]);

type Fetch = typeof globalThis.fetch;

export function routeWixApis(platformUrl: string, upstream: Fetch): Fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!WIX_API_HOSTS.has(url.hostname)) return upstream(input, init);
    const target = new URL(url.pathname + url.search, platformUrl);
    return upstream(input instanceof Request ? new Request(target, input) : target, init);
  };
}

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
  LOCAL_PLATFORM_PORT: z.coerce.number("must be a port number").int("must be a port number").min(1, "must be a port number").max(65535, "must be a port number").default(4010),
  LOCAL_PLATFORM_HOST: z.string().trim().min(1, "must not be empty when set").default("127.0.0.1"),
  LOCAL_PLATFORM_DATA_DIR: z.string().trim().min(1, "must not be empty when set").default(".data"),
};

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
