import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listHref, parseListState } from "@/lib/search-params";
import { clubTimeZone, collectionByRoute, siteCollections, type CollectionConfig } from "@/lib/site-config";
import { dayInZone } from "@/lib/outings/time";
import { feedItems, itemBySlug, listItems, whenAvailable } from "@/lib/wix/collections";
import { TAGS } from "@/lib/wix/cache";
import { publicRead } from "@/lib/wix/client";
import { PlatformUnavailableError, TokenRefusedError } from "@/lib/wix/errors";
import { fieldValue, sanitiseRichText, toSiteItem } from "@/lib/wix/site-item";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

const byRoute = (route: string): CollectionConfig => collectionByRoute(route)!;
const trails = byRoute("trails");
const outings = byRoute("outings");
const journal = byRoute("journal");

describe("the site configuration", () => {
  it("names every field it lists, shows, searches, filters and sorts on", () => {
    for (const collection of siteCollections) {
      const keys = new Set([...collection.fields.map((field) => field.key), collection.titleField, collection.slugField]);
      for (const key of [...collection.listFields, ...collection.detailFields, ...collection.filters.map((f) => f.field)]) expect(keys).toContain(key);
      for (const related of collection.related) expect(collectionByRoute(related.from)).toBeDefined();
      for (const field of collection.fields) if (field.type === "REFERENCE") expect(collectionByRoute(field.references ?? "")).toBeDefined();
      for (const search of collection.searchFields) {
        if (typeof search === "string") {
          expect(keys).toContain(search);
          continue;
        }
        // A search through a reference names a reference field and fields of the collection it points into.
        const through = collection.fields.find((field) => field.key === search.through);
        expect(["REFERENCE", "MULTI_REFERENCE"]).toContain(through?.type);
        const target = collectionByRoute(through?.references ?? "")!;
        expect(target).toBeDefined();
        for (const key of search.fields) expect([target.titleField, ...target.fields.map((field) => field.key)]).toContain(key);
      }
    }
  });
});

describe("list state from the URL", () => {
  it("reads search, filters, sort, size and page, and writes them back to the same URL", () => {
    const state = parseListState(trails, {
      q: " lake ",
      difficulty: ["Easy", "Moderate"],
      "distanceKm.from": "3",
      "distanceKm.to": "10",
      dogFriendly: "yes",
      sort: "longest",
      size: "18",
      page: "2",
    });
    expect(state).toMatchObject({ page: 2, query: "lake", pageSize: 18, sort: { id: "longest" } });
    expect(state!.filters).toEqual([
      { kind: "values", field: "difficulty", values: ["Easy", "Moderate"] },
      { kind: "range", field: "distanceKm", type: "NUMBER", from: 3, to: 10 },
      { kind: "yes-no", field: "dogFriendly", value: true },
    ]);
    expect(listHref(trails, state!)).toBe(
      "/trails?q=lake&difficulty=Easy&difficulty=Moderate&distanceKm.from=3&distanceKm.to=10&dogFriendly=yes&sort=longest&size=18&page=2",
    );
  });

  it("falls back to defaults for values it does not know, and the plain list has the plain URL", () => {
    const state = parseListState(trails, {
      sort: "cheapest",
      size: "1000",
      difficulty: "Impossible",
      "distanceKm.from": "far",
      dogFriendly: "maybe",
      tags: ["views", "<script>"],
      q: ["a", "b"],
    });
    expect(state).toMatchObject({ page: 1, query: "", pageSize: 9, sort: { id: "shortest" } });
    expect(state!.filters).toEqual([{ kind: "values", field: "tags", values: ["views"] }]);
    expect(listHref(trails, { ...state!, filters: [] })).toBe("/trails");
  });

  it("rejects a malformed page number", () => {
    expect(parseListState(trails, { page: "abc" })).toBeNull();
    expect(parseListState(trails, { page: "0" })).toBeNull();
  });

  it("reads date bounds only as calendar days", () => {
    expect(parseListState(outings, { "startsAt.from": "2026-12-10", "startsAt.to": "12/31/2026" })!.filters).toEqual([
      { kind: "range", field: "startsAt", type: "DATETIME", from: "2026-12-10", to: undefined },
    ]);
  });
});

