import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readPlatformConfig } from "./config";
import { createPlatform } from "./server";

/**
 * `npx tsx platform/bench-durability.ts`: what syncing every commit costs (docs/platform/operations.md
 * §4). Single-item inserts and bulk inserts of 100 through the HTTP routes (Fastify inject) on a
 * database file, with the platform's `synchronous = FULL` and, for comparison, with NORMAL.
 */

const SINGLE_INSERTS = 1000;
const BULK_INSERTS = 50;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(synchronous: "FULL" | "NORMAL") {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-durability-"));
  const { app, ctx } = createPlatform({ ...readPlatformConfig({}), dataDir });
  ctx.db.pragma(`synchronous = ${synchronous}`);
  ctx.data.createCollection({
    id: "Bench",
    fields: [{ key: "n", type: "NUMBER" }],
    permissions: { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  });
  const headers = { authorization: ctx.config.apiKey, "content-type": "application/json" };
  const timed = async (url: string, body: unknown) => {
    const started = performance.now();
    const reply = await app.inject({ method: "POST", url, headers, payload: JSON.stringify(body) });
    if (reply.statusCode !== 200) throw new Error(`${url} answered ${reply.statusCode}: ${reply.body}`);
    return performance.now() - started;
  };
  try {
    const single: number[] = [];
    const started = performance.now();
    for (let i = 0; i < SINGLE_INSERTS; i++) single.push(await timed("/wix-data/v2/items", { dataCollectionId: "Bench", dataItem: { data: { n: i } } }));
    const perSecond = SINGLE_INSERTS / ((performance.now() - started) / 1000);
    const bulk: number[] = [];
    for (let i = 0; i < BULK_INSERTS; i++) {
      bulk.push(
        await timed("/wix-data/v2/bulk/items/insert", { dataCollectionId: "Bench", dataItems: Array.from({ length: 100 }, (_, j) => ({ data: { n: j } })) }),
      );
    }
    single.sort((a, b) => a - b);
    bulk.sort((a, b) => a - b);
    console.log(
      `synchronous=${synchronous.padEnd(6)} single insert p50 ${percentile(single, 50).toFixed(2)} ms, p95 ${percentile(single, 95).toFixed(2)} ms,` +
        ` ${perSecond.toFixed(0)}/s one after another;` +
        ` bulk of 100 p50 ${percentile(bulk, 50).toFixed(2)} ms, p95 ${percentile(bulk, 95).toFixed(2)} ms`,
    );
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await measure("FULL");
await measure("NORMAL");
await measure("FULL");
