import http from "node:http";
import type { AddressInfo } from "node:net";
import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { backups, tasks } from "@wix/data";
import { memberPrivacySettings, members } from "@wix/members";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { REVALIDATE_SIGNATURE_HEADER, REVALIDATE_TIMESTAMP_HEADER, checkRevalidation, type RevalidationChange } from "@ridgeline/platform-contract";
import { createCollection } from "../data/test-support";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { RevalidationNotifier } from "./notifier";

/**
 * The platform tells the site which data changed: every write path, through the real
 * `@wix/*` clients, ends in a signed call to a real HTTP server standing in for the site.
 */

const SECRET = "revalidation-test-secret-0123456789abcdef";

/** A stand-in for the site's webhook: records each call and answers with the next scripted status (200 after the script). */
async function startSite() {
  const calls: Array<RevalidationChange & { signed: boolean }> = [];
  const script: number[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const header = (name: string) => (typeof request.headers[name] === "string" ? (request.headers[name] as string) : null);
      const signed = checkRevalidation(body, header(REVALIDATE_SIGNATURE_HEADER), header(REVALIDATE_TIMESTAMP_HEADER), SECRET) === "valid";
      calls.push({ ...(JSON.parse(body) as RevalidationChange), signed });
      response.writeHead(script.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/revalidate`;
  return { url, calls, script, close: () => new Promise((resolve) => server.close(resolve)) };
}
type Site = Awaited<ReturnType<typeof startSite>>;

/** Waits for `count` calls, then a little more to see that no other call follows. */
async function callsAfter(site: Site, count: number): Promise<Site["calls"]> {
  const deadline = Date.now() + 5000;
  while (site.calls.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 300));
  return site.calls.splice(0);
}

let site: Site;
let platform: TestPlatform;
const admin = () =>
  createClient({ modules: { tasks, backups, members, memberPrivacySettings }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
const items = () => platform.adminClient().items;
const permissions = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;

beforeAll(async () => {
  site = await startSite();
  platform = await startTestPlatform({ revalidation: { url: site.url, secret: SECRET } });
  await createCollection(platform, "Notes", [{ key: "title", type: "TEXT" }], permissions);
  await createCollection(platform, "Tags", [{ key: "name", type: "TEXT" }], permissions);
  await callsAfter(site, 1);
});
afterAll(async () => {
  await platform.close();
  await site.close();
});
afterEach(() => {
  site.script.length = 0;
});

describe("the platform's revalidation calls", () => {
  it("announce an insert, an update and a remove, signed with the shared secret", async () => {
    await items().insert("Notes", { _id: "n1", title: "first" });
    expect(await callsAfter(site, 1)).toEqual([{ collections: ["Notes"], members: false, signed: true }]);
    await items().update("Notes", { _id: "n1", title: "changed" });
    expect(await callsAfter(site, 1)).toEqual([{ collections: ["Notes"], members: false, signed: true }]);
    await items().remove("Notes", "n1");
    expect(await callsAfter(site, 1)).toEqual([{ collections: ["Notes"], members: false, signed: true }]);
  });

  it("coalesce a burst of writes to two collections into one call naming each once", async () => {
    await items().bulkInsert(
      "Notes",
      Array.from({ length: 200 }, (_, i) => ({ _id: `b${i}`, title: `bulk ${i}` })),
    );
    for (let i = 0; i < 10; i++) await items().insert(i % 2 ? "Notes" : "Tags", { title: `one ${i}`, name: `tag ${i}` });
    expect(await callsAfter(site, 1)).toEqual([{ collections: ["Notes", "Tags"], members: false, signed: true }]);
  });

  it("announce patches, truncation, background tasks and restorations", async () => {
    await items().patch("Notes", "b1").setField("title", "patched").run();
    expect((await callsAfter(site, 1)).map((call) => call.collections)).toEqual([["Notes"]]);

    const { backup } = await admin().backups.createBackup();
    for (let status = ""; status !== "READY";) {
      status = (await admin().backups.listBackups({})).backups?.find((listed) => listed._id === backup!._id)?.status ?? "";
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await callsAfter(site, 0)).toEqual([]);

    await items().truncate("Tags");
    expect((await callsAfter(site, 1)).map((call) => call.collections)).toEqual([["Tags"]]);

    const task = await admin().tasks.createTask({ type: "DELETE_BY_QUERY", deleteByQueryOptions: { dataCollectionId: "Notes", filter: { title: "patched" } } });
    while (!["COMPLETED", "FAILED"].includes((await admin().tasks.getTask(task._id!)).status ?? "")) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await callsAfter(site, 1)).map((call) => call.collections)).toEqual([["Notes"]]);

    await admin().backups.restorePartialBackup(backup!._id!, [{ dataCollectionId: "Tags" }]);
    expect((await callsAfter(site, 1)).map((call) => call.collections)).toContainEqual(["Tags"]);
  });

  it("announce a change to a public member profile, and not a login", async () => {
    const dana = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity;
    await admin().members.updateMember(dana.id, { profile: { title: "Trail captain" } });
    expect(await callsAfter(site, 1)).toEqual([{ collections: [], members: true, signed: true }]);
    platform.ctx.identities.recordLogin(dana.id);
    expect(await callsAfter(site, 0)).toEqual([]);
  });

  it("announce a change to who sees public profiles, and not a refused one or a read", async () => {
    const { memberPrivacySettings: current } = await admin().memberPrivacySettings.getMemberPrivacySettings();
    expect(await callsAfter(site, 0)).toEqual([]);
    await admin().memberPrivacySettings.setMemberPrivacySettings({ publicMemberVisibility: "VISIBLE_TO_MEMBERS_ONLY", revision: current!.revision! });
    expect(await callsAfter(site, 1)).toEqual([{ collections: [], members: true, signed: true }]);
    await admin()
      .memberPrivacySettings.setMemberPrivacySettings({ publicMemberVisibility: "VISIBLE_TO_ALL", revision: current!.revision! })
      .catch(() => null);
    expect(await callsAfter(site, 0)).toEqual([]);
  });
});

describe("RevalidationNotifier", () => {
  const warnings: string[] = [];
  const log = { warn: (_: object, message: string) => warnings.push(message) };
  const timing = { quietMs: 5, maxWaitMs: 50, retryDelaysMs: [5, 5], timeoutMs: 1000 };

  it("tries again after no answer or a 5xx, and gives up on a refusal at once", async () => {
    const notifier = new RevalidationNotifier({ url: site.url, secret: SECRET }, log, timing);
    site.script.push(503, 502);
    notifier.changed({ kind: "collection", collectionId: "Notes" });
    await notifier.flush();
    expect(site.calls.splice(0)).toHaveLength(3);
    expect(warnings).toEqual([]);

    site.script.push(401);
    notifier.changed({ kind: "collection", collectionId: "Notes" });
    await notifier.flush();
    expect(site.calls.splice(0)).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });

  it("sends a long run of changes at least every maxWaitMs, not only when it stops", async () => {
    const notifier = new RevalidationNotifier({ url: site.url, secret: SECRET }, log, timing);
    const started = Date.now();
    while (Date.now() - started < 200) {
      notifier.changed({ kind: "collection", collectionId: "Notes" });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await notifier.flush();
    expect(site.calls.splice(0).length).toBeGreaterThanOrEqual(3);
  });
});
