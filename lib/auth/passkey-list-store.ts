import { createHash } from "node:crypto";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { logger } from "@/lib/observability/log";
import { connectRedis } from "@/lib/security/redis";

/**
 * The passkeys a pending login's request allows, when there are too many, or too long, for its
 * sealed cookie (verification-store.ts): kept here for the step's life, keyed by a digest of the
 * request's challenge id. With `REDIS_URL` every instance shares them; else, or while Redis is
 * unreachable, each instance keeps its own, and an instance without the list asks the browser for
 * any passkey it holds for the site (the platform still accepts only the member's).
 */
export type PasskeyListStore = {
  put(challengeId: string, credentialIds: string[], ttlSeconds: number): Promise<void>;
  /** The list, or null when it expired or another instance holds it. */
  get(challengeId: string): Promise<string[] | null>;
  close(): Promise<void>;
};

const keyOf = (challengeId: string) => `auth:passkeys:${createHash("sha256").update(challengeId).digest("base64url")}`;
const stored = z.array(z.string().max(1024)).max(1000);

function memoryLists(now: () => number = Date.now): PasskeyListStore {
  const lists = new Map<string, { credentialIds: string[]; expires: number }>();
  return {
    async put(challengeId, credentialIds, ttlSeconds) {
      const at = now();
      // Expired lists go as new ones arrive: the map holds one step's life of logins at most.
      for (const [key, list] of lists) if (list.expires <= at) lists.delete(key);
      lists.set(keyOf(challengeId), { credentialIds, expires: at + ttlSeconds * 1000 });
    },
    async get(challengeId) {
      const list = lists.get(keyOf(challengeId));
      return list && list.expires > now() ? list.credentialIds : null;
    },
    close: async () => {},
  };
}

function redisLists(url: string): PasskeyListStore {
  const { client } = connectRedis(url, "passkey list");
  const fallback = memoryLists();
  const unreachable = (error: unknown) => logger().warn({ err: (error as Error).message }, "passkey list store unreachable; keeping lists in memory");
  return {
    async put(challengeId, credentialIds, ttlSeconds) {
      if (!client.isReady) return fallback.put(challengeId, credentialIds, ttlSeconds);
      try {
        await client.set(keyOf(challengeId), JSON.stringify(credentialIds), { expiration: { type: "EX", value: ttlSeconds } });
      } catch (error) {
        unreachable(error);
        await fallback.put(challengeId, credentialIds, ttlSeconds);
      }
    },
    async get(challengeId) {
      if (!client.isReady) return fallback.get(challengeId);
      try {
        const value = await client.get(keyOf(challengeId));
        return value === null ? fallback.get(challengeId) : (stored.safeParse(JSON.parse(value)).data ?? null);
      } catch (error) {
        unreachable(error);
        return fallback.get(challengeId);
      }
    },
    close: async () => {
      if (client.isOpen) await client.close();
    },
  };
}

const STORE = Symbol.for("ridgeline.passkey-lists");

/** One store per process, whichever bundle asks. */
export function passkeyLists(): PasskeyListStore {
  const global = globalThis as typeof globalThis & { [STORE]?: PasskeyListStore };
  if (!global[STORE]) {
    const { redisUrl } = getConfig();
    global[STORE] = redisUrl ? redisLists(redisUrl) : memoryLists();
  }
  return global[STORE];
}

/** A fresh store of its own, for tests. */
export const createPasskeyListStore = (redisUrl?: string): PasskeyListStore => (redisUrl ? redisLists(redisUrl) : memoryLists());