describe("reshaping items", () => {
  const raw = {
    _id: "trail-x",
    slug: "x-ridge",
    title: "X Ridge",
    region: { _id: "region-y", title: "Y Valley", slug: "y-valley" },
    distanceKm: 4.5,
    dogFriendly: true,
    openedOn: "2020-01-01",
    tags: ["views"],
    image: "/media/demo/ridge.svg",
    description: "<p>Steep &amp; <strong>short</strong>.</p>",
  };

  it("gives the site's own shape, with the reference resolved to a link", () => {
    const item = toSiteItem(trails, raw)!;
    expect(item).toMatchObject({
      id: "trail-x",
      slug: "x-ridge",
      title: "X Ridge",
      href: "/trails/x-ridge",
      imageUrl: "/media/demo/ridge.svg",
      summary: "Steep & short.",
    });
    expect(item.fields.region.value).toEqual({ type: "reference", title: "Y Valley", href: "/regions/y-valley" });
    expect(item.fields.distanceKm.value).toEqual({ type: "number", value: 4.5, unit: "km" });
    expect(item.fields.openedOn.value).toEqual({ type: "date", iso: "2020-01-01", withTime: false });
    expect(item.fields.description.value).toEqual({ type: "rich-text", html: "<p>Steep &amp; <strong>short</strong>.</p>" });
    expect(item.fields.elevationGainM).toBeUndefined();
  });

  it("leaves out bad values and items without an id, title or slug", () => {
    const item = toSiteItem(trails, { ...raw, region: "region-y", distanceKm: "far", tags: "views", dogFriendly: "yes", image: "javascript:alert(1)" })!;
    expect(Object.keys(item.fields).sort()).toEqual(["description", "openedOn"]);
    expect(item.imageUrl).toBeUndefined();
    expect(toSiteItem(trails, { title: "No id", slug: "no-id" })).toBeNull();
    expect(toSiteItem(trails, { _id: "a", title: "No slug" })).toBeNull();
    expect(toSiteItem(trails, null)).toBeNull();
  });

  it("gives the added and updated dates as ISO instants, whatever form they arrive in, and none when unreadable", () => {
    const created = "2026-03-01T10:00:00.000Z";
    const item = toSiteItem(trails, { ...raw, _createdDate: new Date(created), _updatedDate: { $date: "2026-04-02T11:30:00.000Z" } })!;
    expect([item.createdDate, item.updatedDate]).toEqual([created, "2026-04-02T11:30:00.000Z"]);
    const unreadable = toSiteItem(trails, { ...raw, _createdDate: "yesterday" })!;
    expect(unreadable).not.toHaveProperty("createdDate");
    expect(unreadable).not.toHaveProperty("updatedDate");
  });

  it("dates an item without its own date by when it was added, and keeps its own date when it has one", () => {
    const story = { _id: "s", title: "Story", slug: "story", _createdDate: "2026-05-06T07:08:09.000Z" };
    // A story's date is a day on the club's clocks (America/Denver), with no time of day.
    expect(toSiteItem(journal, story)!.fields.publishedAt.value).toEqual({ type: "date", iso: "2026-05-06", withTime: false });
    const dated = toSiteItem(journal, { ...story, publishedAt: "2026-01-01T00:00:00.000Z" })!;
    expect(dated.fields.publishedAt.value).toEqual({ type: "date", iso: "2025-12-31", withTime: false });
    expect(toSiteItem(trails, { ...raw, openedOn: undefined, _createdDate: story._createdDate })!.fields.openedOn).toBeUndefined();
  });

  it("turns wix:image ids into media URLs", () => {
    const item = toSiteItem(trails, { ...raw, image: "wix:image://v1/abc_123.jpg/photo.jpg#originWidth=800&originHeight=600" })!;
    expect(item.imageUrl).toMatch(/^https:\/\/static\.wixstatic\.com\/media\/abc_123\.jpg/);
  });

  it("never shows an item marked members-only", () => {
    const outing = { _id: "e", title: "Secret", slug: "secret" };
    expect(toSiteItem(outings, { ...outing, membersOnly: true })).toBeNull();
    expect(toSiteItem(outings, { ...outing, membersOnly: "yes" })).toBeNull();
    expect(toSiteItem(outings, { ...outing, membersOnly: false })).not.toBeNull();
  });

  it("gives an outing its length and where it starts: its trail's trailhead, when the trail has one on the map", () => {
    const trailhead = { location: { formatted: "Lookout Road trailhead, Alder Springs, CO", location: { latitude: 38.86, longitude: -106.12 } } };
    const trail = { _id: "trail-summit-loop", title: "Summit Loop", slug: "summit-loop", trailhead };
    const outing = { _id: "e", title: "Sunrise", slug: "sunrise", startsAt: "2026-12-05T13:30:00.000Z", timeZone: "America/Denver", hours: 4, trail };
    expect(toSiteItem(outings, outing)!.outing).toEqual({
      startsAt: "2026-12-05T13:30:00.000Z",
      timeZone: "America/Denver",
      hours: 4,
      place: "Lookout Road trailhead, Alder Springs, CO",
      placeAt: { latitude: 38.86, longitude: -106.12 },
    });
    // A trail without a trailhead, an unresolved reference, or a length that is no number of hours: neither is given.
    const bare = toSiteItem(outings, { ...outing, hours: -1, trail: { ...trail, trailhead: undefined } })!.outing;
    expect([bare?.hours, bare?.place]).toEqual([undefined, undefined]);
    expect(toSiteItem(outings, { ...outing, hours: "4", trail: "trail-summit-loop" })!.outing).not.toHaveProperty("place");
  });

  it("reads datetimes as Date, { $date } or ISO text", () => {
    const field = { key: "at", label: "At", type: "DATETIME" } as const;
    const iso = "2026-12-05T06:30:00.000Z";
    for (const raw of [new Date(iso), { $date: iso }, iso]) expect(fieldValue(field, raw)).toEqual({ type: "date", iso, withTime: true });
    expect(fieldValue(field, "soon")).toBeUndefined();
  });

  it("sanitises rich text: no script, event handler or javascript: URL survives", () => {
    const html = sanitiseRichText(
      '<p onclick="steal()">Hi<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">x</a>' +
        '<a href="https://example.org">ok</a><iframe src="https://evil.example"></iframe></p>',
    );
    expect(html).not.toMatch(/script|onclick|onerror|javascript:|iframe|alert/i);
    expect(html).toContain('<a href="https://example.org" rel="noopener noreferrer">ok</a>');
  });
});

