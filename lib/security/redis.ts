import { createClient, type RedisClientType } from "redis";
import { logger } from "@/lib/observability/log";

export type RedisClient = RedisClientType;

/**
 * A Redis client for the stores the instances share (rate limits, seen webhook signatures). It
 * keeps reconnecting; while Redis is unreachable the failure is logged and each caller falls
 * back to memory. `ready` settles once connected, or once the first attempt has failed.
 */
export function connectRedis(url: string, what: string): { client: RedisClient; ready: Promise<void> } {
  const client = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(retries * 200, 5000) } });
  client.on("error", (error: Error) => logger().warn({ err: error.message }, `${what} store unreachable; counting in memory`));
  const ready = client.connect().then(
    () => undefined,
    () => undefined, // Reported by the error listener; the reconnect strategy keeps trying.
  );
  return { client, ready };
}
