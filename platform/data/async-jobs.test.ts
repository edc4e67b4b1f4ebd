import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { JOB_BATCH_SIZE } from "./batches";
import { codeOf, createCollection, memberClient } from "./test-support";

/** Remove and patch by filter as background jobs, through the real `@wix/data` client. */

let platform: TestPlatform;
const admin = () => platform.adminClient().items;
const ITEMS = JOB_BATCH_SIZE * 3 + 17;

/** Polls the job until it leaves INITIALIZED/PROCESSING, recording every status seen. */
async function finish(jobId: string) {
  const seen: string[] = [];
  for (;;) {
    const { status, successCount } = await admin().getAsyncJobStatus(jobId);
    if (seen.at(-1) !== status) seen.push(String(status));
    if (status !== "INITIALIZED" && status !== "PROCESSING") return { status, successCount, seen };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Logs",
    [
      { key: "level", type: "TEXT" },
      { key: "n", type: "NUMBER" },
    ],
    { read: "ANYONE", insert: "ANYONE", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" },
  );
});
afterAll(() => platform.close());

async function fill(count = ITEMS) {
  await admin().truncate("Logs");
  for (let start = 0; start < count; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
      _id: `log-${String(start + i).padStart(5, "0")}`,
      level: (start + i) % 3 === 0 ? "debug" : "info",
      n: start + i,
    }));
    await admin().bulkInsert("Logs", batch);
  }
}

describe("async remove and patch by filter", () => {
  it("removes exactly the matching items in batches and reports SUCCEEDED with the count", async () => {
    await fill();
    const debug = Math.ceil(ITEMS / 3);
    const { jobId } = await admin().asyncRemoveByFilter("Logs", admin().filter().eq("level", "debug"));
    const result = await finish(jobId);
    expect(result.status).toBe("SUCCEEDED");
    expect(result.successCount).toBe(debug);
    expect(await admin().query("Logs").count()).toBe(ITEMS - debug);
    expect(await admin().query("Logs").eq("level", "debug").count()).toBe(0);
  });

  it("patches every matching item once, even when the patch changes whether it matches", async () => {
    await fill();
    const { jobId } = await admin().asyncPatchByFilter("Logs", admin().filter().lt("n", 500), [
      { fieldPath: "n", action: "INCREMENT_FIELD", value: 1000 } as never,
    ]);
    const result = await finish(jobId);
    expect([result.status, result.successCount]).toEqual(["SUCCEEDED", 500]);
    expect(await admin().query("Logs").lt("n", 500).count()).toBe(0);
    expect((await admin().get("Logs", "log-00000"))?.n).toBe(1000);
    expect((await admin().get("Logs", "log-00500"))?.n).toBe(500);
  });

  it("an empty filter means every item; other collections answer while it runs", async () => {
    // Twenty batches: enough that two reads fit in while it runs, however fast the machine.
    const many = JOB_BATCH_SIZE * 20;
    await fill(many);
    const { jobId } = await admin().asyncRemoveByFilter("Logs", admin().filter());
    // Reads are served between batches: a job that held the platform until it finished would
    // leave no item to count by the time both reads answer.
    const other = await platform.visitorClient().items.query("Trails").limit(1).find();
    expect(other.items).toHaveLength(1);
    expect(await admin().query("Logs").count()).toBeGreaterThan(0);
    expect((await finish(jobId)).successCount).toBe(many);
    expect(await admin().query("Logs").count()).toBe(0);
  });

  it("reaches only the caller's own items under SITE_MEMBER_AUTHOR", async () => {
    await admin().truncate("Logs");
    const alice = memberClient(platform, "m-alice").items;
    await alice.insert("Logs", { _id: "a1", level: "debug" });
    await memberClient(platform, "m-bob").items.insert("Logs", { _id: "b1", level: "debug" });
    const { jobId } = await alice.asyncRemoveByFilter("Logs", alice.filter().eq("level", "debug"));
    expect((await finish(jobId)).successCount).toBe(1);
    expect((await admin().query("Logs").find()).items.map((item) => item._id)).toEqual(["b1"]);
  });

  it("refuses bad filters, missing permissions and unknown jobs up front", async () => {
    expect(await codeOf(admin().asyncRemoveByFilter("Logs", { n: { $regex: "x" } } as never))).toBe("WDE0070");
    expect(await codeOf(platform.visitorClient().items.asyncRemoveByFilter("Logs", {}))).toBe("WDE0027");
    expect(await codeOf(admin().asyncRemoveByFilter("Nope", {}))).toBe("WDE0025");
    expect(await codeOf(admin().getAsyncJobStatus("no-such-job"))).toBe("WDE0075");
  });
});
