import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { collections, items } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection, idsOf, memberClient, untypedCollectionCalls as calls } from "./test-support";

/** The Draft Items plugin and the drafts calls, through the real `@wix/data` `collections` and `items` modules. */

let platform: TestPlatform;
const admin = () => createClient({ modules: { items, collections }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
const visitor = () => platform.visitorClient().items;
const permissions = { read: "ANYONE", insert: "ADMIN", update: "SITE_MEMBER", remove: "SITE_MEMBER" } as const;

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(platform, "Articles", [{ key: "title", type: "TEXT" }], permissions);
  await admin().items.insert("Articles", { _id: "a1", title: "Live title" });
  await admin().items.insert("Articles", { _id: "a2", title: "Second" });
});
afterAll(() => platform.close());

describe("the Draft Items plugin", () => {
  it("pairs a collection with its drafts collection, readable only at the collection's update level", async () => {
    const { dataCollection } = await calls(admin()).addDraftItemsPlugin("Articles", { draftItemsOptions: {} });
    expect(dataCollection?._id).toBe("Articles");
    // Wix's reference reads the drafts collection's id from the plugin; the drafts collection names its published one.
    const draftItemsPlugin = (collection?: { plugins?: unknown }) =>
      (collection?.plugins as { type?: string }[] | undefined)?.filter((p) => p.type === "DRAFT_ITEMS");
    expect(draftItemsPlugin(dataCollection)).toEqual([{ type: "DRAFT_ITEMS", draftItemsOptions: { draftsCollectionId: "Articles__drafts" } }]);
    expect(draftItemsPlugin(await admin().collections.getDataCollection("Articles"))).toEqual(draftItemsPlugin(dataCollection));
    const drafts = await admin().collections.getDataCollection("Articles__drafts");
    expect(draftItemsPlugin(drafts)).toEqual([{ type: "DRAFT_ITEMS", draftItemsOptions: { publishedCollectionId: "Articles" } }]);
    expect(drafts.permissions).toEqual({ read: "SITE_MEMBER", insert: "SITE_MEMBER", update: "SITE_MEMBER", remove: "SITE_MEMBER" });
    expect(drafts.fields?.map((field) => field.key)).toContain("title");
    // The plugin is the platform's to show: a collection sent back as read keeps its pair, and adding the plugin again changes nothing.
    const updated = await admin().collections.updateDataCollection(await admin().collections.getDataCollection("Articles"));
    expect(draftItemsPlugin(updated)).toEqual(draftItemsPlugin(dataCollection));
    expect(draftItemsPlugin((await calls(admin()).addDraftItemsPlugin("Articles", { draftItemsOptions: {} })).dataCollection)).toEqual(
      draftItemsPlugin(dataCollection),
    );
    // Nor do the generic plugin calls make or end the pair.
    expect(await codeOf(admin().collections.addDataCollectionPlugin("Articles", { plugin: { type: "DRAFT_ITEMS" } as never }))).toBe("WDE0075");
    expect(draftItemsPlugin((await admin().collections.deleteDataCollectionPlugin("Articles", { pluginType: "DRAFT_ITEMS" as never })).dataCollection)).toEqual(
      draftItemsPlugin(dataCollection),
    );
  });

  it("refuses calls on a collection without the plugin, and the plugin's calls without the admin key", async () => {
    await createCollection(platform, "Plain", [{ key: "title", type: "TEXT" }], permissions);
    expect(await codeOf(admin().items.createDataItemDraft("Plain", "x"))).toBe("WDE0075");
    const member = memberClient(platform, platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id);
    expect(await codeOf(calls(member).addDraftItemsPlugin("Plain", { draftItemsOptions: {} }))).toBe("WDE0027");
  });
});

