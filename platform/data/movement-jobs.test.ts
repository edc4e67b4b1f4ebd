import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { movementJobs } from "@wix/data";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection, idsOf } from "./test-support";

/** Data-movement jobs through the real `@wix/data` `movementJobs` module. */

let platform: TestPlatform;
const client = () => createClient({ modules: { movementJobs }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) }).movementJobs;
const items = () => platform.adminClient().items;
const permissions = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;
const FINISHED = ["COMPLETED", "FAILED", "PARTIALLY_SUCCESSFUL"];

/** Uploads a file the way the module's documentation shows: a `PUT` to the upload URL, with no other credential. */
async function upload(text: string, fileName?: string) {
  const { fileId, uploadUrl } = await client().createFileUploadUrl({ fileName });
  const response = await fetch(uploadUrl!, { method: "PUT", body: text });
  expect(response.status).toBe(200);
  return fileId;
}

/** Polls the job until it has finished, recording every status seen on the way. */
async function finished(jobId: string, seen: string[] = []) {
  for (;;) {
    const job = await client().getJob(jobId);
    const status = String(job.status);
    if (seen.at(-1) !== status) seen.push(status);
    if (FINISHED.includes(status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

type Source = { format?: "CSV" | "JSONL"; fileName?: string };

/** Imports a file; its format is given, or named by the file name (peaks.csv by default), or found from its content. */
async function importFile(
  text: string,
  collectionId: string,
  writePolicy?: "OVERWRITE" | "SKIP_EXISTING" | "TRUNCATE_BEFORE",
  { format, fileName = format ? undefined : "peaks.csv" }: Source = {},
) {
  const fileId = await upload(text, fileName);
  const { job } = await client().submitJob({ file: { fileId, format } }, { wixDataCollection: { collectionId, writePolicy } });
  return finished(job!._id!);
}

async function allLogs(jobId: string) {
  const logs = [];
  let cursor: string | undefined;
  do {
    const page = await client().listMovementLogs(jobId, { paging: { limit: 2, cursor } });
    logs.push(...(page.logs ?? []));
    cursor = page.pagingMetadata?.cursors?.next ?? undefined;
  } while (cursor);
  return logs;
}

const peaksCsv = (rows: string[]) => ["_id,name,height,climbed", ...rows].join("\n") + "\n";
const numbered = (count: number) => peaksCsv(Array.from({ length: count }, (_, i) => `p${String(i).padStart(5, "0")},Peak ${i},${i},${i % 2 === 0}`));

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Peaks",
    [
      { key: "name", type: "TEXT" },
      { key: "height", type: "NUMBER" },
      { key: "climbed", type: "BOOLEAN" },
      { key: "firstAscent", type: "DATETIME" },
    ],
    permissions,
  );
  await createCollection(platform, "Other", [{ key: "code", type: "TEXT" }], permissions);
  await items().insert("Other", { _id: "o1", code: "x" });
});
afterAll(() => platform.close());
beforeEach(() => items().truncate("Peaks"));

describe("imports", () => {
  it("go UNINITIALIZED → INITIALIZING → IN_PROGRESS → COMPLETED, in batches, while other requests are answered", async () => {
    const fileId = await upload(numbered(20_000), "peaks.csv");
    const { job } = await client().submitJob({ file: { fileId } }, { wixDataCollection: { collectionId: "Peaks" } }, { name: "big import" });
    expect(job?.status).toBe("UNINITIALIZED");
    expect(job?.destination?.wixDataCollection?.writePolicy).toBe("OVERWRITE");
    expect(job?.source?.file?.format).toBe("CSV");
    expect(job?.source?.file?.url).toMatch(new RegExp(`/_local/data-mover/files/${fileId}\\?token=`));
    const seen = [job!.status!];
    let otherAnswered = 0;
    const polling = finished(job!._id!, seen);
    const other = (async () => {
      while (!FINISHED.includes(String((await client().getJob(job!._id!)).status))) {
        expect((await items().get("Other", "o1"))?.code).toBe("x");
        otherAnswered++;
      }
    })();
    const [done] = await Promise.all([polling, other]);
    expect(seen).toEqual(["UNINITIALIZED", "INITIALIZING", "IN_PROGRESS", "COMPLETED"]);
    expect(otherAnswered).toBeGreaterThan(3);
    expect(done.name).toBe("big import");
    expect(done.progress).toMatchObject({ current: 20_000, total: 20_000, itemsSuccessful: 20_000, itemsRejected: 0 });
    expect(done.finishedAt).toBeInstanceOf(Date);
    expect(done.startedAt).toBeInstanceOf(Date);
    expect(await items().query("Peaks").count()).toBe(20_000);
    expect(await items().get("Peaks", "p00007")).toMatchObject({ name: "Peak 7", height: 7, climbed: false });
  });

  it("reject bad rows one by one, logged with their line: PARTIALLY_SUCCESSFUL, the good rows imported", async () => {
    const done = await importFile(
      peaksCsv([
        "ok1,Fine,1,true",
        "h,Bad height,tall,true",
        "ok2,Fine too,2,false",
        "c,Bad flag,2,maybe",
        "short,Short",
        `big,${"x".repeat(600 * 1024)},1,true`,
      ]),
      "Peaks",
    );
    expect(done.status).toBe("PARTIALLY_SUCCESSFUL");
    expect(done.partiallySuccessfulOptions?.cause).toBe("4 of 6 rows were rejected; the job's logs name each by its line.");
    expect(done.progress).toMatchObject({ current: 6, total: 6, itemsSuccessful: 2, itemsRejected: 4 });
    expect(done.logsRecorded).toBe(4);
    const logs = await allLogs(done._id!);
    expect(logs.map((log) => [log.sourceItemId, log.failure?.code])).toEqual([
      ["3", "WDE0076"],
      ["5", "WDE0076"],
      ["6", "WDE0076"],
      ["7", "WDE0009"],
    ]);
    expect(logs[0].failure?.description).toBe("column height: [tall] is not a number");
    expect(idsOf((await items().query("Peaks").find()).items)).toEqual(["ok1", "ok2"]);
  });

  it("follow the write policy: SKIP_EXISTING keeps stored items (logged as skipped), OVERWRITE replaces them, TRUNCATE_BEFORE empties first", async () => {
    await items().bulkInsert("Peaks", [
      { _id: "k2", name: "K2", height: 8611 },
      { _id: "gone", name: "Gone" },
    ]);
    const file = peaksCsv(["everest,Everest,8849,true", "k2,K2 (new),8612,true"]);

    const skipped = await importFile(file, "Peaks", "SKIP_EXISTING");
    expect([skipped.status, skipped.progress?.itemsSuccessful]).toEqual(["COMPLETED", 1]);
    expect(await allLogs(skipped._id!)).toEqual([{ sourceItemId: "3", details: { skipped: true, itemId: "k2" } }]);
    expect((await items().get("Peaks", "k2"))?.name).toBe("K2");

    const overwritten = await importFile(file, "Peaks", "OVERWRITE");
    expect([overwritten.status, overwritten.progress?.itemsSuccessful]).toEqual(["COMPLETED", 2]);
    expect(await items().get("Peaks", "k2")).toMatchObject({ name: "K2 (new)", height: 8612, climbed: true });

    const truncated = await importFile(file, "Peaks", "TRUNCATE_BEFORE");
    expect(truncated.status).toBe("COMPLETED");
    expect(idsOf((await items().query("Peaks").find()).items)).toEqual(["everest", "k2"]);
  });

  it("read JSONL (the format found from the file when not given), keeping dates and owners", async () => {
    const done = await importFile(
      `{"_id":"a","name":"A","firstAscent":{"$date":"1953-05-29T11:30:00Z"},"_owner":"someone","_createdDate":{"$date":"2001-01-01T00:00:00Z"}}\n` +
        `\n{"_id":"b","name":"B"}\n`,
      "Peaks",
      undefined,
      { fileName: "peaks.txt" },
    );
    expect([done.status, done.progress?.itemsSuccessful, done.source?.file?.format]).toEqual(["COMPLETED", 2, "JSONL"]);
    const a = await items().get("Peaks", "a");
    expect(a?.firstAscent).toEqual(new Date("1953-05-29T11:30:00Z"));
    expect(a?._owner).toBe("someone");
    expect(a?._createdDate).toEqual(new Date("2001-01-01T00:00:00Z"));
  });

  it("FAIL when every row is rejected, or when the file cannot be read (and then change nothing, even with TRUNCATE_BEFORE)", async () => {
    await items().insert("Peaks", { _id: "kept", name: "Kept" });
    const rejected = await importFile(`{oops\n[1]\n`, "Peaks", "OVERWRITE", { format: "JSONL" });
    expect(rejected.status).toBe("FAILED");
    expect(rejected.error).toMatchObject({ code: "ITEMS_REJECTED" });
    expect((await allLogs(rejected._id!)).map((log) => log.sourceItemId)).toEqual(["1", "2"]);

    const broken = await importFile(`_id,name\nx,"never closed\n`, "Peaks", "TRUNCATE_BEFORE", { format: "CSV" });
    expect(broken.status).toBe("FAILED");
    expect(broken.error?.code).toBe("WDE0075");
    expect(broken.error?.description).toMatch(/cannot be read as CSV: Quote Not Closed/);
    expect(idsOf((await items().query("Peaks").find()).items)).toEqual(["kept"]);
  });

  it("stop when terminated: FAILED with CANCELLED, what was moved stays; a finished job cannot be terminated", async () => {
    const fileId = await upload(numbered(20_000), "peaks.csv");
    const { job } = await client().submitJob({ file: { fileId } }, { wixDataCollection: { collectionId: "Peaks" } });
    for (;;) {
      const current = await client().getJob(job!._id!);
      if (current.status === "IN_PROGRESS" && (current.progress?.current ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const { job: terminated } = await client().terminateJob(job!._id!);
    expect(terminated?.status).toBe("FAILED");
    expect(terminated?.error).toMatchObject({ code: "CANCELLED" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await client().getJob(job!._id!);
    expect(after.status).toBe("FAILED");
    const moved = await items().query("Peaks").count();
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(20_000);
    expect(await codeOf(client().terminateJob(job!._id!))).toBe("WDE0075");
  });
});

describe("exports", () => {
  beforeEach(async () => {
    // One at a time, so their creation dates differ and set the export order.
    for (const item of [
      { _id: "k2", name: "K2", height: 8611, climbed: true, firstAscent: new Date("1954-07-31T00:00:00Z") },
      { _id: "everest", name: "Everest", height: 8849, tags: ["himalaya"] },
      { _id: "low", name: "Low", height: 10 },
    ]) {
      await items().insert("Peaks", item);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  });

  const download = async (url: string) => fetch(url);

  it("write the matching items to a file to download: JSONL in creation order, then back in through an import", async () => {
    const { job } = await client().submitJob(
      { wixDataCollection: { collectionId: "Peaks", filterQuery: { filter: { height: { $gt: 100 } } } } },
      { file: { format: "JSONL", fileName: "high.jsonl" } },
    );
    const done = await finished(job!._id!);
    expect(done.status).toBe("COMPLETED");
    expect(done.progress).toMatchObject({ current: 2, total: 2, itemsSuccessful: 2 });
    const response = await download(done.destination!.file!.url!);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="high.jsonl"');
    const text = await response.text();
    expect(
      text
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { _id: string })._id),
    ).toEqual(["k2", "everest"]);

    await items().truncate("Peaks");
    expect((await importFile(text, "Peaks", "OVERWRITE", { format: "JSONL" })).status).toBe("COMPLETED");
    expect((await items().get("Peaks", "k2"))?.firstAscent).toEqual(new Date("1954-07-31T00:00:00Z"));
  });

  it("write CSV with the collection's fields and the other keys found, or only the fields asked for", async () => {
    const whole = await finished((await client().submitJob({ wixDataCollection: { collectionId: "Peaks" } }, { file: { format: "CSV" } })).job!._id!);
    const [header, first] = (await (await download(whole.destination!.file!.url!)).text()).split("\n");
    expect(header).toBe("_id,name,height,climbed,firstAscent,tags,_owner,_createdDate,_updatedDate");
    expect(first).toMatch(/^k2,K2,8611,true,1954-07-31T00:00:00.000Z,,local-site-owner,/);

    const some = await finished(
      (
        await client().submitJob(
          { wixDataCollection: { collectionId: "Peaks", filterQuery: { fields: ["name"], filter: { _id: { $ne: "low" } } } } },
          { file: { format: "CSV" } },
        )
      ).job!._id!,
    );
    expect((await (await download(some.destination!.file!.url!)).text()).trim().split("\n")).toEqual(["_id,name", "k2,K2", "everest,Everest"]);
  });

  it("are downloaded with their URL's token only: not without it, not with the admin key alone, not with a changed one", async () => {
    const done = await finished((await client().submitJob({ wixDataCollection: { collectionId: "Peaks" } }, { file: { format: "JSONL" } })).job!._id!);
    const url = new URL(done.destination!.file!.url!);
    expect((await download(url.href)).status).toBe(200);
    const bare = `${url.origin}${url.pathname}`;
    expect((await fetch(bare, { headers: { authorization: platform.config.apiKey } })).status).toBe(403);
    const token = url.searchParams.get("token")!;
    expect((await download(`${bare}?token=${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`)).status).toBe(403);
  });
});

describe("listing and refusals", () => {
  it("lists jobs newest first with cursors, and queries them by status", async () => {
    const first = await importFile(peaksCsv(["a,A,1,true"]), "Peaks");
    const second = await importFile(`{oops\n`, "Peaks", "OVERWRITE", { format: "JSONL" });
    const page = await client().listJobs({ paging: { limit: 1 } });
    expect(page.jobs?.map((job) => job._id)).toEqual([second._id]);
    const next = await client().listJobs({ paging: { limit: 1, cursor: page.pagingMetadata!.cursors!.next! } });
    expect(next.jobs?.map((job) => job._id)).toEqual([first._id]);
    const failed = await client().queryJobs().eq("status", "FAILED").limit(100).find();
    expect(failed.items.map((job) => job._id)).toContain(second._id);
    expect(failed.items.every((job) => job.status === "FAILED")).toBe(true);
  });

  it("refuses bad jobs, unknown ids and files, second uploads and callers without the admin key", async () => {
    const fileId = await upload("_id\na\n", "a.csv");
    expect(await codeOf(client().submitJob({ file: { fileId } }, { wixDataCollection: { collectionId: "Nope" } }))).toBe("WDE0025");
    expect(await codeOf(client().submitJob({ file: { fileId: "no-such-file" } }, { wixDataCollection: { collectionId: "Peaks" } }))).toBe("WDE0075");
    expect(await codeOf(client().submitJob({ wixDataCollection: { collectionId: "Peaks" } }, { wixDataCollection: { collectionId: "Other" } }))).toBe(
      "WDE0075",
    );
    expect(
      await codeOf(
        client().submitJob({ wixDataCollection: { collectionId: "Peaks", filterQuery: { filter: { height: { $nope: 1 } } } } }, { file: { format: "CSV" } }),
      ),
    ).toBe("WDE0075");
    expect(await codeOf(client().getJob("no-such-job"))).toBe("WDE0075");
    expect(await codeOf(client().listMovementLogs("no-such-job"))).toBe("WDE0075");

    const uploadUrl = (await client().createFileUploadUrl({ fileName: "b.csv" })).uploadUrl!;
    const bare = uploadUrl.slice(0, uploadUrl.indexOf("?"));
    expect((await fetch(bare, { method: "PUT", headers: { authorization: platform.config.apiKey }, body: "x" })).status).toBe(403);
    // An upload URL does not download, and another file's token does not open this one.
    expect((await fetch(uploadUrl)).status).toBe(403);
    const other = (await client().createFileUploadUrl({ fileName: "c.csv" })).uploadUrl!;
    expect((await fetch(`${bare}${other.slice(other.indexOf("?"))}`, { method: "PUT", body: "x" })).status).toBe(403);
    expect((await fetch(uploadUrl, { method: "PUT", body: "x" })).status).toBe(200);
    const again = await fetch(uploadUrl, { method: "PUT", headers: { "content-type": "text/csv" }, body: "y" });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ details: { applicationError: { code: "WDE0075" } } });

    const anonymous = await fetch("https://www.wixapis.com/data-mover/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ source: { file: { fileId } }, destination: { wixDataCollection: { collectionId: "Peaks" } } }),
    });
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toMatchObject({ details: { applicationError: { code: "WDE0027" } } });
  });
});
