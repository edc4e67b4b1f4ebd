import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppStrategy, createClient } from "@wix/sdk";
import { LOCAL_SITE_APP_ID } from "@ridgeline/platform-contract";
import { startTestPlatform, type TestPlatform } from "../../testing";
import { CSRF_HEADER } from "../access";

/**
 * The Collections area's API on a real platform with the demo data: what it lists, and that its
 * writes are the data service's own (range checks, the SDK sees them, the site is told).
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A stand-in for the site's webhook: the real `@wix/sdk` reads each event, and the collections of data item events are recorded. */
async function startSite() {
  const calls: string[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", async () => {
      const reader = createClient({ auth: AppStrategy({ appId: LOCAL_SITE_APP_ID, publicKey: platform.ctx.webhookKeys.publicKeyPem() }) });
      const { payload } = (await reader.webhooks.parseJWT(body)) as { payload: Json };
      const item = payload.createdEvent?.entity ?? payload.updatedEvent?.currentEntity ?? payload.deletedEvent?.deletedEntity;
      if (item?.dataCollectionId) calls.push(item.dataCollectionId);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/wix`;
  return { url, calls, close: () => new Promise((resolve) => server.close(resolve)) };
}

let platform: TestPlatform;
let site: Awaited<ReturnType<typeof startSite>>;
let csrf: string;

async function call(method: "GET" | "POST" | "PUT" | "DELETE", path: string, payload?: unknown, withToken = true) {
  const response = await platform.app.inject({
    method,
    url: `/_local/studio/api${path}`,
    headers: withToken && method !== "GET" ? { [CSRF_HEADER]: csrf } : {},
    ...(payload !== undefined && { payload: payload as Json }),
  });
  const json = String(response.headers["content-type"]).startsWith("application/json");
  return { status: response.statusCode, body: (json ? response.json() : {}) as Json, raw: response.body };
}

/** Polls a job the Studio started until it has finished. */
async function finished(jobId: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { body } = await call("GET", `/jobs/${jobId}`);
    if (["COMPLETED", "FAILED", "PARTIALLY_SUCCESSFUL"].includes(body.job.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`job ${jobId} did not finish`);
}

beforeAll(async () => {
  site = await startSite();
  platform = await startTestPlatform({ siteWebhookUrl: site.url });
  const page = await platform.app.inject({ url: "/_local/studio/collections" });
  csrf = /<meta name="studio-csrf" content="([^"]+)">/.exec(page.body)![1];
});
afterAll(async () => {
  await platform.close();
  await site.close();
});

describe("the Studio's collections API", () => {
  it("lists every collection with its fields, their types, its permissions and its item count", async () => {
    const { status, body } = await call("GET", "/collections");
    expect(status).toBe(200);
    const trails = body.collections.find((collection: Json) => collection.id === "Trails");
    expect(trails.permissions.read).toBe("ANYONE");
    expect(trails.fields).toEqual(expect.arrayContaining([expect.objectContaining({ key: "region", type: "REFERENCE" })]));
    expect(trails.fields).toEqual(expect.arrayContaining([expect.objectContaining({ key: "_id", systemField: true })]));
    const sdkCount = await platform.adminClient().items.query("Trails").count();
    expect(trails.itemCount).toBe(sdkCount);
  });

  it("pages, sorts and filters items, with the count of all that match", async () => {
    const first = await call("GET", "/collections/Trails/items?limit=2&offset=0&sort=title&order=ASC");
    const second = await call("GET", "/collections/Trails/items?limit=2&offset=2&sort=title&order=ASC");
    const titles = [...first.body.items, ...second.body.items].map((item: Json) => item.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)));
    expect(new Set(titles).size).toBe(4);
    expect(first.body.total).toBeGreaterThan(4);
    const filtered = await call("GET", "/collections/Trails/items?q=summit");
    expect(filtered.body.items.map((item: Json) => item._id)).toContain("trail-summit-loop");
    expect(filtered.body.total).toBe(filtered.body.items.length);
    expect(filtered.body.total).toBeLessThan(first.body.total);
    // Each referenced region by its title, for the table to show instead of its id.
    const summit = filtered.body.items.find((item: Json) => item._id === "trail-summit-loop");
    expect(filtered.body.titles.region[summit.region]).toBe("North Ridge");
    expect(Object.keys(filtered.body.titles)).toEqual(["region"]);
    const refused = await call("GET", "/collections/Trails/items?sort=nope");
    expect(refused.status).toBe(400);
    expect((await call("GET", "/collections/Nope/items")).status).toBe(404);
  });

  it("offers a referenced collection's items by their display field for a picker", async () => {
    const { body } = await call("GET", "/collections/Regions/choices");
    expect(body.choices).toEqual(expect.arrayContaining([{ id: "region-north-ridge", label: "North Ridge" }]));
  });

  it("saves an edit the SDK then reads, and tells the site which collection changed", async () => {
    const { body } = await call("GET", "/collections/Trails/items/trail-summit-loop");
    site.calls.length = 0;
    const saved = await call("PUT", "/collections/Trails/items/trail-summit-loop", { data: { ...body.item, title: "Summit Loop (edited)" } });
    expect(saved.status).toBe(200);
    const read = await platform.visitorClient().items.get("Trails", "trail-summit-loop");
    expect(read?.title).toBe("Summit Loop (edited)");
    await expect.poll(() => site.calls.includes("Trails")).toBe(true);
    await call("PUT", "/collections/Trails/items/trail-summit-loop", { data: body.item });
  });

  it("refuses a change without the page's CSRF token, and a value outside its field's range with the platform's code", async () => {
    const { body } = await call("GET", "/collections/Trails/items/trail-summit-loop");
    const withoutToken = await call("PUT", "/collections/Trails/items/trail-summit-loop", { data: { ...body.item, title: "x" } }, false);
    expect(withoutToken.status).toBe(403);
    const tooLong = await call("PUT", "/collections/Trails/items/trail-summit-loop", { data: { ...body.item, title: "x".repeat(201) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details.applicationError.code).toBe("WDE0076");
    expect((await call("PUT", "/collections/Trails/items/trail-summit-loop", { data: "not an object" })).status).toBe(400);
  });

  it("creates a collection, adds fields, and adds, duplicates and deletes items with their links", async () => {
    const created = await call("POST", "/collections", {
      id: "StudioNotes",
      displayName: "Studio notes",
      permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
    });
    expect(created.status).toBe(200);
    expect((await call("POST", "/collections/StudioNotes/fields", { field: { key: "title", displayName: "Title", type: "TEXT" } })).status).toBe(200);
    const linked = { key: "trails", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Trails" } } };
    expect((await call("POST", "/collections/StudioNotes/fields", { field: linked })).status).toBe(200);
    const duplicateField = await call("POST", "/collections/StudioNotes/fields", { field: { key: "title", type: "TEXT" } });
    expect(duplicateField.status).toBe(400);
    expect((await call("POST", "/collections/StudioNotes/fields", { field: { key: "bad key", type: "TEXT" } })).status).toBe(400);

    const added = await call("POST", "/collections/StudioNotes/items", {
      data: { title: "First" },
      references: { trails: ["trail-summit-loop", "trail-mirror-lakes"] },
    });
    expect(added.status).toBe(200);
    const id = added.body.item._id as string;
    const copy = await call("POST", `/collections/StudioNotes/items/${id}/duplicate`);
    expect(copy.body.item._id).not.toBe(id);
    expect(copy.body.item.title).toBe("First");
    const copied = await call("GET", `/collections/StudioNotes/items/${copy.body.item._id}`);
    expect(copied.body.references.trails).toEqual(["trail-summit-loop", "trail-mirror-lakes"]);
    expect((await call("DELETE", `/collections/StudioNotes/items/${id}`)).status).toBe(200);
    expect((await call("GET", `/collections/StudioNotes/items/${id}`)).status).toBe(404);
    expect((await call("GET", "/collections/StudioNotes/items")).body.total).toBe(1);
  });

  it("imports a CSV file as a movement job, naming a refused row by its line, and exports the collection", async () => {
    await call("POST", "/collections", { id: "StudioImports", permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } });
    await call("POST", "/collections/StudioImports/fields", { field: { key: "name", type: "TEXT" } });
    await call("POST", "/collections/StudioImports/fields", { field: { key: "km", type: "NUMBER", numberRange: { min: 0, max: 100 } } });
    const csv = "_id,name,km\nfirst,Alder walk,3\nsecond,Birch walk,4\nthird,Too far,1000\n";
    const started = await call("POST", "/collections/StudioImports/import", { fileName: "walks.csv", format: "CSV", mode: "SKIP_EXISTING", content: csv });
    expect(started.status).toBe(200);
    const done = await finished(started.body.job.id);
    expect(done.job.status).toBe("PARTIALLY_SUCCESSFUL");
    expect(done.job.progress.itemsSuccessful).toBe(2);
    expect(done.logs).toEqual([expect.objectContaining({ sourceItemId: "4", failure: expect.objectContaining({ code: "WDE0076" }) })]);
    expect((await call("GET", "/collections/StudioImports/items?sort=name")).body.items.map((item: Json) => item.name)).toEqual(["Alder walk", "Birch walk"]);

    const exported = await call("POST", "/collections/StudioImports/export", { format: "JSONL" });
    expect((await finished(exported.body.job.id)).job.status).toBe("COMPLETED");
    const file = await call("GET", `/jobs/${exported.body.job.id}/file`);
    const lines = file.raw
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Json);
    expect(lines.map((line) => line.name).sort()).toEqual(["Alder walk", "Birch walk"]);

    const unreadable = await call("POST", "/collections/StudioImports/import", { fileName: "x.csv", format: "XLS", content: "" });
    expect(unreadable.status).toBe(400);
  });
});
