import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPlatformDatabase } from "../db";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { DataStore } from "./store";
import { TRASH_DAYS } from "./trash";
import { codeOf, createCollection, idsOf, memberClient, untypedCollectionCalls as calls } from "./test-support";

/** `restoreDataCollection` through the real `@wix/data` `collections` module, and the trash's sweep. */

let platform: TestPlatform;
const admin = () => platform.adminClient();
const permissions = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(platform, "Hikes", [{ key: "name", type: "TEXT" }], permissions);
  await createCollection(
    platform,
    "Leaders",
    [{ key: "trails", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Hikes" } } }],
    permissions,
  );
  await admin().items.bulkInsert("Hikes", [
    { _id: "t1", name: "Ridge" },
    { _id: "t2", name: "Valley" },
  ]);
  await admin().items.insert("Leaders", { _id: "g1" });
  await admin().items.insertReference("Leaders", "trails", "g1", ["t1", "t2"]);
});
afterAll(() => platform.close());

describe("restoreDataCollection", () => {
  it("brings a deleted collection back with its items and the links into it", async () => {
    const before = await admin().collections.getDataCollection("Hikes");
    await admin().collections.deleteDataCollection("Hikes");
    expect(await codeOf(admin().collections.getDataCollection("Hikes"))).toBe("WDE0025");

    const { dataCollection } = await calls(admin()).restoreDataCollection("Hikes");
    expect(dataCollection?._id).toBe("Hikes");
    expect(await admin().collections.getDataCollection("Hikes")).toMatchObject({ fields: before.fields, permissions: before.permissions });
    expect(idsOf((await admin().items.query("Hikes").find()).items)).toEqual(["t1", "t2"]);
    expect(idsOf((await admin().items.queryReferenced("Leaders", "g1", "trails")).items)).toEqual(["t1", "t2"]);
  });

  it("answers WDE0025 for a collection not deleted, and WDE0104 when its id was taken again", async () => {
    expect(await codeOf(calls(admin()).restoreDataCollection("Hikes"))).toBe("WDE0025");
    expect(await codeOf(calls(admin()).restoreDataCollection("Never"))).toBe("WDE0025");
    await admin().collections.deleteDataCollection("Leaders");
    await createCollection(platform, "Leaders", [{ key: "title", type: "TEXT" }], permissions);
    expect(await codeOf(calls(admin()).restoreDataCollection("Leaders"))).toBe("WDE0104");
  });

  it("needs the admin key", async () => {
    await createCollection(platform, "Scratch", [{ key: "name", type: "TEXT" }], permissions);
    await admin().collections.deleteDataCollection("Scratch");
    const member = memberClient(platform, platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id);
    expect(await codeOf(calls(member).restoreDataCollection("Scratch"))).toBe("WDE0027");
    expect(await codeOf(calls(platform.visitorClient()).restoreDataCollection("Scratch"))).toBe("WDE0027");
  });
});

describe("the trash", () => {
  it(`keeps a deleted collection ${TRASH_DAYS} days, then the sweep drops it`, () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const store = new DataStore(openPlatformDatabase({ dataDir: "", inMemory: true }), () => now);
    store.createCollection({ id: "Old", fields: [], permissions });
    store.trash.keep("Old");
    store.deleteCollection("Old");
    now = new Date(now.getTime() + TRASH_DAYS * 24 * 60 * 60 * 1000);
    expect(store.trash.prune()).toBe(0);
    now = new Date(now.getTime() + 1);
    expect(store.trash.prune()).toBe(1);
    expect(store.trash.has("Old")).toBe(false);
  });
});
