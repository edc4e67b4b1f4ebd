// Next.js's cache (the data cache behind unstable_cache, lib/wix/cache.ts) shared by every
// instance of the site through Redis, so a revalidation on one instance is seen by all of them
// (docs/performance.md, "More than one machine"). next.config.ts always names this handler; it
// reads REDIS_URL when the server starts, so one build serves one instance or many. Without it
// the cache is this process's memory. Plain JavaScript: Next.js imports it at run time, outside
// the bundle.
import { CacheHandler } from "@fortedigital/nextjs-cache-handler";
import createLruHandler from "@fortedigital/nextjs-cache-handler/local-lru";
import createRedisHandler from "@fortedigital/nextjs-cache-handler/redis-strings";
import { PHASE_PRODUCTION_BUILD } from "next/constants.js";
import { createClient } from "redis";

/** Keys of this site; several sites may share one Redis. */
const KEY_PREFIX = process.env.REDIS_KEY_PREFIX || "ridgeline:";

async function redisHandlers() {
  const client = createClient({ url: process.env.REDIS_URL, pingInterval: 10_000 });
  // The client reconnects by itself; meanwhile reads miss and go to the platform.
  client.on("error", (error) => console.error(`Redis cache: ${error.message}`));
  // A Redis that is down at start does not hold the site back: give it a few seconds.
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("no connection within 5 s")), 5000).unref());
  try {
    await Promise.race([client.connect(), timeout]);
  } catch (error) {
    client.destroy();
    throw error;
  }
  return { handlers: [createRedisHandler({ client, keyPrefix: KEY_PREFIX, timeoutMs: 1000 })] };
}

// One connection per process, however many times Next.js creates the handler.
let configuration;
CacheHandler.onCreation(() => {
  // The build renders nothing from the platform (every page is dynamic): no Redis needed there.
  if (process.env.NEXT_PHASE === PHASE_PRODUCTION_BUILD || !process.env.REDIS_URL) return { handlers: [createLruHandler()] };
  configuration ??= redisHandlers().catch((error) => {
    // Serving beats failing: this instance keeps its own cache, but others do not see its revalidations.
    console.error(`Redis cache unavailable at start (${error.message}); this instance caches on its own, and its revalidations are not shared.`);
    return { handlers: [createLruHandler()] };
  });
  return configuration;
});

export default CacheHandler;
