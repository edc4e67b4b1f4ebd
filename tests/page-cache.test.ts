import pino from "pino";
import { describe, expect, it } from "vitest";
import { onRemoteRevalidation, type RemoteRevalidation } from "@/lib/cache/page-cache-signals";
import { createPageCacheServer } from "@/server/page-cache/http";
import type { RenderedPage } from "@/server/page-cache/page";
import { PageCache, type PageCacheOptions, type RenderOutcome, type SharedPages } from "@/server/page-cache/page-cache";
import { createRedisPages, decodePage, encodePage } from "@/server/page-cache/redis-pages";
import type { PageTarget } from "@/server/page-cache/request-key";
import { useRedisServer } from "./support/redis-server";

const target = (key: string): PageTarget => ({ key, kind: "document", url: `/${key}`, headers: {} });

function page(key: string, text: string, tags = ["wix:collection:Trails"]): RenderedPage {
  const body = Buffer.from(text);
  return {
    key,
    kind: "document",
    url: `/${key}`,
    status: 200,
    headers: { "content-type": "text/html" },
    body,
    gzip: body,
    br: body,
    etag: `W/"${text}"`,
    tags,
  };
}

/** A render that answers what the test says, counts its calls, and can be held until released. */
function controlledRender() {
  const calls: string[] = [];
  let answer: (key: string, call: number) => RenderOutcome | Promise<RenderOutcome> = (key, call) => ({ page: page(key, `${key} #${call}`), storable: true });
  let gate: Promise<void> | null = null;
  let open = () => {};
  return {
    calls,
    answer: (next: typeof answer) => (answer = next),
    hold: () => (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => open(),
    render: async (t: PageTarget) => {
      calls.push(t.key);
      const call = calls.length;
      if (gate) await gate;
      return answer(t.key, call);
    },
  };
}

function cacheWith(render: PageCacheOptions["render"], clock = { now: 0 }, extra: Partial<PageCacheOptions> = {}) {
  return new PageCache({ maxBytes: 1_000_000, freshMs: 60_000, staleMs: 600_000, render, now: () => clock.now, ...extra });
}

const textOf = async (cache: PageCache, key: string) => {
  const found = await cache.lookup(target(key));
  return "pass" in found ? "pass" : `${found.state} ${found.page.body.toString()}`;
};

describe("the page cache", () => {
  it("renders a missing page once however many requests wait for it, then serves it from memory", async () => {
    const renders = controlledRender();
    const cache = cacheWith(renders.render);
    renders.hold();
    const waiting = Array.from({ length: 50 }, () => textOf(cache, "trails"));
    renders.release();
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(["MISS trails #1"]));
    expect(await textOf(cache, "trails")).toBe("HIT trails #1");
    expect(renders.calls).toEqual(["trails"]);
  });

  it("serves a stale page at once while one request refreshes it in the background", async () => {
    const renders = controlledRender();
    const clock = { now: 0 };
    const cache = cacheWith(renders.render, clock);
    await textOf(cache, "home");
    clock.now = 61_000;
    renders.hold();
    expect(await textOf(cache, "home")).toBe("STALE home #1");
    expect(await textOf(cache, "home")).toBe("STALE home #1");
    renders.release();
    await cache.settled();
    expect(renders.calls).toEqual(["home", "home"]);
    expect(await textOf(cache, "home")).toBe("HIT home #2");
  });

  it("keeps the good page when a refresh fails, is degraded or sets a cookie", async () => {
    const renders = controlledRender();
    const clock = { now: 0 };
    const cache = cacheWith(renders.render, clock);
    await textOf(cache, "item");
    for (const failure of [() => Promise.reject(new Error("down")), () => null, () => ({ page: page("item", "Platform unavailable"), storable: false })]) {
      clock.now += 61_000;
      renders.answer(failure);
      expect(await textOf(cache, "item")).toBe("STALE item #1");
      await cache.settled();
    }
    expect(await textOf(cache, "item")).toMatch(/^STALE item #1/);
  });

  it("answers the waiting requests with a page it does not keep, and renders again next time", async () => {
    const renders = controlledRender();
    renders.answer((key) => ({ page: { ...page(key, "not found"), status: 404 }, storable: false }));
    const cache = cacheWith(renders.render);
    const found = await cache.lookup(target("trails/nope"));
    expect(found).toMatchObject({ state: "MISS", stored: false });
    await cache.lookup(target("trails/nope"));
    expect(renders.calls).toHaveLength(2);
    renders.answer(() => null);
    expect(await cache.lookup(target("trails/nope"))).toEqual({ pass: true });
  });

  it.each([404, 410])("drops a page whose refresh renders %i: the next visitor gets the page as it is now, not the old one", async (status) => {
    const renders = controlledRender();
    const clock = { now: 0 };
    const cache = cacheWith(renders.render, clock);
    await textOf(cache, "trails/summit-loop");
    clock.now = 61_000;
    renders.answer((key, call) => ({ page: { ...page(key, `gone #${call}`), status }, storable: false }));
    // The one request that finds it past its fresh window still gets it, as with any refresh.
    expect(await textOf(cache, "trails/summit-loop")).toBe("STALE trails/summit-loop #1");
    await cache.settled();
    expect(cache.size.pages).toBe(0);
    expect(await textOf(cache, "trails/summit-loop")).toBe("MISS gone #3");
  });

  it("serves a member template only as kept: one it cannot keep goes to nobody, and is not rendered again for a while", async () => {
    const renders = controlledRender();
    // Not at 0, which the store of unkept keys would take for "no time".
    const clock = { now: 1 };
    const cache = cacheWith(renders.render, clock);
    const member = (key: string): PageTarget => ({ ...target(key), member: true });
    renders.answer((key, call) => ({ page: page(key, `${key} #${call}`), storable: call > 1 }));
    expect("pass" in (await cache.lookup(member("outing")))).toBe(true);
    expect("pass" in (await cache.lookup(member("outing")))).toBe(true);
    expect(renders.calls).toEqual(["outing"]);
    // After its fresh lifetime, or a revalidation, it is tried again.
    clock.now = 60_002;
    expect(await cache.lookup(member("outing"))).toMatchObject({ state: "MISS", stored: true });
    // A template that can no longer be kept is dropped at its refresh.
    renders.answer((key, call) => ({ page: page(key, `${key} #${call}`), storable: false }));
    clock.now = 130_000;
    expect(await cache.lookup(member("outing"))).toMatchObject({ state: "STALE" });
    await cache.settled();
    expect("pass" in (await cache.lookup(member("outing")))).toBe(true);
    expect(renders.calls).toHaveLength(3);
    // A member's own news (a form they sent, their sessions) is no reason to try it again.
    await cache.revalidate(["member:a", "member-sessions:a"]);
    expect("pass" in (await cache.lookup(member("outing")))).toBe(true);
    expect(renders.calls).toHaveLength(3);
    await cache.revalidate(["wix:collection:Other"]);
    renders.answer((key, call) => ({ page: page(key, `${key} #${call}`), storable: true }));
    expect(await cache.lookup(member("outing"))).toMatchObject({ state: "MISS", stored: true });
  });

  it("tells the other instances of a page found gone, only of one it held, and drops what they found gone", async () => {
    const dropped: string[] = [];
    let heard: (key: string) => void = () => {};
    const shared: SharedPages = {
      get: async () => undefined,
      set: async () => {},
      revalidate: async () => {},
      onRevalidation: () => {},
      drop: async (key) => void dropped.push(key),
      onDrop: (listener) => (heard = listener),
      close: async () => {},
    };
    const renders = controlledRender();
    const clock = { now: 0 };
    const cache = cacheWith(renders.render, clock, { shared });
    await textOf(cache, "trails/summit-loop");
    await textOf(cache, "home");
    clock.now = 61_000;
    renders.answer((key) => ({ page: { ...page(key, "not found"), status: 404 }, storable: false }));
    await textOf(cache, "trails/summit-loop");
    await cache.settled();
    // A made-up URL renders 404 as well, and concerns nobody else.
    expect(await textOf(cache, "trails/made-up")).toBe("MISS not found");
    expect(dropped).toEqual(["trails/summit-loop"]);

    heard("home");
    expect(cache.size.pages).toBe(0);
  });

  it("drops the pages that read a revalidated tag, and only those", async () => {
    const renders = controlledRender();
    renders.answer((key, call) => ({
      page: page(key, `${key} #${call}`, key === "journal" ? ["wix:collection:Journal"] : ["wix:collection:Trails", "wix:members"]),
      storable: true,
    }));
    const clock = { now: 0 };
    const cache = cacheWith(renders.render, clock);
    await textOf(cache, "trails");
    await textOf(cache, "journal");
    clock.now = 10;
    await cache.revalidate(["wix:members"]);
    expect(await textOf(cache, "trails")).toBe("MISS trails #3");
    expect(await textOf(cache, "journal")).toBe("HIT journal #2");
  });

  it("does not keep a render that started before a revalidation, and later requests do not join it", async () => {
    const renders = controlledRender();
    const clock = { now: 0 };
    const cache = cacheWith(renders.render, clock);
    renders.hold();
    const early = textOf(cache, "trails");
    while (renders.calls.length === 0) await Promise.resolve();
    clock.now = 5;
    await cache.revalidate(["wix:collection:Trails"]);
    clock.now = 6;
    const late = textOf(cache, "trails");
    renders.release();
    expect(await early).toBe("MISS trails #1");
    expect(await late).toBe("MISS trails #2");
    expect(await textOf(cache, "trails")).toBe("HIT trails #2");
  });

  it("holds at most its size in bytes, the least recently used page out first", async () => {
    const renders = controlledRender();
    renders.answer((key) => ({ page: page(key, "x".repeat(1000)), storable: true }));
    // Three bodies of 1,000 bytes and 1,024 for headers: 4,024 bytes a page, room for two.
    const cache = cacheWith(renders.render, { now: 0 }, { maxBytes: 9000 });
    await textOf(cache, "a");
    await textOf(cache, "b");
    await textOf(cache, "a");
    await textOf(cache, "c");
    expect(cache.size).toEqual({ pages: 2, bytes: 8048, personalPages: 0 });
    expect(await textOf(cache, "a")).toMatch(/^HIT/);
    expect(await textOf(cache, "b")).toMatch(/^MISS/);
  });
});

describe("members' own pages", () => {
  const own = (key: string, memberId: string): PageTarget => ({ ...target(key), personal: { memberId, cookie: `session=${memberId}` } });
  const ownText = async (cache: PageCache, key: string, memberId: string) => {
    const found = await cache.lookup(own(key, memberId));
    return "pass" in found ? "pass" : `${found.state} ${found.page.body.toString()}`;
  };

  it("keeps a member's page while it is fresh, never serves it stale, and never shares it with the other instances", async () => {
    const shared: SharedPages = {
      get: async () => ({ ...page("account-a", "from another instance"), renderedAt: 1 }),
      set: async () => expect.fail("a member's own page went to the shared store"),
      revalidate: async () => {},
      onRevalidation: () => {},
      drop: async () => {},
      onDrop: () => {},
      close: async () => {},
    };
    const renders = controlledRender();
    const clock = { now: 1 };
    const cache = cacheWith(renders.render, clock, { shared, personalFreshMs: 30_000 });
    expect(await ownText(cache, "account-a", "a")).toBe("MISS account-a #1");
    expect(await ownText(cache, "account-a", "a")).toBe("HIT account-a #1");
    clock.now = 30_002;
    expect(await ownText(cache, "account-a", "a")).toBe("MISS account-a #2");
    expect(cache.size).toMatchObject({ pages: 0, personalPages: 1 });
  });

  it("keeps none when given no time to keep them (a session check at every view)", async () => {
    const renders = controlledRender();
    const cache = cacheWith(renders.render, { now: 1 });
    expect(await ownText(cache, "account-a", "a")).toBe("MISS account-a #1");
    expect(await ownText(cache, "account-a", "a")).toBe("MISS account-a #2");
  });

  it("answers with a render it cannot keep, and passes one that failed or set a cookie to Next.js", async () => {
    const renders = controlledRender();
    const cache = cacheWith(renders.render, { now: 0 }, { personalFreshMs: 30_000 });
    renders.answer((key, call) => (call === 1 ? { page: page(key, "degraded"), storable: false } : null));
    expect(await ownText(cache, "account-a", "a")).toBe("MISS degraded");
    expect(await ownText(cache, "account-a", "a")).toBe("pass");
    expect(renders.calls).toHaveLength(2);
  });

  it("drops every member's pages when data changes, and only that member's when something of theirs does", async () => {
    const renders = controlledRender();
    const clock = { now: 1 };
    const cache = cacheWith(renders.render, clock, { personalFreshMs: 30_000 });
    await ownText(cache, "account-a", "a");
    await ownText(cache, "account-b", "b");
    await textOf(cache, "trails");
    clock.now = 10;
    await cache.revalidate(["member:a"]);
    expect(await ownText(cache, "account-a", "a")).toBe("MISS account-a #4");
    expect(await ownText(cache, "account-b", "b")).toBe("HIT account-b #2");
    expect(await textOf(cache, "trails")).toBe("HIT trails #3");
    // Their reads were made with their own tokens and name no tag: any data change may show on them.
    clock.now = 20;
    await cache.revalidate(["wix:collection:Outings"]);
    expect(await ownText(cache, "account-a", "a")).toBe("MISS account-a #5");
    expect(await ownText(cache, "account-b", "b")).toBe("MISS account-b #6");
    expect(await textOf(cache, "trails")).toBe("HIT trails #3");
  });

  it("does not keep a member's render that started before a change of theirs or of any data, and keeps it through another's", async () => {
    const renders = controlledRender();
    const clock = { now: 1 };
    const cache = cacheWith(renders.render, clock, { personalFreshMs: 30_000 });
    const renderDuring = async (key: string, change: string) => {
      renders.hold();
      const early = ownText(cache, key, "a");
      while (!renders.calls.includes(key)) await Promise.resolve();
      clock.now += 5;
      await cache.revalidate([change]);
      clock.now += 1;
      renders.release();
      expect(await early).toMatch(/^MISS/);
      return ownText(cache, key, "a");
    };
    expect(await renderDuring("account", "member:a")).toMatch(/^MISS/);
    expect(await renderDuring("outing", "wix:collection:Outings")).toMatch(/^MISS/);
    expect(await renderDuring("outing-2", "member:b")).toMatch(/^HIT/);
  });
});

describe("pages shared through Redis (a real redis-server)", () => {
  const redisUrl = useRedisServer();
  const log = pino({ level: "silent" });

  const shared = (buildId = "build-1") => createRedisPages({ url: redisUrl(), prefix: "test:", buildId, ttlSeconds: 60, log });
  /** Waits until a page written through `writer` can be read through `reader`. */
  const connected = async (writer: ReturnType<typeof shared>, reader = writer) => {
    const probe = `probe-${Math.random()}`;
    await until(async () => {
      await writer.set({ ...page(probe, "probe"), renderedAt: Date.now() });
      return (await reader.get(probe)) !== undefined;
    });
  };
  const until = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 3000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error("timed out");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it("keeps a page's bytes, headers and tags exactly", () => {
    const original = { ...page("trails", "<p>é</p>"), gzip: Buffer.from([1, 2, 3]), br: Buffer.from([4]), renderedAt: 123 };
    expect(decodePage(encodePage(original))).toEqual(original);
  });

  it("lets a second instance serve what the first rendered, and a revalidation on either drop it on both", async () => {
    const [firstRenders, secondRenders] = [controlledRender(), controlledRender()];
    const [firstShared, secondShared] = [shared(), shared()];
    const first = cacheWith(firstRenders.render, { now: Date.now() }, { shared: firstShared, now: Date.now });
    const second = cacheWith(secondRenders.render, { now: Date.now() }, { shared: secondShared, now: Date.now });
    try {
      await connected(firstShared, secondShared);
      expect(await textOf(first, "trails")).toBe("MISS trails #1");
      expect(await textOf(second, "trails")).toBe("HIT trails #1");
      expect(secondRenders.calls).toEqual([]);

      await new Promise((resolve) => setTimeout(resolve, 5));
      await first.revalidate(["wix:collection:Trails"]);
      // The second instance hears of it and drops its own copy; Redis's copy is outdated.
      await until(async () => (await textOf(second, "trails")) === "MISS trails #1" || second.size.pages === 0);
      expect(secondRenders.calls.length).toBeGreaterThan(0);
    } finally {
      await Promise.all([firstShared.close(), secondShared.close()]);
    }
  });

  it("drops a page found gone on one instance from the shared store and from the other instances' memory", async () => {
    const [firstRenders, secondRenders] = [controlledRender(), controlledRender()];
    const [firstShared, secondShared] = [shared(), shared()];
    // The first instance's pages are fresh for 50 ms only, so that it refreshes this one soon.
    const first = cacheWith(firstRenders.render, { now: 0 }, { shared: firstShared, now: Date.now, freshMs: 50 });
    const second = cacheWith(secondRenders.render, { now: 0 }, { shared: secondShared, now: Date.now });
    try {
      await connected(firstShared, secondShared);
      expect(await textOf(first, "members/dana")).toBe("MISS members/dana #1");
      expect(await textOf(second, "members/dana")).toBe("HIT members/dana #1");

      await new Promise((resolve) => setTimeout(resolve, 60));
      firstRenders.answer((key) => ({ page: { ...page(key, "private now"), status: 404 }, storable: false }));
      secondRenders.answer((key) => ({ page: { ...page(key, "private now"), status: 404 }, storable: false }));
      expect(await textOf(first, "members/dana")).toBe("STALE members/dana #1");
      await first.settled();
      await until(async () => second.size.pages === 0);
      // Neither its memory nor Redis has the page any more: the second instance renders it anew.
      expect(await textOf(second, "members/dana")).toBe("MISS private now");
    } finally {
      await Promise.all([firstShared.close(), secondShared.close()]);
    }
  });

  it("tells the site's data cache of the other instances' revalidations, not of its own", async () => {
    const noRender = () => Promise.reject(new Error("nothing is rendered here"));
    const server = (pages: ReturnType<typeof shared>) =>
      createPageCacheServer({ maxBytes: 1_000_000, freshSeconds: 60, staleSeconds: 60, shared: pages, policy: () => "" }, noRender, log);
    const [firstShared, secondShared] = [shared(), shared()];
    const [first, second] = [server(firstShared), server(secondShared)];
    const heard: RemoteRevalidation[] = [];
    const stopHearing = onRemoteRevalidation((change) => heard.push(change));
    try {
      await connected(firstShared, secondShared);
      await first.cache.revalidate(["wix:collection:Trails"]);
      await until(async () => heard.length > 0);
      // The first instance's own message comes back to it too, and is not passed on.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heard).toEqual([{ tags: ["wix:collection:Trails"], everything: false }]);
    } finally {
      stopHearing();
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("never serves a page of another build", async () => {
    const [oldBuild, newBuild] = [shared("old"), shared("new")];
    try {
      await connected(oldBuild);
      await oldBuild.set({ ...page("home", "old"), renderedAt: Date.now() });
      expect(await oldBuild.get("home")).toBeDefined();
      expect(await newBuild.get("home")).toBeUndefined();
    } finally {
      await Promise.all([oldBuild.close(), newBuild.close()]);
    }
  });

  it("caches on its own while Redis cannot be reached, without waiting for it", async () => {
    const unreachable = createRedisPages({ url: "redis://127.0.0.1:1", prefix: "test:", buildId: "b", ttlSeconds: 60, log });
    const renders = controlledRender();
    const cache = cacheWith(renders.render, { now: 0 }, { shared: unreachable });
    try {
      expect(await textOf(cache, "home")).toBe("MISS home #1");
      expect(await textOf(cache, "home")).toBe("HIT home #1");
    } finally {
      await unreachable.close();
    }
  });
});
