/**
 * The site's production server: Next.js's request handler on our own HTTP server, so that each
 * request runs in a context that knows the socket's address and gets one log line
 * (docs/operations.md). Built into `.next/standalone/site-server.mjs` by
 * scripts/build-server.mjs and run from there, next to the standalone output it serves.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { ConfigError, getConfig } from "@/lib/config";
import { logger } from "@/lib/observability/log";
import { contentSecurityPolicy, platformPageOrigins } from "@/lib/security/policy";
import { isFormActionName, type BuildActions } from "@/lib/security/request-guard";
import type { PageCacheSettings } from "./page-cache/http";
import { createRedisPages } from "./page-cache/redis-pages";
import { createRequestListener, createSiteServer } from "./serve";

const dir = path.dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.PORT ?? 3000);

// Next.js finds some of the build's files (the cache handler) from the working directory, so its
// own standalone server.js moves into its folder; so does this one. A data folder named relative
// to where the server was started stays where it was.
process.env.LOCAL_PLATFORM_DATA_DIR = path.resolve(process.env.LOCAL_PLATFORM_DATA_DIR ?? ".data");
process.chdir(dir);

// What the standalone server.js Next.js writes does: the build's configuration, not next.config.ts.
const { config } = JSON.parse(fs.readFileSync(path.join(dir, ".next", "required-server-files.json"), "utf8")) as { config: object };
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
Object.assign(process.env, { NODE_ENV: "production" });

try {
  getConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const log = logger();

// Next.js builds each request's URL from this hostname and port, never from Host; the site's
// own links and redirects use SITE_URL anyway (docs/auth-pitfalls.md P12).
const app = next({ dev: false, dir, port, hostname: "localhost" });
await app.prepare();
const { siteUrl, maxConcurrentRequests, pageCache: cacheConfig, memberSession, redisUrl, redisKeyPrefix, localPlatformUrl } = getConfig();
const https = siteUrl.protocol === "https:";

function pageCacheSettings(): PageCacheSettings | null {
  if (cacheConfig.maxBytes === 0) return null;
  const buildId = fs.readFileSync(path.join(dir, ".next", "BUILD_ID"), "utf8").trim();
  const ttlSeconds = cacheConfig.freshSeconds + cacheConfig.staleSeconds;
  return {
    ...cacheConfig,
    memberTemplates: true,
    // What the platform told a member alone is trusted as long as its word that their session stands.
    personalFreshSeconds: memberSession.checkIntervalSeconds,
    shared: redisUrl ? createRedisPages({ url: redisUrl, prefix: redisKeyPrefix, buildId, ttlSeconds, log }) : undefined,
    policy: (hashes) => contentSecurityPolicy({ scripts: { hashes }, platformOrigins: platformPageOrigins(localPlatformUrl), https, development: false }),
  };
}

/** The build's server actions, which Next.js writes to its server-reference manifest with their names. */
function buildActions(): BuildActions {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, ".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node?: Record<string, { exportedName?: string }>;
  };
  const actions = Object.entries(manifest.node ?? {});
  return {
    ids: new Set(actions.map(([id]) => id)),
    formActionIds: new Set(actions.filter(([, action]) => isFormActionName(action.exportedName ?? "")).map(([id]) => id)),
  };
}

const listener = createRequestListener(app.getRequestHandler(), {
  log,
  siteOrigin: siteUrl.origin,
  https,
  maxConcurrentRequests,
  pageCache: pageCacheSettings(),
  actions: buildActions(),
  dir,
});
const server = createSiteServer(listener);

/** Stops taking connections and lets requests in flight finish, for at most ten seconds. */
function shutDown(signal: NodeJS.Signals) {
  log.info({ signal }, "shutting down");
  server.close(() => void (listener.pageCache?.close() ?? Promise.resolve()).finally(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.once("SIGTERM", shutDown);
process.once("SIGINT", shutDown);

server.listen(port, () => log.info({ port, siteUrl: siteUrl.origin }, "site listening"));