describe("queries against the running platform", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  const state = (collection: CollectionConfig, params: Record<string, string | string[]> = {}) => parseListState(collection, params)!;
  // What revalidateTag does inside a request, done on the cache tests/support/next-cache.ts gives the reads.
  const dropCachedCollection = (collectionId: string) =>
    (globalThis as unknown as { __incrementalCache: { revalidateTag(tags: string[]): Promise<void> } }).__incrementalCache.revalidateTag([
      TAGS.collection(collectionId),
    ]);

  it("pages trails in the default order, with regions resolved in the same query", async () => {
    const first = await listItems(trails, state(trails));
    expect(first).toMatchObject({ total: 15, pageCount: 2 });
    expect(first.items).toHaveLength(9);
    const distances = first.items.map((item) => (item.fields.distanceKm.value as { value: number }).value);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(first.items.every((item) => item.fields.region?.value.type === "reference")).toBe(true);
    const second = await listItems(trails, state(trails, { page: "2" }));
    expect(second.items.map((item) => item.slug)).not.toContain(first.items[0].slug);
    expect(second.items).toHaveLength(6);
  });

  it("searches, filters and sorts", async () => {
    const lakes = await listItems(trails, state(trails, { q: "LAKE" }));
    // Island Causeway says "lake" only in its tags: the search covers them too.
    expect(lakes.items.map((item) => item.slug).sort()).toEqual(["island-causeway", "mirror-lakes", "ridge-to-lake", "shoreline-loop"]);
    const easyDogWalks = await listItems(trails, state(trails, { difficulty: "Easy", "distanceKm.to": "5", dogFriendly: "yes", sort: "longest" }));
    expect(easyDogWalks.items.map((item) => item.slug)).toEqual(["island-causeway", "lighthouse-walk", "arch-spur"]);
    const tagged = await listItems(trails, state(trails, { tags: ["swimming", "sunset"] }));
    expect(tagged.total).toBe(4);
  });

  it("finds trails by their region's name, through the cached public read, and by the new name once the region is renamed", async () => {
    const slugs = async (q: string) => (await listItems(trails, state(trails, { q }))).items.map((item) => item.slug).sort();
    const lakeCountry = ["island-causeway", "ridge-to-lake", "shoreline-loop"];
    expect(await slugs("Lake Country")).toEqual(lakeCountry);
    expect(await slugs("lake country")).toEqual(lakeCountry);
    expect(await slugs("High Desert")).toEqual(["arch-spur", "mesa-top", "red-canyon"]);
    expect(await slugs("Atlantis")).toEqual([]);
    // The trails' own fields still count alongside the region's name, and filters narrow both.
    expect(await slugs("lake")).toEqual(["island-causeway", "mirror-lakes", "ridge-to-lake", "shoreline-loop"]);
    const easy = await listItems(trails, state(trails, { q: "Lake Country", difficulty: "Easy" }));
    expect(easy.items.map((item) => item.slug).sort()).toEqual(["island-causeway", "shoreline-loop"]);

    const admin = platform.adminClient().items;
    const region = (await admin.get("Regions", "region-lake-country"))!;
    await admin.update("Regions", { ...region, title: "Lakeland" });
    try {
      // The cached answer stands until the regions' data is announced as changed, as the webhook does;
      // dropping the regions' reads (not the trails') is what brings the new name.
      expect(await slugs("Lake Country")).toEqual(lakeCountry);
      await dropCachedCollection("Regions");
      expect(await slugs("Lake Country")).toEqual([]);
      expect(await slugs("Lakeland")).toEqual(lakeCountry);
    } finally {
      // Next's file-system cache, the one tests use, keeps only a tag's first revalidation: the
      // name is put back for the data's sake, and no later test searches by it.
      await admin.update("Regions", region);
    }
  });

  it("never lists members-only outings, and filters them by date", async () => {
    const all = await listItems(outings, state(outings));
    expect(all.total).toBe(4);
    expect(all.items.map((item) => item.title)).toEqual(["Family Creek Walk", "Tide Pool Discovery", "Winter Solstice Lantern Walk", "Birding by the Lake"]);
    const december = await listItems(outings, state(outings, { "startsAt.from": "2026-12-10", "startsAt.to": "2026-12-31" }));
    expect(december.items.map((item) => item.title)).toEqual(["Tide Pool Discovery", "Winter Solstice Lantern Walk"]);
    expect(await itemBySlug(outings, "sunrise-on-the-summit")).toBeNull();
  });

  it("loads the journal in batches through the SDK's query: the first batches by the list's state, with the total", async () => {
    const first = await feedItems(journal, state(journal));
    expect(first.items.map((item) => item.slug)).toEqual([
      "choosing-your-first-boots",
      "trail-care-day-what-we-fixed",
      "leave-no-trace-in-the-desert",
      "a-season-on-the-coast",
      "why-we-start-early",
      "ten-essentials-revisited",
    ]);
    expect([first.hasMore, first.total]).toEqual([true, 10]);
    // `page=2` in the URL shows both batches at once, as a reload or Back after "Load more" must.
    const both = await feedItems(journal, state(journal, { page: "2" }));
    expect(both.items.map((item) => item.slug).slice(6)).toEqual([
      "reading-a-contour-map",
      "the-lighthouse-keepers-path",
      "a-summer-with-the-trail-crew",
      "hiking-with-your-dog",
    ]);
    expect(both.items.slice(0, 6)).toEqual(first.items);
    expect([both.hasMore, both.total]).toEqual([false, 10]);
    // The next batch keeps the search, filters and order of the list.
    const beginners = { tags: "beginners", "publishedAt.to": "2026-11-01", sort: "oldest" };
    const firstBeginner = await feedItems(journal, { ...state(journal, beginners), pageSize: 1 });
    expect([firstBeginner.items.map((item) => item.slug), firstBeginner.hasMore]).toEqual([["hiking-with-your-dog"], true]);
    expect((await feedItems(journal, { ...state(journal, { ...beginners, page: "2" }), pageSize: 1 })).items.map((item) => item.slug)).toEqual([
      "hiking-with-your-dog",
      "reading-a-contour-map",
    ]);
  });

  it("gives items their added and updated dates, sorts by them, and dates a story without its own date by when it was added", async () => {
    const admin = platform.adminClient().items;
    const boots = (await admin.query("Journal").eq("slug", "choosing-your-first-boots").find()).items[0];
    await admin.update("Journal", boots);
    const updated = await feedItems(journal, state(journal, { sort: "updated" }));
    expect(updated.items[0].slug).toBe("choosing-your-first-boots");
    const story = updated.items[0];
    expect(Date.parse(story.updatedDate!)).toBeGreaterThan(Date.parse(story.createdDate!));

    await admin.insert("Trails", { _id: "trail-new", title: "New Spur", slug: "new-spur", distanceKm: 1 });
    const added = await listItems(trails, state(trails, { sort: "added" }));
    expect(added.items[0].slug).toBe("new-spur");
    expect(added.items[0].createdDate).toBe(added.items[0].updatedDate);
    await admin.remove("Trails", "trail-new");

    await admin.insert("Journal", { _id: "undated", title: "Undated", slug: "undated" });
    const undated = (await itemBySlug(journal, "undated"))!.item;
    expect(undated.fields.publishedAt).toEqual({
      key: "publishedAt",
      label: "Published",
      value: { type: "date", iso: dayInZone(new Date(undated.createdDate!), clubTimeZone), withTime: false },
    });
    await admin.remove("Journal", "undated");
  });

  it("resolves multi-references and reads the demo's media, address, object and array fields", async () => {
    const story = (await itemBySlug(journal, "leave-no-trace-in-the-desert"))!.item;
    expect(story.fields.trails.value).toEqual({
      type: "references",
      links: [
        { title: "Red Canyon Rim", href: "/trails/red-canyon" },
        { title: "Arch Spur", href: "/trails/arch-spur" },
        { title: "Mesa Top Challenge", href: "/trails/mesa-top" },
      ],
    });
    const essentials = (await itemBySlug(journal, "ten-essentials-revisited"))!.item;
    expect(essentials.fields.article.value.type).toBe("rich-content");
    expect(essentials.fields.attachment.value).toEqual({
      type: "document",
      document: { href: "/media/demo/ten-essentials-checklist.pdf", name: "ten-essentials-checklist.pdf" },
    });
    expect((await itemBySlug(journal, "why-we-start-early"))!.item.fields.audio.value).toEqual({
      type: "audio",
      sound: { src: "/media/demo/trail-notes.mp3" },
    });
    const summit = (await itemBySlug(trails, "summit-loop"))!.item;
    expect(summit.fields.gallery.value).toMatchObject({ type: "gallery", entries: { length: 4 } });
    expect(summit.fields.trailhead.value).toMatchObject({
      type: "object",
      fields: [
        { label: "Parking" },
        { label: "Toilets" },
        { label: "Gate opens", value: { type: "time", text: "05:30" } },
        { label: "Where", value: { type: "address", lines: ["Lookout Road trailhead, Alder Springs, CO"] } },
      ],
    });
    expect(summit.directions).toMatchObject({ label: "Directions to the trailhead", href: expect.stringContaining("destination=38.8571%2C-106.1184") });
    expect(summit.fields.waypoints.value).toMatchObject({ type: "list", items: { length: 4 } });
    const region = (await itemBySlug(byRoute("regions"), "north-ridge"))!.item;
    expect(region.fields.visitorCentre.value).toMatchObject({ type: "address", lines: ["1 Lookout Road", "Alder Springs, CO 81201", "United States"] });
    const walk = (await itemBySlug(outings, "family-creek-walk"))!.item;
    // An outing's times are in its own zone, with the zone's name.
    expect(walk.fields.meetAt.value).toEqual({ type: "time", text: "09:45", zone: "GMT" });
    expect(walk.fields.startsAt.value).toEqual({ type: "date", iso: "2026-12-06T10:00:00.000Z", withTime: true, timeZone: "Europe/London" });
    // Its trail's trailhead is where it meets, with where that is on the map.
    expect(walk.outing).toEqual({
      startsAt: "2026-12-06T10:00:00.000Z",
      timeZone: "Europe/London",
      capacity: 30,
      hours: 2,
      place: "Picnic meadow car park, Millrace Lane, Cedar Falls, OR",
      placeAt: { latitude: 43.2168, longitude: -123.3652 },
    });
  });

  it("opens an item by slug with its reference, neighbours and related items; null for an unknown slug", async () => {
    const page = await itemBySlug(outings, "tide-pool-discovery");
    expect(page!.item.fields.trail.value).toEqual({ type: "reference", title: "Hidden Cove Descent", href: "/trails/hidden-cove" });
    expect(page!.previous?.title).toBe("Family Creek Walk");
    expect(page!.next?.title).toBe("Winter Solstice Lantern Walk");
    const region = await itemBySlug(byRoute("regions"), "high-desert");
    expect(region!.related[0].items.map((item) => item.slug)).toEqual(["arch-spur", "red-canyon", "mesa-top"]);
    const trail = await itemBySlug(trails, "arch-spur");
    expect(trail!.previous).toBeUndefined();
    expect(trail!.related[0].items.map((item) => item.slug)).toEqual(["red-canyon", "mesa-top"]);
    expect(await itemBySlug(trails, "no-such-trail")).toBeNull();
  });
});

