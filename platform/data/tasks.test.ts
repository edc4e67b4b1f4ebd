import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { tasks } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { editedArray } from "./tasks";
import { codeOf, createCollection } from "./test-support";

/** Background tasks through the real `@wix/data` `tasks` module. */

let platform: TestPlatform;
const client = () => createClient({ modules: { tasks }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) }).tasks;
const items = () => platform.adminClient().items;
const permissions = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;

/** Polls the task until it has finished. */
async function finished(id: string) {
  for (;;) {
    const task = await client().getTask(id);
    if (task.status === "COMPLETED" || task.status === "FAILED") return { task };
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function fill(collection: string, count: number, item: (i: number) => Record<string, unknown>) {
  for (let start = 0; start < count; start += 1000) {
    await items().bulkInsert(
      collection,
      Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({ _id: `i${String(start + i).padStart(5, "0")}`, ...item(start + i) })),
    );
  }
}

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(platform, "Logs", [{ key: "level", type: "TEXT" }], permissions);
  await createCollection(platform, "Tags", [{ key: "tags", type: "ARRAY" }], permissions);
});
afterAll(() => platform.close());

describe("tasks", () => {
  it("DELETE_BY_QUERY removes the matching items in batches (NEW when created, then COMPLETED) with the counts", async () => {
    await fill("Logs", 1500, (i) => ({ level: i % 3 === 0 ? "debug" : "info" }));
    const created = await client().createTask({ type: "DELETE_BY_QUERY", deleteByQueryOptions: { dataCollectionId: "Logs", filter: { level: "debug" } } });
    expect(created.status).toBe("NEW");
    expect(created.estimatedItemCount).toBe(500);
    const { task } = await finished(created._id!);
    expect(task.status).toBe("COMPLETED");
    expect([task.itemsSucceeded, task.itemsFailed]).toEqual([500, 0]);
    expect(task.startedAt).toBeInstanceOf(Date);
    expect(task.finishedAt).toBeInstanceOf(Date);
    expect(await items().query("Logs").eq("level", "debug").count()).toBe(0);
    expect(await items().query("Logs").count()).toBe(1000);
    expect((await client().listTasks()).tasks?.map((listed) => listed._id)).toContain(created._id);
  });

  it("COPY_FIELD_DATA copies a field's values into another field, leaving items without it alone", async () => {
    await items().bulkInsert("Tags", [
      { _id: "a", tags: ["x", "y"], note: "n" },
      { _id: "b", note: "only a note" },
    ]);
    const created = await client().createTask({
      type: "COPY_FIELD_DATA",
      copyFieldDataOptions: { dataCollectionId: "Tags", sourceFieldKey: "tags", targetFieldKey: "labels" },
    });
    const { task } = await finished(created._id!);
    expect([task.status, task.itemsSucceeded]).toEqual(["COMPLETED", 1]);
    expect((await items().get("Tags", "a"))?.labels).toEqual(["x", "y"]);
    expect((await items().get("Tags", "b"))?.labels).toBeUndefined();
  });

  it("EDIT_FIELD_DATA adds, removes and replaces array values and drops repeats on the matching items", async () => {
    await items().bulkInsert("Tags", [
      { _id: "c", tags: ["old", "keep", "drop", "keep"] },
      { _id: "d", tags: ["old"], skip: true },
    ]);
    const created = await client().createTask({
      type: "EDIT_FIELD_DATA",
      editFieldDataOptions: {
        dataCollectionId: "Tags",
        filter: { skip: { $ne: true } },
        fieldKey: "tags",
        operations: { addItems: ["new"], removeItems: ["drop"], replaceItems: [{ from: "old", to: "renewed" }], removeDuplicates: true },
      },
    });
    const { task } = await finished(created._id!);
    expect(task.status).toBe("COMPLETED");
    expect((await items().get("Tags", "c"))?.tags).toEqual(["renewed", "keep", "new"]);
    expect((await items().get("Tags", "d"))?.tags).toEqual(["old"]);
  });

  it("cancel stops a running task (FAILED with the cancellation); a finished task cannot be cancelled", async () => {
    await createCollection(platform, "Big", [{ key: "n", type: "NUMBER" }], permissions);
    await fill("Big", 5000, (i) => ({ n: i }));
    const created = await client().createTask({ type: "DELETE_BY_QUERY", deleteByQueryOptions: { dataCollectionId: "Big" } });
    const { task: cancelled } = await client().cancelTask(created._id!);
    expect(cancelled?.status).toBe("FAILED");
    expect(cancelled?.failures?.map((failure) => failure.code)).toEqual(["CANCELLED"]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await client().getTask(created._id!);
    expect(after.status).toBe("FAILED");
    const left = await items().query("Big").count();
    expect(left).toBeGreaterThan(0);
    expect(left).toBe(5000 - (after.itemsSucceeded ?? 0));
    expect(await codeOf(client().cancelTask(created._id!))).toBe("WDE0075");
  });

  it("refuses bad tasks, unknown ids and callers without the admin key", async () => {
    expect(await codeOf(client().createTask({ type: "DELETE_BY_QUERY", deleteByQueryOptions: { dataCollectionId: "Nope" } }))).toBe("WDE0025");
    expect(
      await codeOf(client().createTask({ type: "DELETE_BY_QUERY", deleteByQueryOptions: { dataCollectionId: "Logs", filter: { level: { $nope: 1 } } } })),
    ).toBe("WDE0075");
    expect(
      await codeOf(
        client().createTask({ type: "COPY_FIELD_DATA", copyFieldDataOptions: { dataCollectionId: "Tags", sourceFieldKey: "a", targetFieldKey: "a" } }),
      ),
    ).toBe("WDE0075");
    expect(
      await codeOf(
        client().createTask({
          type: "COPY_FIELD_DATA",
          copyFieldDataOptions: { dataCollectionId: "Tags", sourceFieldKey: "__proto__x", targetFieldKey: "constructor" },
        }),
      ),
    ).toBe("WDE0075");
    expect(
      await codeOf(client().createTask({ type: "EDIT_FIELD_DATA", editFieldDataOptions: { dataCollectionId: "Tags", fieldKey: "tags", operations: {} } })),
    ).toBe("WDE0075");
    expect(await codeOf(client().getTask("no-such-task"))).toBe("WDE0075");
    const anonymous = await fetch("https://www.wixapis.com/cms/v1/tasks", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task: { type: "DELETE_BY_QUERY", deleteByQueryOptions: { dataCollectionId: "Logs" } } }),
    });
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toMatchObject({ details: { applicationError: { code: "WDE0027" } } });
  });
});

describe("editedArray", () => {
  it("removes, replaces, adds, then drops repeats, comparing values deeply", () => {
    expect(editedArray([{ a: 1 }, 2, 2], { removeItems: [{ a: 1 }], replaceItems: [{ from: 2, to: 3 }], addItems: [3], removeDuplicates: true })).toEqual([3]);
    expect(editedArray(undefined, { addItems: ["x"] })).toEqual(["x"]);
    expect(editedArray("single", { addItems: ["x"] })).toEqual(["single", "x"]);
  });
});
