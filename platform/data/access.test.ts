import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection, failureOf, idsOf, memberClient } from "./test-support";

/** Permissions, references and collections through the real `@wix/data` clients. */

let platform: TestPlatform;
const admin = () => platform.adminClient();

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(platform, "Diary", [{ key: "text", type: "TEXT" }], {
    read: "SITE_MEMBER_AUTHOR",
    insert: "SITE_MEMBER",
    update: "SITE_MEMBER_AUTHOR",
    remove: "SITE_MEMBER_AUTHOR",
  });
  await createCollection(platform, "Secrets", [{ key: "text", type: "TEXT" }], { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
  await createCollection(platform, "Board", [{ key: "text", type: "TEXT" }], { read: "SITE_MEMBER", insert: "ANYONE", update: "SITE_MEMBER", remove: "ADMIN" });
});
afterAll(() => platform.close());

describe("permissions", () => {
  it("SITE_MEMBER_AUTHOR: insert stamps the member as _owner", async () => {
    const item = await memberClient(platform, "m-alice").items.insert("Diary", { _id: "alice-1", text: "mine" });
    expect(item._owner).toBe("m-alice");
  });

  it("SITE_MEMBER_AUTHOR: a member reads only their own items", async () => {
    await memberClient(platform, "m-bob").items.insert("Diary", { _id: "bob-1", text: "bob's" });
    expect(idsOf((await memberClient(platform, "m-alice").items.query("Diary").find()).items)).toEqual(["alice-1"]);
    expect(idsOf((await memberClient(platform, "m-bob").items.query("Diary").find()).items)).toEqual(["bob-1"]);
    expect(await memberClient(platform, "m-alice").items.get("Diary", "bob-1")).toBeNull();
    expect(await memberClient(platform, "m-alice").items.query("Diary").count()).toBe(1);
  });

  it("SITE_MEMBER_AUTHOR: a visitor reads nothing, the admin everything", async () => {
    expect((await platform.visitorClient().items.query("Diary").find()).items).toHaveLength(0);
    expect(idsOf((await admin().items.query("Diary").find()).items)).toEqual(["alice-1", "bob-1"]);
  });

  it("SITE_MEMBER_AUTHOR: updating or removing another member's item is WDE0027", async () => {
    const alice = memberClient(platform, "m-alice").items;
    expect(await codeOf(alice.update("Diary", { _id: "bob-1", text: "hacked" }))).toBe("WDE0027");
    expect(await codeOf(alice.remove("Diary", "bob-1"))).toBe("WDE0027");
    expect(await codeOf(alice.patch("Diary", "bob-1").setField("text", "x").run())).toBe("WDE0027");
    expect((await admin().items.get("Diary", "bob-1"))?.text).toBe("bob's");
  });

  it("SITE_MEMBER_AUTHOR: the owner may update and remove their item", async () => {
    const alice = memberClient(platform, "m-alice").items;
    expect((await alice.update("Diary", { _id: "alice-1", text: "edited" })).text).toBe("edited");
    expect((await alice.update("Diary", { _id: "alice-1", text: "edited" }))._owner).toBe("m-alice");
    await alice.insert("Diary", { _id: "alice-2" });
    expect(await alice.remove("Diary", "alice-2")).toMatchObject({ _id: "alice-2" });
  });

  it("SITE_MEMBER_AUTHOR: bulkRemove skips other members' items", async () => {
    const result = await memberClient(platform, "m-alice").items.bulkRemove("Diary", ["bob-1"]);
    expect(result.removed).toBe(0);
    expect(result.skipped).toBe(1);
    expect(await admin().items.get("Diary", "bob-1")).not.toBeNull();
  });

  it("a visitor cannot insert into a SITE_MEMBER collection (WDE0027, 403)", async () => {
    const error = await failureOf(platform.visitorClient().items.insert("Diary", { text: "x" }));
    expect(error.details?.applicationError?.code).toBe("WDE0027");
    expect(error.message).toBe("WDE0027: The current user does not have permissions to insert on the Diary collection.");
  });

  it("ADMIN collections refuse visitors and members, and serve the API key", async () => {
    expect(await codeOf(platform.visitorClient().items.query("Secrets").find())).toBe("WDE0027");
    expect(await codeOf(memberClient(platform, "m-alice").items.insert("Secrets", { text: "x" }))).toBe("WDE0027");
    await admin().items.insert("Secrets", { _id: "s1", text: "hidden" });
    expect((await admin().items.get("Secrets", "s1"))?.text).toBe("hidden");
  });

  it("SITE_MEMBER read refuses visitors and serves members; ANYONE insert stamps the visitor", async () => {
    const visitorItem = await platform.visitorClient().items.insert("Board", { text: "hello" });
    expect(typeof visitorItem._owner).toBe("string");
    expect(await codeOf(platform.visitorClient().items.query("Board").find())).toBe("WDE0027");
    expect((await memberClient(platform, "m-carol").items.query("Board").find()).items).toHaveLength(1);
    expect(await codeOf(memberClient(platform, "m-carol").items.remove("Board", visitorItem._id as string))).toBe("WDE0027");
  });

  it("truncate needs the admin key", async () => {
    expect(await codeOf(memberClient(platform, "m-alice").items.truncate("Board"))).toBe("WDE0027");
  });

  it("the same rules apply to raw REST calls without a token", async () => {
    const response = await fetch("https://www.wixapis.com/wix-data/v2/items", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dataCollectionId: "Secrets", dataItem: { data: { text: "x" } } }),
    });
    expect(response.status).toBe(403);
  });
});

