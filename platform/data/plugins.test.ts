import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { codeOf, createCollection, memberClient, untypedCollectionCalls as calls } from "./test-support";

/** The Urlized, Multilingual and CMS plugins and the generic plugin calls, through the real `@wix/data` `collections` module. */

let platform: TestPlatform;
const admin = () => platform.adminClient();
const permissions = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;
const pluginsOf = async (id: string) => (await admin().collections.getDataCollection(id)).plugins;

beforeAll(async () => {
  platform = await startTestPlatform();
  await createCollection(
    platform,
    "Recipes",
    [
      { key: "title", type: "TEXT" },
      { key: "body", type: "RICH_TEXT" },
    ],
    permissions,
  );
});
afterAll(() => platform.close());

describe("collection plugins kept as settings", () => {
  it("adds each plugin with its options, replaces them on a second add, and keeps the others", async () => {
    await calls(admin()).addUrlizedPlugin("Recipes", { urlizedOptions: { format: "PLAIN" } });
    await calls(admin()).addMultilingualPlugin("Recipes", { multilingualOptions: { translatableFieldKeys: ["title", "body"] } });
    await calls(admin()).addCmsPlugin("Recipes", { cmsOptions: { siteSort: { sort: [{ fieldKey: "title", direction: "ASC" }] } } });
    const { dataCollection } = await calls(admin()).addUrlizedPlugin("Recipes", { urlizedOptions: { format: "ORIGINAL" } });
    const expected = [
      { type: "MULTILINGUAL", multilingualOptions: { translatableFieldKeys: ["title", "body"] } },
      { type: "CMS", cmsOptions: { siteSort: { sort: [{ fieldKey: "title", direction: "ASC" }] } } },
      { type: "URLIZED", urlizedOptions: { format: "ORIGINAL" } },
    ];
    expect(dataCollection?.plugins).toEqual(expected);
    expect(await pluginsOf("Recipes")).toEqual(expected);
  });

  it("keeps them through an update of the collection, and removes each by its own call", async () => {
    await admin().collections.patchDataCollection("Recipes", { displayName: "All recipes" } as never);
    expect((await pluginsOf("Recipes"))?.map((plugin) => plugin.type)).toEqual(["MULTILINGUAL", "CMS", "URLIZED"]);
    await calls(admin()).deleteMultilingualPlugin("Recipes");
    await calls(admin()).deleteCmsPlugin("Recipes");
    expect((await pluginsOf("Recipes"))?.map((plugin) => plugin.type)).toEqual(["URLIZED"]);
    await calls(admin()).deleteUrlizedPlugin("Recipes");
    expect(await pluginsOf("Recipes")).toEqual([]);
  });

  it("adds and removes through the generic calls, which refuse a type the collection has", async () => {
    const { dataCollection } = await admin().collections.addDataCollectionPlugin("Recipes", {
      plugin: { type: "URLIZED", urlizedOptions: { format: "PLAIN" } },
    });
    expect(dataCollection?.plugins).toEqual([{ type: "URLIZED", urlizedOptions: { format: "PLAIN" } }]);
    expect(await codeOf(admin().collections.addDataCollectionPlugin("Recipes", { plugin: { type: "URLIZED" } }))).toBe("WDE0075");
    await admin().collections.deleteDataCollectionPlugin("Recipes", { pluginType: "URLIZED" });
    expect(await pluginsOf("Recipes")).toEqual([]);
  });

  it("refuses a plugin it would store without acting on, a bad option, and a caller without the admin key", async () => {
    expect(
      await codeOf(admin().collections.addDataCollectionPlugin("Recipes", { plugin: { type: "SINGLE_ITEM", singleItemOptions: { singleItemId: "x" } } })),
    ).toBe("WDE0075");
    expect(await codeOf(calls(admin()).addUrlizedPlugin("Recipes", { urlizedOptions: { format: "FANCY" } }))).toBe("WDE0075");
    const member = memberClient(platform, platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id);
    expect(await codeOf(calls(member).addCmsPlugin("Recipes", { cmsOptions: {} }))).toBe("WDE0027");
    expect(await codeOf(calls(admin()).addCmsPlugin("Nowhere", { cmsOptions: {} }))).toBe("WDE0025");
  });
});
