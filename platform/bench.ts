import { readPlatformConfig } from "./config";
import { DataStore } from "./data/store";
import { createPlatform } from "./server";

/**
 * `npm run bench:platform`: latency of the data service through its HTTP routes (Fastify
 * inject: routing, validation, SQL and serialisation, no sockets) on an in-memory database,
 * at 10,000 and 100,000 items, plus bulk insert of 1,000 items.
 */

const platform = createPlatform({ ...readPlatformConfig(), inMemory: true });
const { app, ctx } = platform;
const store = new DataStore(ctx.db);
const headers = { authorization: ctx.config.apiKey, "content-type": "application/json" };
const COLLECTION = "Bench";
const WORDS = ["granite", "cedar", "harbour", "meadow", "summit", "canyon", "glacier", "willow"];

store.createCollection({
  id: COLLECTION,
  fields: [
    { key: "title", type: "TEXT" },
    { key: "code", type: "TEXT" },
    { key: "n", type: "NUMBER" },
  ],
  permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
});

function itemFor(i: number) {
  return { code: `code-${i}`, n: i % 5000, title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} trail ${i}`, tags: [WORDS[i % 3]] };
}

function fill(from: number, to: number) {
  store.transaction(() => {
    for (let i = from; i < to; i++) store.insertItem(COLLECTION, itemFor(i), null);
  });
}

async function post(url: string, body: unknown) {
  const response = await app.inject({ method: "POST", url, headers, payload: JSON.stringify(body) });
  if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  return response.json() as { dataItems?: unknown[]; results?: unknown[] };
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(label: string, runs: number, request: (i: number) => Promise<unknown>) {
  await request(-1);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await request(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(52)} p50 ${percentile(times, 50).toFixed(2).padStart(8)} ms   p95 ${percentile(times, 95).toFixed(2).padStart(8)} ms   (${runs} runs)`);
}

const query = (query: unknown) => post("/wix-data/v2/items/query", { dataCollectionId: COLLECTION, query });

async function queries(size: number) {
  const at = (i: number) => Math.abs(i * 7919) % size;
  await measure(`equality (code = …) at ${size.toLocaleString("en")}`, 300, async (i) => {
    const { dataItems } = await query({ filter: { code: `code-${at(i)}` } });
    if (dataItems?.length !== 1) throw new Error("equality filter found the wrong rows");
  });
  await measure(`range + sort (n in [x, x+50), sort n) at ${size.toLocaleString("en")}`, 100, (i) =>
    query({ filter: { n: { $gte: at(i) % 4900, $lt: (at(i) % 4900) + 50 } }, sort: [{ fieldName: "n", order: "ASC" }], paging: { limit: 50 } }),
  );
  await measure(`contains (title contains …) at ${size.toLocaleString("en")}`, 30, (i) =>
    query({ filter: { title: { $contains: `trail ${at(i)}` } }, paging: { limit: 50 } }),
  );
}

async function main() {
  console.log("Local platform data service benchmark (in-memory SQLite, through the HTTP routes)\n");
  let started = performance.now();
  fill(0, 10_000);
  console.log(`built 10,000 items in ${(performance.now() - started).toFixed(0)} ms`);
  await queries(10_000);
  started = performance.now();
  fill(10_000, 100_000);
  console.log(`\nbuilt 100,000 items in ${(performance.now() - started).toFixed(0)} ms (total)`);
  await queries(100_000);
  console.log("");
  let batch = 0;
  await measure("bulk insert of 1,000 items (at 100,000+)", 10, async () => {
    const dataItems = Array.from({ length: 1000 }, (_, i) => ({ data: { ...itemFor(i), code: `bulk-${batch}-${i}` } }));
    batch++;
    const { results } = await post("/wix-data/v2/bulk/items/insert", { dataCollectionId: COLLECTION, dataItems });
    if (results?.length !== 1000) throw new Error("bulk insert lost items");
  });
  await app.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
