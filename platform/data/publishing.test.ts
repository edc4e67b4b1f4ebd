import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { collections, items, tasks } from "@wix/data";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { publishStatusFilter } from "./publishing";
import { codeOf, createCollection, idsOf, memberClient, untypedCollectionCalls } from "./test-support";

/** Drafts, publishing and scheduled status changes through the real `@wix/data` `items`, `collections` and `tasks` modules. */

let platform: TestPlatform;
const admin = () => createClient({ modules: { items, collections, tasks }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
const visitor = () => platform.visitorClient().items;
const drafts = { showDrafts: true };
const permissions = { read: "ANYONE", insert: "SITE_MEMBER", update: "ADMIN", remove: "ADMIN" } as const;

async function publishingCollection(
  id: string,
  defaultStatus: "PUBLISHED" | "DRAFT",
  fields: { key: string; type: string; typeMetadata?: Record<string, unknown> }[] = [{ key: "title", type: "TEXT" }],
) {
  return admin().collections.createDataCollection({
    _id: id,
    fields: fields as never,
    permissions: permissions as never,
    plugins: [{ type: "PUBLISH", publishOptions: { defaultStatus } }] as never,
  });
}

/** Runs a task to its end. */
async function runTask(task: Parameters<ReturnType<typeof admin>["tasks"]["createTask"]>[0]) {
  const created = await admin().tasks.createTask(task);
  for (;;) {
    const current = await admin().tasks.getTask(created._id!);
    if (current.status === "COMPLETED" || current.status === "FAILED") return current;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The ids a visitor's query sees, and those the admin key sees with drafts. */
async function visible(collection: string) {
  return { published: idsOf((await visitor().query(collection).find()).items), all: idsOf((await admin().items.query(collection).find(drafts)).items) };
}

beforeAll(async () => {
  platform = await startTestPlatform();
  await publishingCollection("Posts", "PUBLISHED", [
    { key: "title", type: "TEXT" },
    { key: "n", type: "NUMBER" },
    { key: "related", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Posts" } } },
  ]);
  await publishingCollection("Submissions", "DRAFT");
  await createCollection(
    platform,
    "Shelves",
    [{ key: "posts", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Posts" } } }],
    permissions,
  );
  await createCollection(platform, "Plain", [{ key: "title", type: "TEXT" }], permissions);
});
afterAll(() => platform.close());
beforeEach(async () => {
  await admin().items.truncate("Posts");
  await admin().items.bulkInsert("Posts", [
    { _id: "live", title: "Live", n: 1, related: "draft" },
    { _id: "draft", title: "Draft", n: 2, _publishStatus: "DRAFT" },
    { _id: "also-live", title: "Also live", n: 3, _publishStatus: "PUBLISHED" },
  ]);
});

describe("drafts", () => {
  it("the Publish plugin shows on the collection with its default status and the _publishStatus system field", async () => {
    const collection = await admin().collections.getDataCollection("Submissions");
    expect(collection.plugins).toEqual([{ type: "PUBLISH", publishOptions: { defaultStatus: "DRAFT" } }]);
    expect(collection.fields?.find((field) => field.key === "_publishStatus")).toMatchObject({ systemField: true, type: "TEXT" });
    expect(
      await codeOf(
        admin().collections.createDataCollection({ _id: "Odd", fields: [], permissions: permissions as never, plugins: [{ type: "SINGLE_ITEM" }] as never }),
      ),
    ).toBe("WDE0075");
  });

  it("are hidden from query, get, count, distinct, aggregate and references unless the admin key asks with showDrafts", async () => {
    expect(await visible("Posts")).toEqual({ published: ["also-live", "live"], all: ["also-live", "draft", "live"] });
    expect((await admin().items.query("Posts").find()).items.map((item) => item._publishStatus).sort()).toEqual(["PUBLISHED", "PUBLISHED"]);
    expect(await visitor().get("Posts", "draft")).toBeNull();
    expect(await admin().items.get("Posts", "draft")).toBeNull();
    expect((await admin().items.get("Posts", "draft", drafts))?.title).toBe("Draft");
    expect([await visitor().query("Posts").count(), await admin().items.query("Posts").count(drafts)]).toEqual([2, 3]);
    expect([
      await visitor()
        .query("Posts")
        .distinct("n")
        .then((r) => r.items),
      await admin()
        .items.query("Posts")
        .distinct("n", drafts)
        .then((r) => r.items),
    ]).toEqual([
      [1, 3],
      [1, 2, 3],
    ]);
    const sum = async (options?: typeof drafts) => (await admin().items.aggregate("Posts").sum("n", "total").run(options)).items[0]?.total;
    expect([await sum(), await sum(drafts)]).toEqual([4, 6]);
    // A reference to a draft does not resolve unless drafts are shown.
    expect((await visitor().query("Posts").eq("_id", "live").include("related").find()).items[0].related).toBe("draft");
    expect((await admin().items.query("Posts").eq("_id", "live").include("related").find(drafts)).items[0].related).toMatchObject({ _id: "draft" });
    await admin().items.insert("Shelves", { _id: "s" });
    await admin().items.insertReference("Shelves", "posts", "s", ["live", "draft"]);
    expect((await visitor().queryReferenced("Shelves", "s", "posts")).items.map((item) => item._id)).toEqual(["live"]);
  });

  it("showDrafts is the admin key's: a member or visitor asking for drafts is refused (WDE0027)", async () => {
    expect(await codeOf(visitor().query("Posts").find(drafts))).toBe("WDE0027");
    expect(await codeOf(memberClient(platform, "m1").items.get("Posts", "draft", drafts))).toBe("WDE0027");
  });

  it("writes meet drafts only with showDrafts; an update keeps the status unless the admin key sets it; patches cannot set it", async () => {
    expect(await codeOf(admin().items.update("Posts", { _id: "draft", title: "Changed" }))).toBe("WDE0073");
    expect(await admin().items.update("Posts", { _id: "draft", title: "Changed" }, drafts)).toMatchObject({ title: "Changed", _publishStatus: "DRAFT" });
    expect(await admin().items.update("Posts", { _id: "draft", title: "Out", _publishStatus: "PUBLISHED" }, drafts)).toMatchObject({
      _publishStatus: "PUBLISHED",
    });
    expect((await visitor().get("Posts", "draft"))?.title).toBe("Out");
    expect(await codeOf(admin().items.update("Posts", { _id: "live", _publishStatus: "SOON" }))).toBe("WDE0076");
    expect(await codeOf(admin().items.patch("Posts", "live").setField("_publishStatus", "DRAFT").run())).toBe("WDE0080");
    expect(await admin().items.remove("Posts", "also-live", { showDrafts: false })).toMatchObject({ _id: "also-live" });
  });

  it("new items take the collection's default status; only the admin key may choose another", async () => {
    const member = memberClient(platform, "m1").items;
    expect(await member.insert("Submissions", { _id: "tip", title: "A tip", _publishStatus: "PUBLISHED" })).toMatchObject({ _publishStatus: "DRAFT" });
    expect(await admin().items.insert("Submissions", { _id: "chosen", _publishStatus: "PUBLISHED" })).toMatchObject({ _publishStatus: "PUBLISHED" });
    expect(await admin().items.insert("Submissions", { _id: "default" })).toMatchObject({ _publishStatus: "DRAFT" });
    expect(await visible("Submissions")).toEqual({ published: ["chosen"], all: ["chosen", "default", "tip"] });
  });

  it("items written before the plugin was added have no status and are PUBLISHED", async () => {
    await createCollection(platform, "Late", [{ key: "title", type: "TEXT" }], permissions);
    await admin().items.insert("Late", { _id: "old", title: "Old" });
    const late = await admin().collections.getDataCollection("Late");
    await admin().collections.updateDataCollection({ ...late, plugins: [{ type: "PUBLISH", publishOptions: { defaultStatus: "DRAFT" } }] } as never);
    await admin().items.insert("Late", { _id: "new" });
    expect(await visible("Late")).toEqual({ published: ["old"], all: ["new", "old"] });
    expect(idsOf((await admin().items.query("Late").eq("_publishStatus", "PUBLISHED").find(drafts)).items)).toEqual(["old"]);
    expect(idsOf((await admin().items.query("Late").ne("_publishStatus", "PUBLISHED").find(drafts)).items)).toEqual(["new"]);
  });

  it("addPublishPlugin and deletePublishPlugin change the plugin as an update naming it does; only the admin key may", async () => {
    await createCollection(platform, "Plugged", [{ key: "title", type: "TEXT" }], permissions);
    await admin().items.insert("Plugged", { _id: "before", title: "Before" });
    const plugins = untypedCollectionCalls;
    const added = await plugins(admin()).addPublishPlugin("Plugged", { publishOptions: { defaultStatus: "DRAFT" } });
    expect(added.dataCollection?.plugins).toEqual([{ type: "PUBLISH", publishOptions: { defaultStatus: "DRAFT" } }]);
    await admin().items.insert("Plugged", { _id: "after", title: "After" });
    expect(await visible("Plugged")).toEqual({ published: ["before"], all: ["after", "before"] });
    const visitorCollections = platform.visitorClient().collections as unknown as Record<"deletePublishPlugin", (id: string) => Promise<unknown>>;
    await expect(visitorCollections.deletePublishPlugin("Plugged")).rejects.toMatchObject({ details: { applicationError: { code: "WDE0027" } } });
    const removed = await plugins(admin()).deletePublishPlugin("Plugged");
    expect(removed.dataCollection?.plugins).toEqual([]);
    expect((await visitor().query("Plugged").find()).items.map((item) => item._id).sort()).toEqual(["after", "before"]);
  });

  it("filters on _publishStatus take eq and ne with DRAFT or PUBLISHED only (WDE0093)", async () => {
    expect(idsOf((await admin().items.query("Posts").eq("_publishStatus", "DRAFT").find(drafts)).items)).toEqual(["draft"]);
    expect(await codeOf(admin().items.query("Posts").gt("_publishStatus", "DRAFT").find(drafts))).toBe("WDE0093");
    expect(await codeOf(admin().items.query("Posts").eq("_publishStatus", "LIVE").find(drafts))).toBe("WDE0093");
    expect(publishStatusFilter({ $or: [{ _publishStatus: "PUBLISHED" }, { _publishStatus: { $ne: "DRAFT" }, n: { $gt: 1 } }] })).toEqual({
      $or: [{ _publishStatus: { $ne: "DRAFT" } }, { _publishStatus: { $ne: "DRAFT" }, n: { $gt: 1 } }],
    });
  });
});

describe("UPDATE_PUBLISH_STATUS tasks", () => {
  it("set the status of the matching items, drafts included", async () => {
    const published = await runTask({
      type: "UPDATE_PUBLISH_STATUS",
      updatePublishStatusOptions: { dataCollectionId: "Posts", operation: "SET_PUBLISHED_STATUS", filter: { n: { $gte: 2 } } },
    });
    expect([published.status, published.estimatedItemCount, published.itemsSucceeded]).toEqual(["COMPLETED", 2, 2]);
    expect((await visible("Posts")).published).toEqual(["also-live", "draft", "live"]);
    const hidden = await runTask({ type: "UPDATE_PUBLISH_STATUS", updatePublishStatusOptions: { dataCollectionId: "Posts", operation: "SET_DRAFT_STATUS" } });
    expect(hidden.itemsSucceeded).toBe(3);
    expect(await visible("Posts")).toEqual({ published: [], all: ["also-live", "draft", "live"] });
  });

  it("schedule a publish: hidden until the time, then shown (a read never sees it late)", async () => {
    const at = new Date(Date.now() + 400);
    const task = await runTask({
      type: "UPDATE_PUBLISH_STATUS",
      updatePublishStatusOptions: {
        dataCollectionId: "Posts",
        operation: "SCHEDULE_PUBLISHED_STATUS",
        schedulePublishedStatusOptions: { date: at },
        filter: { _id: "draft" },
      },
    });
    expect(task.updatePublishStatusOptions?.schedulePublishedStatusOptions?.date).toEqual(at);
    expect(await visitor().get("Posts", "draft")).toBeNull();
    for (;;) {
      const asked = Date.now();
      const found = await visitor().get("Posts", "draft");
      if (found) {
        expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
        expect(found._publishStatus).toBe("PUBLISHED");
        break;
      }
      // Still a draft: only if the read was asked before the time came.
      expect(asked).toBeLessThan(at.getTime());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it("schedule an unpublish that the platform's timer applies with no request asking", async () => {
    const at = new Date(Date.now() + 200);
    await runTask({
      type: "UPDATE_PUBLISH_STATUS",
      updatePublishStatusOptions: {
        dataCollectionId: "Posts",
        operation: "SCHEDULE_DRAFT_STATUS",
        scheduleDraftStatusOptions: { date: at },
        filter: { _id: "live" },
      },
    });
    expect(platform.ctx.data.schedules.forItem("Posts", "live")).toEqual([{ collectionId: "Posts", itemId: "live", status: "DRAFT", dueAt: at.toISOString() }]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Read straight from the store: no data request ran since the time came.
    expect(platform.ctx.data.findItem("Posts", "live")?._publishStatus).toBe("DRAFT");
    expect(platform.ctx.data.schedules.forItem("Posts", "live")).toEqual([]);
  });

  it("cancel scheduling: the schedule goes and nothing changes when its time comes", async () => {
    const at = new Date(Date.now() + 200);
    await runTask({
      type: "UPDATE_PUBLISH_STATUS",
      updatePublishStatusOptions: { dataCollectionId: "Posts", operation: "SCHEDULE_PUBLISHED_STATUS", schedulePublishedStatusOptions: { date: at } },
    });
    expect(platform.ctx.data.schedules.forItem("Posts", "draft")).toHaveLength(1);
    const cancelled = await runTask({
      type: "UPDATE_PUBLISH_STATUS",
      updatePublishStatusOptions: { dataCollectionId: "Posts", operation: "CANCEL_SCHEDULING", filter: { _id: "draft" } },
    });
    expect(cancelled.status).toBe("COMPLETED");
    expect(platform.ctx.data.schedules.forItem("Posts", "draft")).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await visitor().get("Posts", "draft")).toBeNull();
  });

  it("DELETE_BY_QUERY leaves drafts unless publishPluginOptions include them", async () => {
    await runTask({ type: "DELETE_BY_QUERY", deleteByQueryOptions: { dataCollectionId: "Posts" } });
    expect((await visible("Posts")).all).toEqual(["draft"]);
    await runTask({ type: "DELETE_BY_QUERY", deleteByQueryOptions: { dataCollectionId: "Posts", publishPluginOptions: { includeDraftItems: true } } });
    expect((await visible("Posts")).all).toEqual([]);
  });

  it("are refused for a collection without the Publish plugin, and a schedule without its date", async () => {
    expect(
      await codeOf(
        admin().tasks.createTask({ type: "UPDATE_PUBLISH_STATUS", updatePublishStatusOptions: { dataCollectionId: "Plain", operation: "SET_DRAFT_STATUS" } }),
      ),
    ).toBe("WDE0075");
    expect(
      await codeOf(
        admin().tasks.createTask({
          type: "UPDATE_PUBLISH_STATUS",
          updatePublishStatusOptions: { dataCollectionId: "Posts", operation: "SCHEDULE_DRAFT_STATUS" },
        }),
      ),
    ).toBe("WDE0075");
  });
});