describe("references", () => {
  beforeAll(async () => {
    await createCollection(platform, "Authors", [{ key: "name", type: "TEXT" }], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
    await createCollection(
      platform,
      "Books",
      [
        { key: "title", type: "TEXT" },
        { key: "author", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Authors" } } },
        { key: "coAuthors", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Authors" } } },
      ],
      { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
    );
    await admin().items.bulkInsert("Authors", [
      { _id: "ann", name: "Ann" },
      { _id: "ben", name: "Ben" },
      { _id: "cy", name: "Cy" },
    ]);
    await admin().items.insert("Books", { _id: "book1", title: "One", author: "ann" });
    // A reference given as the whole referenced item is stored as its id.
    await admin().items.insert("Books", { _id: "book2", title: "Two", author: { _id: "ben", name: "Ben" } });
  });

  it("stores REFERENCE values as ids and filters on them", async () => {
    expect((await admin().items.get("Books", "book2"))?.author).toBe("ben");
    expect(idsOf((await platform.visitorClient().items.query("Books").eq("author", "ann").find()).items)).toEqual(["book1"]);
  });

  it("includes single references in queries and get", async () => {
    const result = await platform.visitorClient().items.query("Books").include("author").ascending("_id").find();
    expect(result.items.map((book) => (book.author as { name: string }).name)).toEqual(["Ann", "Ben"]);
    const single = await platform.visitorClient().items.get("Books", "book1", { includeReferences: [{ field: "author" }] } as never);
    expect((single?.author as { name: string }).name).toBe("Ann");
  });

  it("insertReference, isReferenced and queryReferenced in link order", async () => {
    await admin().items.insertReference("Books", "coAuthors", "book1", ["cy", "ann"]);
    expect(await admin().items.isReferenced("Books", "coAuthors", "book1", "cy")).toBe(true);
    expect(await admin().items.isReferenced("Books", "coAuthors", "book1", "ben")).toBe(false);
    const referenced = await platform.visitorClient().items.queryReferenced("Books", "book1", "coAuthors");
    expect(referenced.items.map((a) => a._id)).toEqual(["cy", "ann"]);
    const descending = await platform.visitorClient().items.queryReferenced("Books", "book1", "coAuthors", { order: "desc" } as never);
    expect(descending.items.map((a) => a._id)).toEqual(["ann", "cy"]);
  });

  it("includes multi-references as arrays of items", async () => {
    const result = await platform.visitorClient().items.query("Books").eq("_id", "book1").include("coAuthors").find();
    expect((result.items[0].coAuthors as { _id: string }[]).map((a) => a._id)).toEqual(["cy", "ann"]);
    const plain = await platform.visitorClient().items.query("Books").eq("_id", "book1").find();
    expect(plain.items[0].coAuthors).toBeUndefined();
  });

  it("queryReferencedItems answers each linked item with the item that links it", async () => {
    const { results } = await platform.visitorClient().items.queryReferencedItems("Books", "book1", "coAuthors");
    expect(results.map((result) => [result.referringItemId, result.item?._id])).toEqual([
      ["book1", "cy"],
      ["book1", "ann"],
    ]);
  });

  it("removeReference and replaceReferences", async () => {
    await admin().items.removeReference("Books", "coAuthors", "book1", "cy");
    expect(await admin().items.isReferenced("Books", "coAuthors", "book1", "cy")).toBe(false);
    await admin().items.replaceReferences("Books", "coAuthors", "book1", ["ben", "cy"]);
    expect((await platform.visitorClient().items.queryReferenced("Books", "book1", "coAuthors")).items.map((a) => a._id)).toEqual(["ben", "cy"]);
  });

  it("filters on multi-reference fields by referenced ids", async () => {
    const query = () => platform.visitorClient().items.query("Books");
    expect(idsOf((await query().hasSome("coAuthors", ["cy", "nobody"]).find()).items)).toEqual(["book1"]);
    expect(idsOf((await query().hasAll("coAuthors", ["ben", "cy"]).find()).items)).toEqual(["book1"]);
    expect(idsOf((await query().hasAll("coAuthors", ["ben", "ann"]).find()).items)).toEqual([]);
    expect(idsOf((await query().eq("coAuthors", "ben").find()).items)).toEqual(["book1"]);
    expect(idsOf((await query().isEmpty("coAuthors").find()).items)).toEqual(["book2"]);
    expect(idsOf((await query().isNotEmpty("coAuthors").find()).items)).toEqual(["book1"]);
  });

  it("queryReferenced pages 50 at a time by default", async () => {
    await admin().items.bulkInsert(
      "Authors",
      Array.from({ length: 60 }, (_, i) => ({ _id: `many${i}` })),
    );
    await admin().items.insert("Books", { _id: "anthology" });
    await admin().items.insertReference(
      "Books",
      "coAuthors",
      "anthology",
      Array.from({ length: 60 }, (_, i) => `many${i}`),
    );
    const first = await platform.visitorClient().items.queryReferenced("Books", "anthology", "coAuthors");
    expect(first.items).toHaveLength(50);
    expect(first.hasNext()).toBe(true);
    expect((await first.next()).items.map((a) => a._id)).toEqual(Array.from({ length: 10 }, (_, i) => `many${50 + i}`));
  });

  it("saveReferences sets multi-references on insert; without it they are dropped", async () => {
    await admin().items.insert("Books", { _id: "book3", coAuthors: ["ann", "ben"] }, { saveReferences: true } as never);
    expect((await platform.visitorClient().items.queryReferenced("Books", "book3", "coAuthors")).items.map((a) => a._id)).toEqual(["ann", "ben"]);
    const dropped = await admin().items.insert("Books", { _id: "book4", coAuthors: ["ann"] });
    expect(dropped.coAuthors).toBeUndefined();
    expect(await admin().items.isReferenced("Books", "coAuthors", "book4", "ann")).toBe(false);
  });

  it("removing an item clears references to it", async () => {
    await admin().items.remove("Authors", "ann");
    expect(await admin().items.isReferenced("Books", "coAuthors", "book3", "ann")).toBe(false);
    expect((await admin().items.get("Books", "book1"))?.author).toBeUndefined();
    expect((await platform.visitorClient().items.queryReferenced("Books", "book3", "coAuthors")).items.map((a) => a._id)).toEqual(["ben"]);
  });

  it("reference calls on a field that is not multi-reference fail with WDE0020", async () => {
    expect(await codeOf(admin().items.insertReference("Books", "title", "book1", "ben"))).toBe("WDE0020");
  });

  it("inserting a link that exists fails with WDE0029 and inserts nothing of the call", async () => {
    await admin().items.insert("Authors", { _id: "dee", name: "Dee" });
    const failure = await codeOf(admin().items.insertReference("Books", "coAuthors", "book1", ["dee", "cy"]));
    expect(failure).toBe("WDE0029");
    expect(await admin().items.isReferenced("Books", "coAuthors", "book1", "dee")).toBe(false);
    const response = await fetch("https://www.wixapis.com/wix-data/v2/bulk/items/insert-references", {
      method: "POST",
      headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
      body: JSON.stringify({
        dataCollectionId: "Books",
        dataItemReferences: [{ referringItemFieldName: "coAuthors", referringItemId: "book1", referencedItemId: "cy" }],
      }),
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toBe("Reference Books.coAuthors from book1 to cy already exists.");
  });

  it("inserting a reference to a missing item fails with WDE0073", async () => {
    expect(await codeOf(admin().items.insertReference("Books", "coAuthors", "book1", "nobody"))).toBe("WDE0073");
  });

  it("the links of a member's private item are read and changed under that item's permissions", async () => {
    await createCollection(
      platform,
      "Shortlists",
      [{ key: "picks", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Authors" } } }],
      { read: "SITE_MEMBER_AUTHOR", insert: "SITE_MEMBER", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" },
    );
    const alice = memberClient(platform, "m-alice").items;
    const bob = memberClient(platform, "m-bob").items;
    await alice.insert("Shortlists", { _id: "alice-picks" });
    await alice.insertReference("Shortlists", "picks", "alice-picks", ["ben", "cy"]);
    await bob.insert("Shortlists", { _id: "bob-picks" });
    await bob.insertReference("Shortlists", "picks", "bob-picks", ["cy"]);

    expect(await alice.isReferenced("Shortlists", "picks", "alice-picks", "ben")).toBe(true);
    expect((await alice.queryReferenced("Shortlists", "alice-picks", "picks")).items.map((a) => a._id)).toEqual(["ben", "cy"]);
    expect(await admin().items.isReferenced("Shortlists", "picks", "alice-picks", "ben")).toBe(true);
    // Bob and a visitor know the id, but not what the item links to: as if it were missing.
    for (const other of [bob, platform.visitorClient().items]) {
      expect(await other.isReferenced("Shortlists", "picks", "alice-picks", "ben")).toBe(false);
      const referenced = await other.queryReferenced("Shortlists", "alice-picks", "picks", { returnTotalCount: true } as never);
      expect(referenced.items).toEqual([]);
      expect(referenced.totalCount).toBe(0);
    }
    // Asking for several items at once (REST only) shows only the links of those the caller may read.
    const both = await fetch("https://www.wixapis.com/wix-data/v2/items/query-referenced", {
      method: "POST",
      headers: {
        authorization: platform.ctx.tokens.issuePair({ role: "member", subjectId: "m-bob", clientId: LOCAL_CLIENT_ID }).accessToken,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        dataCollectionId: "Shortlists",
        referringItemFieldName: "picks",
        referringItemIds: ["alice-picks", "bob-picks"],
        returnTotalCount: true,
      }),
    });
    const answer = (await both.json()) as { results: { referringItemId: string; dataItem?: { id: string } }[]; pagingMetadata: { total?: number } };
    expect(answer.results.map((result) => [result.referringItemId, result.dataItem?.id])).toEqual([["bob-picks", "cy"]]);
    expect(answer.pagingMetadata.total).toBe(1);

    expect(await codeOf(bob.insertReference("Shortlists", "picks", "alice-picks", "dee"))).toBe("WDE0027");
    expect(await codeOf(bob.removeReference("Shortlists", "picks", "alice-picks", "ben"))).toBe("WDE0027");
    expect(await codeOf(bob.replaceReferences("Shortlists", "picks", "alice-picks", ["dee"]))).toBe("WDE0027");
    expect((await alice.queryReferenced("Shortlists", "alice-picks", "picks")).items.map((a) => a._id)).toEqual(["ben", "cy"]);
  });
});

describe("collections", () => {
  it("creates a collection with fields, system fields appended, and REST names the SDK renames", async () => {
    const created = await createCollection(
      platform,
      "Gear",
      [
        { key: "name", type: "TEXT" },
        { key: "weight", type: "NUMBER" },
      ],
      {
        read: "ANYONE",
        insert: "SITE_MEMBER",
        update: "SITE_MEMBER_AUTHOR",
        remove: "ADMIN",
      },
    );
    expect(created._id).toBe("Gear");
    expect(created._createdDate).toBeInstanceOf(Date);
    expect(created.fields?.map((f) => [f.key, f.type, f.systemField])).toEqual([
      ["name", "TEXT", false],
      ["weight", "NUMBER", false],
      ["_id", "TEXT", true],
      ["_createdDate", "DATETIME", true],
      ["_updatedDate", "DATETIME", true],
      ["_owner", "TEXT", true],
    ]);
    expect(created.permissions).toEqual({ read: "ANYONE", insert: "SITE_MEMBER", update: "SITE_MEMBER_AUTHOR", remove: "ADMIN" });
    expect(created.revision).toBe("1");
  });

  it("gets and lists collections", async () => {
    expect((await admin().collections.getDataCollection("Gear")).displayName).toBe("Gear");
    const list = await admin().collections.listDataCollections();
    expect((list.collections ?? []).map((c) => c._id)).toEqual(expect.arrayContaining(["Gear", "Diary", "Books"]));
  });

  it("creating an existing collection fails with WDE0104", async () => {
    const error = await failureOf(createCollection(platform, "Gear", [], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" }));
    expect(error.details?.applicationError?.code).toBe("WDE0104");
  });

  it("rejects an unknown field type with a 400", async () => {
    const error = await failureOf(
      createCollection(platform, "Bad", [{ key: "x", type: "FLOATY" }], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" }),
    );
    expect(error.status).toBe(400);
  });

  it("updates with the current revision, and refuses a stale one", async () => {
    const current = await admin().collections.getDataCollection("Gear");
    const updated = await admin().collections.updateDataCollection({
      _id: "Gear",
      revision: current.revision,
      fields: [{ key: "name", type: "TEXT" }] as never,
      permissions: { read: "SITE_MEMBER", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as never,
    } as never);
    expect(updated.revision).toBe("2");
    expect(updated.permissions?.read).toBe("SITE_MEMBER");
    expect(await codeOf(platform.visitorClient().items.query("Gear").find())).toBe("WDE0027");
    const stale = await failureOf(
      admin().collections.updateDataCollection({ _id: "Gear", revision: "1", fields: [] as never, permissions: current.permissions } as never),
    );
    expect(stale.status).toBe(409);
  });

  it("only the admin key may create collections", async () => {
    const error = await failureOf(
      memberClient(platform, "m-alice").collections.createDataCollection({
        _id: "Mine",
        fields: [],
        permissions: { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
      } as never),
    );
    expect(error.status).toBe(403);
  });

  it("deletes a collection and its items", async () => {
    await admin().items.insert("Gear", { name: "tent" });
    await admin().collections.deleteDataCollection("Gear");
    expect(await codeOf(admin().items.query("Gear").find())).toBe("WDE0025");
    const error = await failureOf(admin().collections.getDataCollection("Gear"));
    expect(error.status).toBe(404);
  });
});