describe("drafts of items", () => {
  it("keeps the published item live while its draft is edited, then publishes the draft over it", async () => {
    const draft = await admin().items.createDataItemDraft("Articles", "a1");
    expect(draft).toMatchObject({ _id: "a1", title: "Live title" });
    await admin().items.update("Articles__drafts", { _id: "a1", title: "Edited title" });
    expect(await visitor().get("Articles", "a1")).toMatchObject({ title: "Live title" });
    expect(await codeOf(visitor().get("Articles__drafts", "a1"))).toBe("WDE0027");
    // A second draft of the same item is refused rather than overwriting the first's edits.
    expect(await codeOf(admin().items.createDataItemDraft("Articles", "a1"))).toBe("WDE0074");

    const published = await admin().items.publishDataItemDraft("Articles", "a1");
    expect(published).toMatchObject({ _id: "a1", title: "Edited title" });
    expect(await visitor().get("Articles", "a1")).toMatchObject({ title: "Edited title" });
    expect((await admin().items.query("Articles__drafts").find()).items).toEqual([]);
  });

  it("unpublishes an item, keeping it as a draft when asked", async () => {
    const kept = await admin().items.unpublishDataItem("Articles", "a2", { copyToDraft: true });
    expect(kept).toMatchObject({ _id: "a2", title: "Second" });
    expect(idsOf((await visitor().query("Articles").find()).items)).toEqual(["a1"]);
    expect(idsOf((await admin().items.query("Articles__drafts").find()).items)).toEqual(["a2"]);
    // Published again, and unpublished for good.
    await admin().items.publishDataItemDraft("Articles", "a2");
    expect(await admin().items.unpublishDataItem("Articles", "a2")).toBeUndefined();
    expect(idsOf((await admin().items.query("Articles__drafts").find()).items)).toEqual([]);
    expect(await codeOf(admin().items.publishDataItemDraft("Articles", "a2"))).toBe("WDE0073");
  });

  it("applies the collections' permissions: a visitor may not draft, a member at the update level may", async () => {
    const visitorItems = platform.visitorClient().items;
    expect(await codeOf(visitorItems.createDataItemDraft("Articles", "a1"))).toBe("WDE0027");
    const member = memberClient(platform, platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id);
    expect(await member.items.createDataItemDraft("Articles", "a1")).toMatchObject({ _id: "a1" });
    expect(await member.items.publishDataItemDraft("Articles", "a1")).toMatchObject({ _id: "a1" });
  });
});

describe("removing the plugin", () => {
  it("refuses while drafts exist unless told to discard or publish them", async () => {
    await admin().items.insert("Articles", { _id: "a3", title: "Third" });
    await admin().items.unpublishDataItem("Articles", "a3", { copyToDraft: true });
    expect(await codeOf(calls(admin()).deleteDraftItemsPlugin("Articles"))).toBe("WDE0075");
    await calls(admin()).deleteDraftItemsPlugin("Articles", { draftItemsRemovalAction: "PUBLISH_EXISTING_DRAFT_ITEMS" });
    expect(idsOf((await visitor().query("Articles").find()).items)).toEqual(["a1", "a3"]);
    expect(await codeOf(admin().collections.getDataCollection("Articles__drafts"))).toBe("WDE0025");
  });

  it("moves the Publish plugin's drafts into the drafts collection when asked", async () => {
    await admin().collections.createDataCollection({
      _id: "Notes",
      fields: [{ key: "title", type: "TEXT" }] as never,
      permissions: permissions as never,
      plugins: [{ type: "PUBLISH", publishOptions: { defaultStatus: "PUBLISHED" } }] as never,
    });
    await admin().items.insert("Notes", { _id: "n1", title: "Out" });
    await admin().items.insert("Notes", { _id: "n2", title: "Draft", _publishStatus: "DRAFT" });
    expect(await codeOf(calls(admin()).addDraftItemsPlugin("Notes", { draftItemsOptions: {} }))).toBe("WDE0075");
    const { dataCollection } = await calls(admin()).addDraftItemsPlugin("Notes", {
      draftItemsOptions: {},
      publishPluginConflictAction: "COPY_DRAFT_ITEMS_WITH_DRAFT_STATUS",
    });
    expect(dataCollection?.plugins).toEqual([{ type: "DRAFT_ITEMS", draftItemsOptions: { draftsCollectionId: "Notes__drafts" } }]);
    expect(idsOf((await admin().items.query("Notes").find()).items)).toEqual(["n1"]);
    const [moved] = (await admin().items.query("Notes__drafts").find()).items;
    expect(moved).toMatchObject({ _id: "n2", title: "Draft" });
    expect(moved).not.toHaveProperty("_publishStatus");
  });

  it("deletes the drafts with their collection, and refuses deleting the drafts collection alone", async () => {
    expect(await codeOf(admin().collections.deleteDataCollection("Notes__drafts"))).toBe("WDE0075");
    await admin().collections.deleteDataCollection("Notes");
    expect(await codeOf(admin().collections.getDataCollection("Notes__drafts"))).toBe("WDE0025");
  });
});
