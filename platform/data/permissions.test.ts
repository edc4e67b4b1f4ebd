import { createClient, ApiKeyStrategy, OAuthStrategy } from "@wix/sdk";
import { items, permissions } from "@wix/data";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection, failureOf, idsOf, memberClient } from "./test-support";

/** Access levels, special permissions and the permissions API, through the real `@wix/data` clients and raw HTTP. */

let platform: TestPlatform;
const owner = () => createClient({ modules: { items, permissions }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
const visitor = () => createClient({ modules: { items, permissions }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
type Level = "ANYONE" | "SITE_MEMBER" | "SITE_MEMBER_AUTHOR" | "CMS_EDITOR" | "PRIVILEGED";
const levels = (itemRead: Level, itemInsert: Level, itemUpdate: Level, itemRemove: Level) => ({ itemRead, itemInsert, itemUpdate, itemRemove });

async function raw(method: string, path: string, body?: unknown, authorization?: string) {
  const response = await fetch(`https://www.wixapis.com${path}`, {
    method,
    headers: { "content-type": "application/json", ...(authorization && { authorization }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { details?: { applicationError?: { code?: string } } } };
}

beforeAll(async () => {
  platform = await startTestPlatform();
  const text = [{ key: "text", type: "TEXT" }];
  await createCollection(platform, "Drafts", text, { read: "ANYONE", insert: "CMS_EDITOR", update: "CMS_EDITOR", remove: "CMS_EDITOR" });
  await createCollection(platform, "Ledger", text, { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
  await createCollection(platform, "Notes", text, {
    read: "SITE_MEMBER_AUTHOR",
    insert: "SITE_MEMBER",
    update: "SITE_MEMBER_AUTHOR",
    remove: "SITE_MEMBER_AUTHOR",
  });
});
afterAll(() => platform.close());

describe("access levels", () => {
  it("CMS_EDITOR: the collections API keeps it, members and visitors are refused, the site owner writes", async () => {
    expect((await platform.adminClient().collections.getDataCollection("Drafts")).permissions?.insert).toBe("CMS_EDITOR");
    expect(await codeOf(memberClient(platform, "m-ann").items.insert("Drafts", { text: "x" }))).toBe("WDE0027");
    expect(await codeOf(visitor().items.update("Drafts", { _id: "d1", text: "x" }))).toBe("WDE0027");
    expect((await owner().items.insert("Drafts", { _id: "d1", text: "first" }))._id).toBe("d1");
    expect((await visitor().items.get("Drafts", "d1"))?.text).toBe("first");
  });

  it("PRIVILEGED is the collections API's ADMIN: both APIs read the same levels", async () => {
    const { dataPermissions } = await owner().permissions.getPermissions("Ledger");
    expect(dataPermissions).toMatchObject({ _id: "Ledger", ...levels("PRIVILEGED", "PRIVILEGED", "PRIVILEGED", "PRIVILEGED"), specialPermissions: [] });
    await owner().permissions.updatePermissions({ _id: "Ledger", ...levels("PRIVILEGED", "CMS_EDITOR", "PRIVILEGED", "PRIVILEGED") });
    expect((await platform.adminClient().collections.getDataCollection("Ledger")).permissions).toEqual({
      read: "ADMIN",
      insert: "CMS_EDITOR",
      update: "ADMIN",
      remove: "ADMIN",
    });
    expect(await codeOf(memberClient(platform, "m-ann").items.query("Ledger").find())).toBe("WDE0027");
    expect(await codeOf(visitor().items.query("Ledger").find())).toBe("WDE0027");
    await owner().items.insert("Ledger", { _id: "l1", text: "owner's" });
    expect(idsOf((await owner().items.query("Ledger").find()).items)).toEqual(["l1"]);
  });

  it("a change of levels applies to the next call and bumps the collection's revision", async () => {
    const before = (await platform.adminClient().collections.getDataCollection("Drafts")).revision;
    await owner().permissions.updatePermissions({ _id: "Drafts", ...levels("ANYONE", "SITE_MEMBER", "CMS_EDITOR", "CMS_EDITOR") });
    expect(Number((await platform.adminClient().collections.getDataCollection("Drafts")).revision)).toBe(Number(before) + 1);
    expect((await memberClient(platform, "m-ann").items.insert("Drafts", { _id: "d2" }))._owner).toBe("m-ann");
    expect(await codeOf(memberClient(platform, "m-ann").items.remove("Drafts", "d2"))).toBe("WDE0027");
  });
});

describe("special permissions", () => {
  let grantId: string;

  it("ALLOWED lets one member do what the collection's level refuses, and no one else", async () => {
    const { specialPermissions } = await owner().permissions.addSpecialPermissions("Ledger", { userId: "m-ed", itemRead: "ALLOWED", itemInsert: "ALLOWED" });
    grantId = specialPermissions!._id!;
    expect(specialPermissions).toMatchObject({
      userId: "m-ed",
      itemRead: "ALLOWED",
      itemInsert: "ALLOWED",
      itemUpdate: "UNSPECIFIED",
      itemRemove: "UNSPECIFIED",
    });
    const ed = memberClient(platform, "m-ed").items;
    expect((await ed.insert("Ledger", { _id: "l2", text: "ed's" }))._owner).toBe("m-ed");
    expect(idsOf((await ed.query("Ledger").find()).items)).toEqual(["l1", "l2"]);
    expect(await codeOf(ed.remove("Ledger", "l2"))).toBe("WDE0027");
    expect(await codeOf(memberClient(platform, "m-ann").items.query("Ledger").find())).toBe("WDE0027");
  });

  it("getMyPermissions answers for the caller", async () => {
    const mine = (client: { permissions: { getMyPermissions: (id: string) => Promise<unknown> } }) => client.permissions.getMyPermissions("Ledger");
    expect(await mine(memberClient(platform, "m-ed"))).toEqual({ itemRead: true, itemInsert: true, itemUpdate: false, itemRemove: false });
    expect(await mine(memberClient(platform, "m-ann"))).toEqual({ itemRead: false, itemInsert: false, itemUpdate: false, itemRemove: false });
    expect(await mine(owner())).toEqual({ itemRead: true, itemInsert: true, itemUpdate: true, itemRemove: true });
    // Under SITE_MEMBER_AUTHOR a visitor reads their own items (writes need a member); a call without a token owns none.
    expect(await visitor().permissions.getMyPermissions("Notes")).toEqual({ itemRead: true, itemInsert: false, itemUpdate: false, itemRemove: false });
    expect((await raw("GET", "/wix-data/v1/permissions/current?dataCollectionId=Notes")).body).toEqual({
      itemRead: false,
      itemInsert: false,
      itemUpdate: false,
      itemRemove: false,
    });
    expect(await memberClient(platform, "m-ann").permissions.getMyPermissions("Notes")).toEqual({
      itemRead: true,
      itemInsert: true,
      itemUpdate: true,
      itemRemove: true,
    });
  });

  it("a grant lifts SITE_MEMBER_AUTHOR's owner scope for its actions only", async () => {
    await memberClient(platform, "m-ann").items.insert("Notes", { _id: "n-ann", text: "ann's" });
    await memberClient(platform, "m-bo").items.insert("Notes", { _id: "n-bo", text: "bo's" });
    await owner().permissions.addSpecialPermissions("Notes", { userId: "m-mod", itemRead: "ALLOWED", itemUpdate: "ALLOWED" });
    const mod = memberClient(platform, "m-mod").items;
    expect(idsOf((await mod.query("Notes").find()).items)).toEqual(["n-ann", "n-bo"]);
    expect((await mod.update("Notes", { _id: "n-bo", text: "moderated" })).text).toBe("moderated");
    expect(await codeOf(mod.remove("Notes", "n-bo"))).toBe("WDE0027");
    expect(idsOf((await memberClient(platform, "m-ann").items.query("Notes").find()).items)).toEqual(["n-ann"]);
  });

  it("getPermissions lists the sets; a second set for the same member is ALREADY_EXISTS", async () => {
    const { dataPermissions } = await owner().permissions.getPermissions("Ledger");
    expect(dataPermissions?.specialPermissions).toEqual([expect.objectContaining({ _id: grantId, userId: "m-ed" })]);
    const error = await failureOf(owner().permissions.addSpecialPermissions("Ledger", { userId: "m-ed", itemRemove: "ALLOWED" }));
    expect(error.details?.applicationError?.code).toBe("ALREADY_EXISTS");
  });

  it("updating a set to UNSPECIFIED takes the action back; removing it takes all back", async () => {
    const { specialPermissions } = await owner().permissions.updateSpecialPermissions(grantId, { itemRead: "ALLOWED", itemInsert: "UNSPECIFIED" });
    expect(specialPermissions).toMatchObject({ _id: grantId, userId: "m-ed", itemRead: "ALLOWED", itemInsert: "UNSPECIFIED" });
    const ed = memberClient(platform, "m-ed").items;
    expect(await codeOf(ed.insert("Ledger", { text: "again" }))).toBe("WDE0027");
    expect((await ed.query("Ledger").find()).items).toHaveLength(2);
    await owner().permissions.removeSpecialPermissions(grantId);
    expect(await codeOf(ed.query("Ledger").find())).toBe("WDE0027");
    expect((await owner().permissions.getPermissions("Ledger")).dataPermissions?.specialPermissions).toEqual([]);
    expect((await failureOf(owner().permissions.removeSpecialPermissions(grantId))).details?.applicationError?.code).toBe("NOT_FOUND");
    expect((await failureOf(owner().permissions.updateSpecialPermissions(grantId, { itemRead: "ALLOWED" }))).details?.applicationError?.code).toBe("NOT_FOUND");
  });

  it("deleting a collection deletes its sets", async () => {
    await createCollection(platform, "Scratch", [], { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
    await owner().permissions.addSpecialPermissions("Scratch", { userId: "m-ed", itemRead: "ALLOWED" });
    await platform.adminClient().collections.deleteDataCollection("Scratch");
    await createCollection(platform, "Scratch", [], { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
    expect((await owner().permissions.getPermissions("Scratch")).dataPermissions?.specialPermissions).toEqual([]);
  });
});

describe("the permissions API's refusals", () => {
  it("only the site owner reads or changes permissions (WDE0027, 403)", async () => {
    const member = memberClient(platform, "m-ann").permissions;
    expect(await codeOf(member.getPermissions("Ledger"))).toBe("WDE0027");
    expect(await codeOf(member.updatePermissions({ _id: "Ledger", ...levels("ANYONE", "ANYONE", "ANYONE", "ANYONE") }))).toBe("WDE0027");
    expect(await codeOf(member.addSpecialPermissions("Ledger", { userId: "m-ann", itemRead: "ALLOWED" }))).toBe("WDE0027");
    expect(await codeOf(visitor().permissions.getPermissions("Ledger"))).toBe("WDE0027");
    const anonymous = await raw("POST", "/wix-data/v1/permissions/special", {
      dataCollectionId: "Ledger",
      specialPermissions: { userId: "x", itemRead: "ALLOWED" },
    });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.details?.applicationError?.code).toBe("WDE0027");
  });

  it("an unknown collection is WDE0025", async () => {
    expect(await codeOf(owner().permissions.getPermissions("Nowhere"))).toBe("WDE0025");
    expect(await codeOf(visitor().permissions.getMyPermissions("Nowhere"))).toBe("WDE0025");
  });

  it("bad levels, a missing subject and role subjects are 400 WDE0075 over raw HTTP", async () => {
    const key = platform.config.apiKey;
    const badLevel = await raw(
      "POST",
      "/wix-data/v1/permissions",
      { dataPermissions: { id: "Ledger", itemRead: "ADMIN", itemInsert: "ANYONE", itemUpdate: "ANYONE", itemRemove: "ANYONE" } },
      key,
    );
    expect([badLevel.status, badLevel.body.details?.applicationError?.code]).toEqual([400, "WDE0075"]);
    const noSubject = await raw("POST", "/wix-data/v1/permissions/special", { dataCollectionId: "Ledger", specialPermissions: { itemRead: "ALLOWED" } }, key);
    expect([noSubject.status, noSubject.body.details?.applicationError?.code]).toEqual([400, "WDE0075"]);
    const role = await raw(
      "POST",
      "/wix-data/v1/permissions/special",
      { dataCollectionId: "Ledger", specialPermissions: { policyId: "p", itemRead: "ALLOWED" } },
      key,
    );
    expect(role.status).toBe(400);
    expect(String(role.body.message)).toContain("policyId is not supported");
    expect((await owner().permissions.getPermissions("Ledger")).dataPermissions?.specialPermissions).toEqual([]);
  });

  it("levels and grants hold for raw item calls too", async () => {
    const token = (memberId: string) => platform.ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: LOCAL_CLIENT_ID }).accessToken;
    const insert = (authorization?: string) =>
      raw("POST", "/wix-data/v2/items", { dataCollectionId: "Ledger", dataItem: { data: { text: "raw" } } }, authorization);
    const refused = await insert(token("m-ann"));
    expect([refused.status, refused.body.details?.applicationError?.code]).toEqual([403, "WDE0027"]);
    expect((await insert()).status).toBe(403);
    expect((await insert(platform.config.apiKey)).status).toBe(200);
    const { specialPermissions } = await owner().permissions.addSpecialPermissions("Ledger", { userId: "m-raw", itemInsert: "ALLOWED" });
    expect((await insert(token("m-raw"))).status).toBe(200);
    await owner().permissions.removeSpecialPermissions(specialPermissions!._id!);
    expect((await insert(token("m-raw"))).status).toBe(403);
  });

  it("a raw call without a token gets its own permissions", async () => {
    const mine = await raw("GET", "/wix-data/v1/permissions/current?dataCollectionId=Drafts");
    expect([mine.status, mine.body]).toEqual([200, { itemRead: true, itemInsert: false, itemUpdate: false, itemRemove: false }]);
  });
});
