import { randomUUID } from "node:crypto";
import { RESP_TYPES, createClient } from "redis";
import type { Logger } from "pino";
import type { CachedPage } from "./page";
import type { SharedPages } from "./page-cache";

/**
 * Pages shared by every instance of the site through Redis (docs/performance.md, "Page cache"):
 *
 * - a page is one binary value under its key, namespaced by the build (a page of another build
 *   names script files this one does not have), expiring with its stale lifetime;
 * - a revalidation writes each tag's time into one hash and is published to every instance,
 *   which drops its own copies; a page read from Redis rendered before its tags' time is
 *   outdated and ignored;
 * - a page found gone is deleted and its key published on a channel of the build, and every
 *   instance drops its copy;
 * - an instance whose subscription was lost may have missed revalidations: when it is back it
 *   drops every page it holds in memory.
 *
 * While Redis cannot be reached each instance caches on its own; nothing waits for it.
 */

type Meta = Omit<CachedPage, "body" | "gzip" | "br"> & { sizes: [number, number, number] };

export function encodePage(page: CachedPage): Buffer {
  const { body, gzip, br, ...rest } = page;
  const meta = Buffer.from(JSON.stringify({ ...rest, sizes: [body.length, gzip.length, br.length] } satisfies Meta));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(meta.length);
  return Buffer.concat([length, meta, body, gzip, br]);
}

export function decodePage(value: Buffer): CachedPage {
  const metaEnd = 4 + value.readUInt32BE(0);
  const { sizes, ...meta } = JSON.parse(value.subarray(4, metaEnd).toString("utf8")) as Meta;
  const [bodyEnd, gzipEnd] = [metaEnd + sizes[0], metaEnd + sizes[0] + sizes[1]];
  return { ...meta, body: value.subarray(metaEnd, bodyEnd), gzip: value.subarray(bodyEnd, gzipEnd), br: value.subarray(gzipEnd, gzipEnd + sizes[2]) };
}

export function createRedisPages(options: { url: string; prefix: string; buildId: string; ttlSeconds: number; log: Logger }): SharedPages {
  const socket = { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(retries * 200, 5000) };
  // No command timeout (redis 6 puts 5 s by default): a revalidation made while Redis is away waits for it.
  const client = createClient({ url: options.url, socket, commandOptions: { timeout: undefined } }).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const subscriber = createClient({ url: options.url, socket });
  const pageKey = (key: string) => `${options.prefix}page:${options.buildId}:${key}`;
  const tagTimes = `${options.prefix}page-tag-times`;
  const channel = `${options.prefix}page-revalidations`;
  // Keys are of one build, and so are the messages that name them.
  const drops = `${options.prefix}page-drops:${options.buildId}`;
  const instance = randomUUID();
  const listeners: Array<(change: { tags: string[]; everything: boolean }) => void> = [];
  const dropListeners: Array<(key: string) => void> = [];
  const tell = (change: { tags: string[]; everything: boolean }) => listeners.forEach((listener) => listener(change));

  let warned = false;
  const unreachable = (error: Error) => {
    if (!warned) options.log.warn({ err: error.message }, "page cache: Redis unreachable; this instance caches on its own");
    warned = true;
  };
  client.on("error", unreachable);
  subscriber.on("error", unreachable);
  // The first "ready" is the start; any later one follows a lost connection and missed messages.
  let subscribed = false;
  subscriber.on("ready", () => {
    warned = false;
    if (subscribed) tell({ tags: [], everything: true });
  });
  client.connect().catch(() => undefined);
  subscriber
    .connect()
    .then(() =>
      subscriber.subscribe(channel, (message) => {
        const change = JSON.parse(message) as { tags: string[]; from: string };
        if (change.from !== instance) tell({ tags: change.tags, everything: false });
      }),
    )
    .then(() =>
      subscriber.subscribe(drops, (message) => {
        const drop = JSON.parse(message) as { key: string; from: string };
        if (drop.from !== instance) dropListeners.forEach((listener) => listener(drop.key));
      }),
    )
    .then(() => (subscribed = true))
    .catch(() => undefined);

  return {
    async get(key) {
      if (!client.isReady) return undefined;
      const value = await client.get(pageKey(key));
      if (!value) return undefined;
      const page = decodePage(value);
      const times = page.tags.length ? await client.hmGet(tagTimes, page.tags) : [];
      return times.some((time) => time !== null && Number(time) >= page.renderedAt) ? undefined : page;
    },
    async set(page) {
      if (client.isReady) await client.set(pageKey(page.key), encodePage(page), { expiration: { type: "EX", value: options.ttlSeconds } });
    },
    async revalidate(tags, at) {
      if (tags.length === 0) return;
      // Queued while Redis is away and sent when it is back; the others then drop everything anyway.
      await client.hSet(tagTimes, Object.fromEntries(tags.map((tag) => [tag, String(at)])));
      await client.publish(channel, JSON.stringify({ tags, from: instance }));
    },
    onRevalidation(listener) {
      listeners.push(listener);
    },
    async drop(key) {
      // Not queued while Redis is away, unlike a revalidation: each instance's own refresh finds the page gone too.
      if (!client.isReady) return;
      await client.del(pageKey(key));
      await client.publish(drops, JSON.stringify({ key, from: instance }));
    },
    onDrop(listener) {
      dropListeners.push(listener);
    },
    async close() {
      await Promise.allSettled([client.isOpen && client.close(), subscriber.isOpen && subscriber.close()]);
    },
  };
}