describe("a long load-more list", () => {
  let platform: TestPlatform;
  const NOTES = 130;
  const slugOf = (n: number) => `waypoint-note-${String(n).padStart(3, "0")}`;
  beforeAll(async () => {
    platform = await startTestPlatform();
    await platform.adminClient().items.bulkInsert(
      "Journal",
      Array.from({ length: NOTES }, (_, n) => ({
        _id: `note-${n}`,
        title: `Waypoint note ${n}`,
        slug: slugOf(n),
        author: "Test",
        publishedAt: new Date(Date.UTC(2020, 0, 1) + n * 86_400_000),
      })),
    );
    // The server's visitor token is from the platform before this one: it is replaced here, not in a read under test.
    await publicRead((client) => client.items.query("Journal").limit(1).find());
  });
  afterAll(() => platform.close());

  /** The item queries `read` sends, and what it answers. */
  async function queriesOf<T>(read: () => Promise<T>) {
    const recorder = platform.recordRequests();
    try {
      const value = await read();
      return { value, queries: recorder.requests.filter((request) => request.path === "/wix-data/v2/items/query").map((request) => request.body?.query) };
    } finally {
      recorder.stop();
    }
  }
  const notes = (page: number) => parseListState(journal, { q: "waypoint", size: "12", page: String(page) })!;
  const newestFirst = (count: number) => Array.from({ length: count }, (_, k) => slugOf(NOTES - 1 - k));

  it("reads the first request by offset with the list's filter and sort, and the rest by the SDK's cursor", async () => {
    const { value: feed, queries } = await queriesOf(() => feedItems(journal, notes(10)));
    expect(feed.items.map((item) => item.slug)).toEqual(newestFirst(120));
    expect(feed.hasMore).toBe(true);
    expect(queries).toHaveLength(2);
    expect(queries[0]).toMatchObject({
      paging: { limit: 100, offset: 0 },
      filter: expect.any(Object),
      sort: [{ fieldName: "publishedAt", order: "DESC" }, { fieldName: "_id" }],
    });
    expect(queries[1]).toEqual({ cursorPaging: { limit: 20, cursor: expect.any(String) } });

    // To the end: the cursor page comes back short and says nothing follows.
    const all = await queriesOf(() => feedItems(journal, notes(11)));
    expect([all.value.items.map((item) => item.slug), all.value.hasMore]).toEqual([newestFirst(NOTES), false]);
    expect(all.queries.map((query) => Object.keys(query ?? {}).includes("cursorPaging"))).toEqual([false, true]);

    expect(all.value.total).toBe(NOTES);
    // The same read again comes from the cache.
    expect((await queriesOf(() => feedItems(journal, notes(10)))).queries).toEqual([]);
  });
});

describe("an unreachable platform", () => {
  it("reads as unreachable, apart from any answer (null included), so the page can say so; other failures still throw", async () => {
    expect(await whenAvailable(async () => 3)).toEqual({ reachable: true, value: 3 });
    expect(await whenAvailable(async () => null)).toEqual({ reachable: true, value: null });
    expect(await whenAvailable(() => Promise.reject(new PlatformUnavailableError("no answer")))).toEqual({ reachable: false });
    await expect(whenAvailable(() => Promise.reject(new TokenRefusedError(null)))).rejects.toBeInstanceOf(TokenRefusedError);
  });
});
