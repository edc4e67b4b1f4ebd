import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { collections, items } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeWixApis } from "@ridgeline/platform-contract";
import { freePort, startChildPlatform, type ChildPlatform } from "./child-platform";
import { DATABASE_FILE } from "./db";
import { DEFAULT_API_KEY } from "./config";

/**
 * Durability (docs/platform/operations.md §4): the platform is killed outright (SIGKILL) while
 * writes stream in through the real `@wix/data` client; after a restart every write it had
 * acknowledged is there, and the database file passes SQLite's integrity check.
 */

const COLLECTION = "Durable";
const WORKERS = 4;
/** Acknowledged writes to wait for before the kill; the workers keep writing until it lands. */
const KILL_AFTER_ACKNOWLEDGED = 300;

let dataDir: string;
let env: Record<string, string> & { LOCAL_PLATFORM_PORT: string };
const originalFetch = globalThis.fetch;
const running: ChildPlatform[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-durability-"));
  env = { LOCAL_PLATFORM_DATA_DIR: dataDir, LOCAL_PLATFORM_PORT: String(await freePort()), LOCAL_PLATFORM_LOG_LEVEL: "warn" };
});
afterAll(async () => {
  globalThis.fetch = originalFetch;
  for (const child of running) child.process.kill("SIGKILL");
  await Promise.all(running.map((child) => child.exited));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<ChildPlatform> {
  const child = await startChildPlatform(env);
  running.push(child);
  globalThis.fetch = routeWixApis(child.url, originalFetch);
  return child;
}

const admin = () => createClient({ modules: { items, collections }, auth: ApiKeyStrategy({ apiKey: DEFAULT_API_KEY, siteId: "local-site" }) });

/** One worker: single inserts and bulk inserts of five, each recorded once acknowledged, until a call fails. */
async function writeUntilFailure(worker: number, acknowledged: Map<string, number>, failures: unknown[]) {
  const client = admin();
  for (let round = 0; ; round++) {
    const ids = round % 2 === 0 ? [`w${worker}-${round}`] : Array.from({ length: 5 }, (_, i) => `w${worker}-${round}-${i}`);
    try {
      if (ids.length === 1) await client.items.insert(COLLECTION, { _id: ids[0], n: round });
      else
        await client.items.bulkInsert(
          COLLECTION,
          ids.map((_id) => ({ _id, n: round })),
        );
    } catch (error) {
      failures.push(error);
      return;
    }
    for (const id of ids) acknowledged.set(id, round);
  }
}

describe("a hard kill during writes", () => {
  it("loses no acknowledged write and leaves an intact database", async () => {
    const first = await start();
    // One warning at start: the admin key is the default one.
    expect(first.output().match(/admin key is the default one/g)).toHaveLength(1);
    await admin().collections.createDataCollection({
      _id: COLLECTION,
      displayName: COLLECTION,
      fields: [{ key: "n", displayName: "n", type: "NUMBER" }] as never,
      permissions: { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as never,
    });

    const acknowledged = new Map<string, number>();
    const failures: unknown[] = [];
    const writers = Array.from({ length: WORKERS }, (_, worker) => writeUntilFailure(worker, acknowledged, failures));
    while (acknowledged.size < KILL_AFTER_ACKNOWLEDGED && failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    first.process.kill("SIGKILL");
    await first.exited;
    await Promise.all(writers);
    // Every worker was cut off mid-call: the kill landed during writes.
    expect(failures).toHaveLength(WORKERS);
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);

    // The file as the kill left it: SQLite recovers the WAL on open.
    const file = path.join(dataDir, DATABASE_FILE);
    const direct = new Database(file);
    try {
      expect(direct.pragma("integrity_check", { simple: true })).toBe("ok");
      const stored = new Set((direct.prepare("SELECT id FROM data_items WHERE collection_id = ?").all(COLLECTION) as { id: string }[]).map((row) => row.id));
      expect([...acknowledged.keys()].filter((id) => !stored.has(id))).toEqual([]);
    } finally {
      direct.close();
    }

    // And through the restarted platform, values included.
    const second = await start();
    const found = new Map<string, unknown>();
    let page = await admin().items.query(COLLECTION).limit(1000).find();
    for (;;) {
      for (const item of page.items) found.set(item._id as string, item.n);
      if (!page.hasNext()) break;
      page = await page.next();
    }
    expect([...acknowledged].filter(([id, n]) => found.get(id) !== n)).toEqual([]);
    second.process.kill("SIGTERM");
    await second.exited;
    const after = new Database(file, { readonly: true });
    try {
      expect(after.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      after.close();
    }
  }, 90_000);
});
