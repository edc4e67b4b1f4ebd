import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { backups, indexes } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../testing";
import { backupFolder } from "./backups";
import { codeOf, createCollection } from "./test-support";

/** Backups and restorations through the real `@wix/data` `backups` module. */

let platform: TestPlatform;
const client = (p: TestPlatform = platform) =>
  createClient({ modules: { backups, indexes }, auth: ApiKeyStrategy({ apiKey: p.config.apiKey, siteId: "local-site" }) });
const items = () => platform.adminClient().items;
const permissions = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
const backupNamed = (id: string, p?: TestPlatform) =>
  until(
    async () => (await client(p).backups.listBackups({})).backups?.find((backup) => backup._id === id),
    (b) => b?.status !== "PENDING",
  );
const restorationNamed = (id: string) =>
  until(
    async () => (await client().backups.listRestorations({})).restorations?.find((r) => r._id === id),
    (r) => r?.status !== "PENDING",
  );

/** Everything a restore must bring back: every item of the collections in id order, and the links. */
async function snapshot() {
  const all = async (collection: string) => (await items().query(collection).ascending("_id").limit(1000).find()).items;
  return {
    hikers: await all("Hikers"),
    routes: await all("Routes"),
    links: (await items().queryReferenced("Hikers", "h1", "favourites")).items.map((route) => route._id),
  };
}

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(platform, "Routes", [{ key: "name", type: "TEXT" }], permissions);
  await createCollection(
    platform,
    "Hikers",
    [
      { key: "name", type: "TEXT" },
      { key: "home", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Routes" } } },
      { key: "favourites", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Routes" } } },
    ],
    permissions,
  );
  await items().bulkInsert(
    "Routes",
    Array.from({ length: 30 }, (_, i) => ({ _id: `r${i}`, name: `Route ${i}`, km: i })),
  );
  await items().bulkInsert("Hikers", [
    { _id: "h1", name: "Ann", home: "r1" },
    { _id: "h2", name: "Ben", tags: ["x"] },
  ]);
  await items().insertReference("Hikers", "favourites", "h1", ["r3", "r2", "r5"]);
});
afterAll(() => platform.close());

describe("backups", () => {
  it("are taken (PENDING → READY) into a file, restored whole (PENDING → COMPLETED) exactly as they were", async () => {
    const before = await snapshot();
    const { backup } = await client().backups.createBackup();
    expect(backup?.status).toBe("PENDING");
    const ready = await backupNamed(backup!._id!);
    expect(ready?.status).toBe("READY");
    expect(Number(ready?.sizeInBytes)).toBeGreaterThan(0);
    expect(ready?.collections?.map((collection) => collection._id)).toEqual(expect.arrayContaining(["Hikers", "Routes"]));
    expect(fs.existsSync(path.join(backupFolder(platform.config.dataDir), `${backup!._id}.sqlite`))).toBe(true);

    // Change everything a restore must undo.
    await items().update("Hikers", { _id: "h1", name: "Changed" });
    await items().remove("Routes", "r3");
    await items().insert("Routes", { _id: "new", name: "New" });
    await items().replaceReferences("Hikers", "favourites", "h1", ["r7"]);
    await items().remove("Hikers", "h2");

    const { restoration } = await client().backups.restoreBackup(backup!._id!);
    expect(restoration?.status).toBe("PENDING");
    expect((await restorationNamed(restoration!._id!))?.status).toBe("COMPLETED");
    expect(await snapshot()).toEqual(before);
  });

  it("restore chosen collections only, also under another id and display name", async () => {
    const { backup } = await client().backups.createBackup();
    await backupNamed(backup!._id!);
    await items().insert("Routes", { _id: "extra", name: "Extra" });
    await items().update("Hikers", { _id: "h1", name: "Changed again" });
    const { restoration } = await client().backups.restorePartialBackup(backup!._id!, [
      { dataCollectionId: "Routes" },
      { dataCollectionId: "Hikers", restoreDestination: { dataCollectionId: "HikersCopy", displayName: "Hikers (copy)" } },
    ]);
    expect((await restorationNamed(restoration!._id!))?.status).toBe("COMPLETED");
    expect(await items().get("Routes", "extra")).toBeNull();
    expect((await items().get("Hikers", "h1"))?.name).toBe("Changed again");
    expect((await items().get("HikersCopy", "h1"))?.name).toBe("Ann");
    expect((await platform.adminClient().collections.getDataCollection("HikersCopy")).displayName).toBe("Hikers (copy)");
    expect((await items().queryReferenced("HikersCopy", "h1", "favourites")).items.map((route) => route._id)).toEqual(["r3", "r2", "r5"]);
  });

  it("are deleted (DELETED, file removed) and then cannot be restored", async () => {
    const { backup } = await client().backups.createBackup();
    await backupNamed(backup!._id!);
    await client().backups.deleteBackup(backup!._id!);
    const deleted = (await client().backups.listBackups({ status: ["DELETED"] })).backups?.find((b) => b._id === backup!._id);
    expect(deleted?.status).toBe("DELETED");
    expect(deleted?.deletedDate).toBeInstanceOf(Date);
    expect(fs.existsSync(path.join(backupFolder(platform.config.dataDir), `${backup!._id}.sqlite`))).toBe(false);
    expect(await codeOf(client().backups.restoreBackup(backup!._id!))).toBe("WDE0075");
    expect(await codeOf(client().backups.deleteBackup("no-such-backup"))).toBe("WDE0075");
  });

  it("a restoration that breaks a unique index FAILS and changes nothing", async () => {
    await createCollection(platform, "Codes", [{ key: "code", type: "TEXT" }], permissions);
    await items().bulkInsert("Codes", [
      { _id: "c1", code: "A" },
      { _id: "c2", code: "A" },
    ]);
    const { backup } = await client().backups.createBackup();
    await backupNamed(backup!._id!);
    await items().remove("Codes", "c2");
    await client().indexes.createIndex("Codes", { name: "code", fields: [{ path: "code" }], unique: true });
    await until(
      async () => (await client().indexes.listIndexes("Codes")).indexes?.[0]?.status,
      (status) => status === "ACTIVE",
    );
    const { restoration } = await client().backups.restorePartialBackup(backup!._id!, [{ dataCollectionId: "Codes" }]);
    expect((await restorationNamed(restoration!._id!))?.status).toBe("FAILED");
    expect((await items().query("Codes").find()).items.map((item) => item._id)).toEqual(["c1"]);
  });

  it("a backup that cannot be written ends FAILED; callers without the admin key are refused", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-backup-"));
    fs.writeFileSync(backupFolder(dataDir), "not a folder");
    const other = await startTestPlatform({ dataDir });
    try {
      const { backup } = await client(other).backups.createBackup();
      expect((await backupNamed(backup!._id!, other))?.status).toBe("FAILED");
    } finally {
      // Closing the second platform routes the clients back to the first.
      await other.close();
    }
    const anonymous = await fetch("https://www.wixapis.com/wix-data/v2/backups", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toMatchObject({ details: { applicationError: { code: "WDE0027" } } });
  });
});
