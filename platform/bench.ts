import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readPlatformConfig } from "./config";
import { BackupStore, type Backup, type Restoration } from "./data/backups";
import { createPlatform } from "./server";

/**
 * `npm run bench:platform`: latency of the data service through its HTTP routes (Fastify
 * inject: routing, validation, SQL and serialisation, no sockets) on an in-memory database,
 * at 10,000 and 100,000 items, plus bulk insert of 1,000 items, a backup and restore of
 * 100,000+ items, and a data-movement import of a 100,000-row CSV file and an export of it, with
 * the latency of another collection's queries while each runs.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-bench-"));
const platform = createPlatform({ ...readPlatformConfig(), inMemory: true, dataDir });
const { app, ctx } = platform;
const store = ctx.data;
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

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2).padStart(8)} ms   p95 ${percentile(sorted, 95).toFixed(2).padStart(8)} ms`;
}

/** Sends `request` one after another until `work` settles; answers the work's result, its time and the requests' latencies. */
async function whileRunning<T>(work: (done: (result: T) => void) => void, request: () => Promise<unknown>) {
  let result: T | undefined;
  const started = performance.now();
  work((value) => (result = value));
  const times: number[] = [];
  while (result === undefined) {
    const start = performance.now();
    await request();
    times.push(performance.now() - start);
  }
  return { result, ms: performance.now() - started, times };
}

/** A backup and a whole restore of everything, with another collection queried meanwhile. */
async function backupAndRestore() {
  const backups = new BackupStore(store, path.join(dataDir, "backups"));
  store.createCollection({
    id: "Other",
    fields: [{ key: "code", type: "TEXT" }],
    permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  });
  store.insertItem("Other", { code: "x" }, null);
  const other = () => post("/wix-data/v2/items/query", { dataCollectionId: "Other", query: { filter: { code: "x" } } });
  const items = store.countItems().toLocaleString("en");
  const backup = await whileRunning<Backup>((done) => backups.createBackup(done), other);
  if (backup.result.status !== "READY") throw new Error(`backup ended ${backup.result.status}`);
  console.log(`backup of ${items} items: ${backup.ms.toFixed(0)} ms to READY (${Number(backup.result.sizeInBytes).toLocaleString("en")} bytes)`);
  console.log(`${"  other collection's query meanwhile".padEnd(52)} ${summary(backup.times)}   (${backup.times.length} requests)`);
  const restore = await whileRunning<Restoration>((done) => backups.restore(backup.result, undefined, done), other);
  if (restore.result.status !== "COMPLETED") throw new Error(`restore ended ${restore.result.status}`);
  console.log(`restore of ${items} items: ${restore.ms.toFixed(0)} ms to COMPLETED (one transaction: requests wait for it)`);
  console.log(`${"  other collection's query meanwhile".padEnd(52)} ${summary(restore.times)}   (${restore.times.length} requests)`);
}

async function call(method: "GET" | "POST" | "PUT", url: string, payload?: string) {
  const response = await app.inject({ method, url, headers, payload });
  if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  return response.json() as Record<string, unknown>;
}

type Job = {
  id: string;
  status: string;
  progress: { current: number; itemsSuccessful: number; itemsRejected: number };
  destination: { file?: { url: string } };
};

/** Submits a data-movement job and queries the other collection until it has finished. */
async function jobWhileQuerying(request: unknown, other: () => Promise<unknown>) {
  const started = performance.now();
  let { job } = (await call("POST", "/data-mover/v1/jobs", JSON.stringify(request))) as { job: Job };
  const times: number[] = [];
  while (!["COMPLETED", "FAILED", "PARTIALLY_SUCCESSFUL"].includes(job.status)) {
    const start = performance.now();
    await other();
    times.push(performance.now() - start);
    job = ((await call("GET", `/data-mover/v1/jobs/${job.id}`)) as { job: Job }).job;
  }
  return { job, ms: performance.now() - started, times };
}

/** A 100,000-row CSV file imported by a data-movement job, then exported again, with another collection queried meanwhile. */
async function importAndExport() {
  const rows = 100_000;
  store.createCollection({
    id: "Imported",
    fields: [
      { key: "title", type: "TEXT" },
      { key: "code", type: "TEXT" },
      { key: "n", type: "NUMBER" },
      { key: "tags", type: "ARRAY_STRING" },
    ],
    permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
  });
  const lines = ["_id,title,code,n,tags"];
  for (let i = 0; i < rows; i++) {
    const item = itemFor(i);
    lines.push(`row-${i},${item.title},${item.code},${item.n},"${JSON.stringify(item.tags).replaceAll('"', '""')}"`);
  }
  const text = `${lines.join("\n")}\n`;
  const { fileId, uploadUrl } = (await call("POST", "/data-mover/v1/temporary-files/upload-url", JSON.stringify({ fileName: "bench.csv" }))) as {
    fileId: string;
    uploadUrl: string;
  };
  await call("PUT", new URL(uploadUrl).pathname, text);
  const other = () => post("/wix-data/v2/items/query", { dataCollectionId: "Other", query: { filter: { code: "x" } } });

  const imported = await jobWhileQuerying(
    { source: { file: { fileId } }, destination: { wixDataCollection: { collectionId: "Imported", writePolicy: "OVERWRITE" } } },
    other,
  );
  if (imported.job.status !== "COMPLETED" || imported.job.progress.itemsSuccessful !== rows)
    throw new Error(`import ended ${imported.job.status}: ${JSON.stringify(imported.job.progress)}`);
  console.log(
    `import job of ${rows.toLocaleString("en")} CSV rows (${(Buffer.byteLength(text) / 1024 / 1024).toFixed(1)} MB): ${imported.ms.toFixed(0)} ms to COMPLETED`,
  );
  console.log(`${"  other collection's query meanwhile".padEnd(52)} ${summary(imported.times)}   (${imported.times.length} requests)`);

  const exported = await jobWhileQuerying({ source: { wixDataCollection: { collectionId: "Imported" } }, destination: { file: { format: "JSONL" } } }, other);
  if (exported.job.status !== "COMPLETED" || exported.job.progress.itemsSuccessful !== rows) throw new Error(`export ended ${exported.job.status}`);
  console.log(`export job of ${rows.toLocaleString("en")} items to JSONL: ${exported.ms.toFixed(0)} ms to COMPLETED`);
  console.log(`${"  other collection's query meanwhile".padEnd(52)} ${summary(exported.times)}   (${exported.times.length} requests)`);
}

async function measure(label: string, runs: number, request: (i: number) => Promise<unknown>) {
  await request(-1);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await request(i);
    times.push(performance.now() - start);
  }
  console.log(`${label.padEnd(52)} ${summary(times)}   (${runs} runs)`);
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
  console.log("");
  await backupAndRestore();
  console.log("");
  await importAndExport();
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
