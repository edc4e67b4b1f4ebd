import { getConfig } from "@/lib/config";
import { logger } from "@/lib/observability/log";
import { connectRedis } from "./redis";

/**
 * Signatures already taken by the revalidation webhook, so a captured call cannot be replayed
 * while its timestamp is still fresh. Each is kept a little longer than that window. With
 * `REDIS_URL` every instance shares them (a call replayed to another instance is refused too);
 * while Redis is unreachable each instance remembers on its own.
 */
export type SeenSignatures = {
  /** True the first time a signature is offered, false on every later offer within `ttlSeconds`. */
  firstSeen(signature: string, ttlSeconds: number): Promise<boolean>;
  close(): Promise<void>;
};

function memorySeen(now: () => number = Date.now): SeenSignatures {
  const seen = new Map<string, number>();
  return {
    async firstSeen(signature, ttlSeconds) {
      const at = now();
      // Expired entries go as new ones arrive: the map holds one window's calls at most.
      for (const [key, expires] of seen) if (expires <= at) seen.delete(key);
      if (seen.has(signature)) return false;
      seen.set(signature, at + ttlSeconds * 1000);
      return true;
    },
    close: async () => {},
  };
}

function redisSeen(url: string): SeenSignatures {
  const { client } = connectRedis(url, "webhook signature");
  const fallback = memorySeen();
  return {
    async firstSeen(signature, ttlSeconds) {
      if (!client.isReady) return fallback.firstSeen(signature, ttlSeconds);
      try {
        return (await client.set(`revalidate:seen:${signature}`, "1", { condition: "NX", expiration: { type: "EX", value: ttlSeconds } })) === "OK";
      } catch (error) {
        logger().warn({ err: (error as Error).message }, "webhook signature store unreachable; remembering in memory");
        return fallback.firstSeen(signature, ttlSeconds);
      }
    },
    close: async () => {
      if (client.isOpen) await client.close();
    },
  };
}

const STORE = Symbol.for("ridgeline.seen-webhook-signatures");

/** One store per process, whichever bundle asks. */
export function seenSignatures(): SeenSignatures {
  const global = globalThis as typeof globalThis & { [STORE]?: SeenSignatures };
  if (!global[STORE]) {
    const { redisUrl } = getConfig();
    global[STORE] = redisUrl ? redisSeen(redisUrl) : memorySeen();
  }
  return global[STORE];
}

/** A fresh store of its own, for tests. */
export const createSeenSignatures = (redisUrl?: string): SeenSignatures => (redisUrl ? redisSeen(redisUrl) : memorySeen());
