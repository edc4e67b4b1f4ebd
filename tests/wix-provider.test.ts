import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicRead } from "@/lib/wix/client";
import { PlatformUnavailableError, TokenRefusedError } from "@/lib/wix/errors";
import { platformFetch } from "@/lib/wix/platform-fetch";
import { TRAILS_PER_PAGE, latestTrails, listTrails, toTrail } from "@/lib/wix/trails";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const calls = async (key: string) => (await platform.stats()).requests[key] ?? 0;

describe("reshaping trails", () => {
  const raw = {
    _id: "trail-x",
    slug: "x",
    title: "X Ridge",
    region: { _id: "region-y", title: "Y Valley" },
    distanceKm: 4.5,
    elevationGainM: 120,
    difficulty: "Easy",
    dogFriendly: true,
    openedOn: "2020-01-01",
    tags: ["views"],
    image: "/media/demo/ridge.svg",
    description: "<p>Steep &amp; <strong>short</strong>.</p>",
  };

  it("gives the site's own shape, never the platform's", () => {
    expect(toTrail(raw)).toEqual([
      { id: "trail-x", slug: "x", title: "X Ridge", regionName: "Y Valley", distanceKm: 4.5, elevationGainM: 120, difficulty: "Easy", dogFriendly: true, openedOn: "2020-01-01", tags: ["views"], imageUrl: "/media/demo/ridge.svg", summary: "Steep & short ." },
    ]);
  });

  it("tolerates bad fields and drops an item without an id", () => {
    const [trail] = toTrail({ ...raw, region: "region-y", distanceKm: "far", tags: "views", dogFriendly: "yes", image: "javascript:alert(1)" });
    expect(trail).toMatchObject({ regionName: undefined, distanceKm: undefined, tags: [], dogFriendly: false, imageUrl: undefined });
    expect(toTrail({ title: "No id" })).toEqual([]);
    expect(toTrail(null)).toEqual([]);
  });

  it("turns wix:image ids into media URLs", () => {
    const [trail] = toTrail({ ...raw, image: "wix:image://v1/abc_123.jpg/photo.jpg#originWidth=800&originHeight=600" });
    expect(trail.imageUrl).toMatch(/^https:\/\/static\.wixstatic\.com\/media\/abc_123\.jpg/);
  });
});

describe("trail queries through the public client", () => {
  it("pages the demo trails shortest first, with their regions resolved in the same query", async () => {
    const first = await listTrails(1);
    expect(first.page).toBe(1);
    expect(first.pageCount).toBe(Math.ceil(15 / TRAILS_PER_PAGE));
    expect(first.trails).toHaveLength(TRAILS_PER_PAGE);
    const distances = first.trails.map((t) => t.distanceKm ?? 0);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(first.trails.every((t) => t.regionName)).toBe(true);
    const second = await listTrails(2);
    expect(second.trails).toHaveLength(15 - TRAILS_PER_PAGE);
    expect(second.trails[0].distanceKm).toBeGreaterThanOrEqual(distances.at(-1)!);
    expect((await listTrails(9)).trails).toEqual([]);
  });

  it("lists the newest trails", async () => {
    const latest = await latestTrails(3);
    expect(latest.map((t) => t.slug)).toHaveLength(3);
  });

  it("shares one visitor token across concurrent reads: no grant per read", async () => {
    await latestTrails(1);
    const grants = await calls("POST /oauth2/token");
    await Promise.all(Array.from({ length: 8 }, () => latestTrails(1)));
    expect(await calls("POST /oauth2/token")).toBe(grants);
  });

  it("replaces a token the platform refused, once, and the read still succeeds", async () => {
    let used = "";
    await publicRead(async (client) => {
      const original = globalThis.fetch;
      globalThis.fetch = (input, init) => {
        used = new Headers(init?.headers).get("authorization") ?? used;
        return original(input, init);
      };
      try {
        return await client.items.query("Regions").limit(1).find();
      } finally {
        globalThis.fetch = original;
      }
    });
    expect(platform.ctx.tokens.revokeSessionOf(used)).toBe(true);
    const grants = await calls("POST /oauth2/token");
    expect(await latestTrails(2)).toHaveLength(2);
    // One renewal: the refresh token of the revoked pair is dead too, so a fresh visitor follows.
    expect(await calls("POST /oauth2/token")).toBeLessThanOrEqual(grants + 2);
  });
});

describe("the platform fetch", () => {
  it("turns a 401 into TokenRefusedError, a 5xx or no answer into PlatformUnavailableError", async () => {
    await expect(platformFetch(`${platform.url}/members/v1/members/my`, { headers: { authorization: "dead" } })).rejects.toBeInstanceOf(TokenRefusedError);
    await expect(platformFetch("http://127.0.0.1:9/unreachable")).rejects.toBeInstanceOf(PlatformUnavailableError);
    const ok = await platformFetch(`${platform.url}/_local/stats`);
    expect(ok.status).toBe(200);
  });

  it("gives up on a call that takes too long", async () => {
    const started = Date.now();
    const call = platformFetch(`${platform.url}/_local/stats`, { signal: AbortSignal.timeout(1) });
    await expect(call).rejects.toBeInstanceOf(PlatformUnavailableError);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
