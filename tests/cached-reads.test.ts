import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workAsyncStorage, type WorkStore } from "next/dist/server/app-render/work-async-storage.external";
import type { IncrementalCache } from "next/dist/server/lib/incremental-cache";
import { TagChanges } from "@/lib/cache/tag-changes";
import { collectionByRoute } from "@/lib/site-config";
import { revalidateCollections } from "@/lib/wix/cache";
import { firstItems } from "@/lib/wix/collections";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

describe("TagChanges (pure)", () => {
  it("returns a read that overlapped no change of its tags at once", async () => {
    const changes = new TagChanges();
    let runs = 0;
    changes.changed(["a"]);
    expect(await changes.readUnchanged(["a", "b"], async () => ++runs)).toBe(1);
  });

  it("reads again when one of its tags changed during the read, not for other tags", async () => {
    const changes = new TagChanges();
    let runs = 0;
    const read = (changedTag: string) => async () => {
      runs++;
      if (runs === 1) changes.changed([changedTag]);
      return runs;
    };
    expect(await changes.readUnchanged(["a"], read("other"))).toBe(1);
    runs = 0;
    expect(await changes.readUnchanged(["a", "b"], read("b"))).toBe(2);
  });

  it("gives up after its attempts with the last answer when the data keeps changing", async () => {
    const changes = new TagChanges();
    let runs = 0;
    const answer = await changes.readUnchanged(["a"], async () => {
      changes.changed(["a"]);
      return ++runs;
    });
    expect(answer).toBe(3);
    expect(runs).toBe(3);
  });
});

/** Revalidates as a route handler does: Next.js collects the tags during the handler, then applies them. */
async function revalidateAsRouteHandler(collectionIds: string[]) {
  const incrementalCache = (globalThis as { __incrementalCache?: IncrementalCache }).__incrementalCache!;
  const store = { route: "/api/revalidate", incrementalCache } as WorkStore;
  workAsyncStorage.run(store, () => revalidateCollections(collectionIds));
  await incrementalCache.revalidateTag(store.pendingRevalidatedTags ?? []);
}

/**
 * Holds the platform's answer to the next data query until released: the query has run on the
 * platform (`answered`), but the site has not seen the reply yet, as on a slow network.
 */
function holdNextQuery() {
  const routed = globalThis.fetch;
  let answered!: () => void;
  let release!: () => void;
  const hold = { answered: new Promise<void>((resolve) => (answered = resolve)), release: () => release() };
  const released = new Promise<void>((resolve) => (release = resolve));
  globalThis.fetch = async (input, init) => {
    if (!String(input instanceof Request ? input.url : input).includes("/wix-data/v2/items/query")) return routed(input, init);
    globalThis.fetch = routed;
    const response = await routed(input, init);
    answered();
    await released;
    return response;
  };
  return hold;
}

describe("cached reads across a change", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("a read that began before a change and ends after its revalidation is neither returned nor kept with the old data", async () => {
    const trails = collectionByRoute("trails")!;
    const titles = (items: { title: string }[]) => items.map((item) => item.title);
    const hold = holdNextQuery();
    const reading = firstItems(trails, 100);
    await hold.answered;

    // The change lands and is revalidated while the old answer is still on its way.
    await platform.adminClient().items.insert(trails.collectionId, { title: "Ridge of the late read", slug: "ridge-of-the-late-read" });
    await revalidateAsRouteHandler([trails.collectionId]);
    hold.release();

    expect(titles(await reading)).toContain("Ridge of the late read");
    // What the cache kept is the new data too: the next read is answered from it, with no platform call.
    const calls = async () => Object.values((await platform.stats()).requests).reduce((sum, count) => sum + count, 0);
    const before = await calls();
    expect(titles(await firstItems(trails, 100))).toContain("Ridge of the late read");
    expect(await calls()).toBe(before);
  });
});
