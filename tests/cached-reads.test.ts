import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { workAsyncStorage, type WorkStore } from "next/dist/server/app-render/work-async-storage.external";
import type { IncrementalCache } from "next/dist/server/lib/incremental-cache";
import { TagChanges } from "@/lib/cache/tag-changes";
import { collectionByRoute } from "@/lib/site-config";
import { announceRemoteRevalidation, type RemoteRevalidation } from "@/lib/cache/page-cache-signals";
import { TAGS, revalidateCollections } from "@/lib/wix/cache";
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

  it("reads again after a change of unknown tags, whatever the read's tags", async () => {
    const changes = new TagChanges();
    let runs = 0;
    const answer = await changes.readUnchanged(["a"], async () => {
      if (++runs === 1) changes.changedEverything();
      return runs;
    });
    expect(answer).toBe(2);
  });
});

const incrementalCache = () => (globalThis as { __incrementalCache?: IncrementalCache }).__incrementalCache!;

/** Revalidates as a route handler does: Next.js collects the tags during the handler, then applies them. */
async function revalidateAsRouteHandler(collectionIds: string[]) {
  const store = { route: "/api/webhooks/wix", incrementalCache: incrementalCache() } as WorkStore;
  workAsyncStorage.run(store, () => revalidateCollections(collectionIds));
  for (const { tag, profile } of store.pendingRevalidatedTags ?? [])
    await incrementalCache().revalidateTag([tag], typeof profile === "object" ? { expire: profile.expire } : undefined);
}

/**
 * Revalidates as another instance does: its webhook drops the tag from the cache the instances
 * share, and the page cache passes the news on from Redis.
 */
async function revalidateOnAnotherInstance(change: RemoteRevalidation) {
  await incrementalCache().revalidateTag(change.tags);
  announceRemoteRevalidation(change);
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

  const trails = collectionByRoute("trails")!;
  const titles = (items: { title: string }[]) => items.map((item) => item.title);
  const calls = async () => Object.values((await platform.stats()).requests).reduce((sum, count) => sum + count, 0);

  /**
   * Adds a trail and revalidates it while a read's old answer is still on its way; what the read
   * gives, and what the cache kept. Each case reads a list of its own length, so its read starts
   * from a cold cache.
   */
  async function changeDuringRead(title: string, revalidate: () => Promise<void>, count: number) {
    const hold = holdNextQuery();
    const reading = firstItems(trails, count);
    await hold.answered;
    await platform.adminClient().items.insert(trails.collectionId, { title, slug: title.toLowerCase().replace(/ /g, "-") });
    await revalidate();
    hold.release();
    const read = titles(await reading);
    const before = await calls();
    const cached = titles(await firstItems(trails, count));
    return { read, cached, platformCalls: (await calls()) - before };
  }

  it("a read that began before a change and ends after its revalidation is neither returned nor kept with the old data", async () => {
    const outcome = await changeDuringRead("Ridge of the late read", () => revalidateAsRouteHandler([trails.collectionId]), 100);
    expect(outcome.read).toContain("Ridge of the late read");
    // What the cache kept is the new data too: the next read is answered from it, with no platform call.
    expect(outcome).toMatchObject({ cached: expect.arrayContaining(["Ridge of the late read"]), platformCalls: 0 });
  });

  it("keeps a list as pages show it, reshaped, so a view answered from the cache reshapes nothing", async () => {
    const kept = vi.spyOn(incrementalCache(), "set");
    try {
      const items = await firstItems(trails, 7);
      // What unstable_cache stores: a FETCH entry whose body is the read's answer as JSON.
      const bodies = kept.mock.calls.flatMap(([, entry]) => {
        const stored = entry as { kind?: string; data?: { body?: string } } | null;
        return stored?.kind === "FETCH" && stored.data?.body ? [JSON.parse(stored.data.body)] : [];
      });
      expect(bodies).toEqual([{ items, total: expect.any(Number) }]);
      expect(items[0]).toMatchObject({ href: expect.stringMatching(/^\/trails\//), fields: expect.any(Object) });
    } finally {
      kept.mockRestore();
    }
  });

  it("so is one overlapping a revalidation made on another instance, of its tags or of unknown ones", async () => {
    const tags = [TAGS.collection(trails.collectionId)];
    for (const [title, everything, count] of [
      ["Ridge of the other instance", false, 99],
      ["Ridge of the lost connection", true, 98],
    ] as const) {
      const outcome = await changeDuringRead(title, () => revalidateOnAnotherInstance({ tags: everything ? [] : tags, everything }), count);
      expect(outcome.read).toContain(title);
      expect(outcome).toMatchObject({ cached: expect.arrayContaining([title]), platformCalls: 0 });
    }
  });

  it("a read under way is still shared after another instance announces a change to a member's sessions, which is no data", async () => {
    const queries = async () => (await platform.stats()).requests["GET /wix-data/v2/items/query"] ?? 0;
    let before = await queries();
    await firstItems(trails, 95);
    const oneRead = (await queries()) - before;
    before = await queries();
    const hold = holdNextQuery();
    const first = firstItems(trails, 96);
    await hold.answered;
    announceRemoteRevalidation({ tags: ["member-sessions:someone"], everything: false });
    const second = firstItems(trails, 96);
    // Time for it to look in the cache (a miss) and join the read under way, or start its own.
    await new Promise((resolve) => setTimeout(resolve, 200));
    hold.release();
    expect(await second).toEqual(await first);
    expect((await queries()) - before).toBe(oneRead);
  });
});
