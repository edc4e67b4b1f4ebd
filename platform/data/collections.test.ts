import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection } from "./test-support";

/** Collection PATCH and the field endpoints, through the real `@wix/data` collections module. */

let platform: TestPlatform;
const collections = () => platform.adminClient().collections;
const keys = (collection: { fields?: { key?: string; systemField?: boolean }[] } | undefined) =>
  (collection?.fields ?? []).filter((field) => !field.systemField).map((field) => field.key);

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(platform, "Maps", [{ key: "name", type: "TEXT" }], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
  await createCollection(platform, "Pins", [{ key: "label", type: "TEXT" }], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
});
afterAll(() => platform.close());

describe("collection PATCH", () => {
  it("changes the parts sent, keeps the rest, and moves the revision on", async () => {
    const before = await collections().getDataCollection("Maps");
    const { dataCollection } = await collections().patchDataCollection("Maps", { displayName: "Trail maps" } as never);
    expect(dataCollection?.displayName).toBe("Trail maps");
    expect(keys(dataCollection)).toEqual(["name"]);
    expect(dataCollection?.permissions).toEqual(before.permissions);
    expect(Number(dataCollection?.revision)).toBe(Number(before.revision) + 1);
  });

  it("refuses a stale revision (WDE0178), permission changes (WDE0075) and non-admins (WDE0027)", async () => {
    expect(await codeOf(collections().patchDataCollection("Maps", { displayName: "x", revision: "1" } as never))).toBe("WDE0178");
    const permissions = { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" };
    const failure = await codeOf(collections().patchDataCollection("Maps", { permissions } as never));
    expect(failure).toBe("WDE0075");
    expect(await codeOf(platform.visitorClient().collections.patchDataCollection("Maps", { displayName: "x" } as never))).toBe("WDE0027");
    expect(await codeOf(collections().patchDataCollection("Nope", { displayName: "x" } as never))).toBe("WDE0025");
  });
});

describe("field endpoints", () => {
  it("creates, patches, updates and deletes a field, and the new field is queryable at once", async () => {
    const created = await collections().createDataCollectionField("Maps", { field: { key: "km", displayName: "Km", type: "NUMBER" } as never });
    expect(keys(created.dataCollection)).toEqual(["name", "km"]);
    await platform.adminClient().items.insert("Maps", { _id: "m1", name: "Ridge", km: 12 });
    expect((await platform.visitorClient().items.query("Maps").gt("km", 10).find()).items.map((item) => item._id)).toEqual(["m1"]);

    const patched = await collections().patchDataCollectionField("Maps", { key: "km", displayName: "Distance" } as never);
    const km = () => patched.dataCollection?.fields?.find((field) => field.key === "km");
    expect([km()?.displayName, km()?.type]).toEqual(["Distance", "NUMBER"]);

    const updated = await collections().updateDataCollectionField("Maps", { field: { key: "km", type: "TEXT" } as never });
    expect(updated.dataCollection?.fields?.find((field) => field.key === "km")?.type).toBe("TEXT");

    const deleted = await collections().deleteDataCollectionField("Maps", { fieldKey: "km" });
    expect(keys(deleted.dataCollection)).toEqual(["name"]);
    // The field's values go with it (Wix's deleteDataCollectionField): the item no longer has one, and a query on it finds nothing.
    const item = await platform.adminClient().items.get("Maps", "m1");
    expect(item).toMatchObject({ _id: "m1", name: "Ridge" });
    expect(item).not.toHaveProperty("km");
    expect((await platform.adminClient().items.query("Maps").isNotEmpty("km").find()).items).toEqual([]);
  });

  it("deleting a MULTI_REFERENCE field drops its links", async () => {
    await collections().createDataCollectionField("Maps", {
      field: { key: "pins", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Pins" } } } as never,
    });
    await platform.adminClient().items.insert("Pins", { _id: "p1", label: "Top" });
    await platform.adminClient().items.insertReference("Maps", "pins", "m1", "p1");
    await collections().deleteDataCollectionField("Maps", { fieldKey: "pins" });
    await collections().createDataCollectionField("Maps", {
      field: { key: "pins", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Pins" } } } as never,
    });
    expect(await platform.adminClient().items.isReferenced("Maps", "pins", "m1", "p1")).toBe(false);
  });

  it("refuses a duplicate or missing field, a bad field and a reference to a missing collection", async () => {
    expect(await codeOf(collections().createDataCollectionField("Maps", { field: { key: "name", type: "TEXT" } as never }))).toBe("WDE0075");
    expect(await codeOf(collections().updateDataCollectionField("Maps", { field: { key: "ghost", type: "TEXT" } as never }))).toBe("WDE0075");
    expect(await codeOf(collections().deleteDataCollectionField("Maps", { fieldKey: "ghost" }))).toBe("WDE0075");
    expect(await codeOf(collections().createDataCollectionField("Maps", { field: { key: "constructor", type: "TEXT" } as never }))).toBe("WDE0075");
    const reference = { key: "owner", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Nope" } } };
    expect(await codeOf(collections().createDataCollectionField("Maps", { field: reference as never }))).toBe("WDE0025");
    expect(await codeOf(platform.visitorClient().collections.deleteDataCollectionField("Maps", { fieldKey: "name" }))).toBe("WDE0027");
  });

  it("patch-field is a PATCH on the collection's path, as the module sends it", async () => {
    const send = (method: string) =>
      fetch(`${platform.url}/wix-data/v2/collections/Maps/patch-field`, {
        method,
        headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ field: { key: "name", displayName: "Title" } }),
      });
    const patched = await send("PATCH");
    expect(patched.status).toBe(200);
    expect(
      ((await patched.json()) as { dataCollection: { fields: { key: string; displayName?: string }[] } }).dataCollection.fields.find((f) => f.key === "name")
        ?.displayName,
    ).toBe("Title");
    expect((await send("POST")).status).toBe(404);
  });
});
