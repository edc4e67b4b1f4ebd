import type { CollectionDefinition } from "../data/store";

/**
 * The demo site: a hiking club. Four collections that between them use text, number, date,
 * datetime, boolean, image, rich text, array of strings and reference fields.
 * Images are files under the site's public/media/demo folder.
 */

const publicRead = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;

export const demoCollections: CollectionDefinition[] = [
  {
    id: "Regions",
    displayName: "Regions",
    displayField: "title",
    permissions: publicRead,
    fields: [
      { key: "title", displayName: "Title", type: "TEXT" },
      { key: "slug", displayName: "Slug", type: "TEXT" },
      { key: "summary", displayName: "Summary", type: "TEXT" },
      { key: "image", displayName: "Image", type: "IMAGE" },
    ],
  },
  {
    id: "Trails",
    displayName: "Trails",
    displayField: "title",
    permissions: publicRead,
    fields: [
      { key: "title", displayName: "Title", type: "TEXT" },
      { key: "slug", displayName: "Slug", type: "TEXT" },
      { key: "region", displayName: "Region", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Regions" } } },
      { key: "distanceKm", displayName: "Distance (km)", type: "NUMBER" },
      { key: "elevationGainM", displayName: "Elevation gain (m)", type: "NUMBER" },
      { key: "difficulty", displayName: "Difficulty", type: "TEXT" },
      { key: "dogFriendly", displayName: "Dog friendly", type: "BOOLEAN" },
      { key: "openedOn", displayName: "Opened on", type: "DATE" },
      { key: "tags", displayName: "Tags", type: "ARRAY_STRING" },
      { key: "image", displayName: "Image", type: "IMAGE" },
      { key: "description", displayName: "Description", type: "RICH_TEXT" },
    ],
  },
  {
    id: "Events",
    displayName: "Events",
    displayField: "title",
    permissions: publicRead,
    fields: [
      { key: "title", displayName: "Title", type: "TEXT" },
      { key: "startsAt", displayName: "Starts at", type: "DATETIME" },
      { key: "trail", displayName: "Trail", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Trails" } } },
      { key: "capacity", displayName: "Capacity", type: "NUMBER" },
      { key: "membersOnly", displayName: "Members only", type: "BOOLEAN" },
      { key: "summary", displayName: "Summary", type: "TEXT" },
    ],
  },
  {
    id: "Journal",
    displayName: "Journal",
    displayField: "title",
    permissions: publicRead,
    fields: [
      { key: "title", displayName: "Title", type: "TEXT" },
      { key: "author", displayName: "Author", type: "TEXT" },
      { key: "publishedAt", displayName: "Published at", type: "DATETIME" },
      { key: "tags", displayName: "Tags", type: "ARRAY_STRING" },
      { key: "image", displayName: "Image", type: "IMAGE" },
      { key: "body", displayName: "Body", type: "RICH_TEXT" },
    ],
  },
];

const image = (name: string) => `/media/demo/${name}.svg`;
const date = (iso: string) => ({ $date: new Date(iso).toISOString() });

const regions = [
  ["north-ridge", "North Ridge", "Granite crests and high lakes above the tree line.", "ridge"],
  ["cedar-valley", "Cedar Valley", "Shaded river trails under old-growth cedar.", "valley"],
  ["coastal-bluffs", "Coastal Bluffs", "Wind-swept headlands and hidden coves.", "coast"],
  ["high-desert", "High Desert", "Red rock, wide skies and spring wildflowers.", "desert"],
  ["lake-country", "Lake Country", "Gentle shoreline loops for every pace.", "lake"],
] as const;

type TrailSeed = [string, string, string, number, number, "Easy" | "Moderate" | "Hard", boolean, string, string[], string, string];

const trails: TrailSeed[] = [
  ["summit-loop", "Summit Loop", "north-ridge", 14.2, 980, "Hard", false, "2009-06-14", ["views", "alpine", "full-day"], "ridge", "A steep climb through switchbacks to a granite summit with a 360° view of the range."],
  ["mirror-lakes", "Mirror Lakes Trail", "north-ridge", 9.6, 540, "Moderate", true, "2012-07-01", ["lakes", "swimming", "alpine"], "lake", "Three tarns strung along a high bench; the second one holds the famous reflection of Eagle Peak."],
  ["goat-pass", "Goat Pass Traverse", "north-ridge", 18.4, 1320, "Hard", false, "2015-08-20", ["traverse", "scramble", "full-day"], "ridge", "A point-to-point route over a rocky pass. Arrange a shuttle and start before sunrise."],
  ["cedar-creek", "Cedar Creek Path", "cedar-valley", 5.1, 120, "Easy", true, "1998-05-10", ["family", "river", "shade"], "valley", "A flat, shaded walk beside Cedar Creek with benches, a footbridge and a picnic meadow."],
  ["old-growth", "Old Growth Circuit", "cedar-valley", 7.8, 260, "Easy", true, "2004-04-22", ["forest", "family", "shade"], "forest", "Loops past cedars more than eight hundred years old. Boardwalks protect the roots."],
  ["falls-overlook", "Falls Overlook", "cedar-valley", 6.3, 410, "Moderate", true, "2011-09-03", ["waterfall", "views"], "valley", "Climbs to a railed platform facing Bridal Veil Falls, loudest in late spring."],
  ["headland-trail", "Headland Trail", "coastal-bluffs", 8.9, 300, "Moderate", true, "2001-03-15", ["ocean", "views", "wildlife"], "coast", "Follows the cliff edge past sea stacks; look for seals hauled out on the lower rocks."],
  ["hidden-cove", "Hidden Cove Descent", "coastal-bluffs", 4.2, 230, "Moderate", false, "2017-06-30", ["beach", "tide-pools"], "coast", "A short, steep stair-and-rope descent to a sandy cove. Check the tide table first."],
  ["lighthouse-walk", "Lighthouse Walk", "coastal-bluffs", 3.4, 60, "Easy", true, "1995-07-04", ["family", "ocean", "history"], "coast", "Paved most of the way to the 1889 lighthouse; the keeper's cottage is open on weekends."],
  ["red-canyon", "Red Canyon Rim", "high-desert", 11.5, 620, "Moderate", false, "2008-10-11", ["canyon", "views", "sunset"], "desert", "Rim walking above a sandstone canyon. Carry three litres of water; there is no shade."],
  ["arch-spur", "Arch Spur", "high-desert", 2.7, 90, "Easy", true, "2019-04-06", ["arch", "family", "sunset"], "desert", "A short sandy spur to a free-standing arch that glows orange at sunset."],
  ["mesa-top", "Mesa Top Challenge", "high-desert", 16.0, 1100, "Hard", false, "2021-03-27", ["scramble", "views", "full-day"], "desert", "Exposed scrambling up the mesa's east face. Not for the faint of heart or for hot days."],
  ["shoreline-loop", "Shoreline Loop", "lake-country", 6.0, 40, "Easy", true, "2000-06-18", ["lakes", "family", "birds"], "lake", "Circles Willow Lake on a level gravel path; herons nest on the north shore in April."],
  ["island-causeway", "Island Causeway", "lake-country", 4.8, 20, "Easy", true, "2014-05-25", ["lakes", "swimming"], "lake", "Crosses a stone causeway to Pine Island and its swimming beach."],
  ["ridge-to-lake", "Ridge to Lake", "lake-country", 12.3, 700, "Moderate", true, "2018-09-15", ["views", "lakes", "forest"], "forest", "Drops from the fire lookout through pine forest to the lake, where the ferry can take you back."],
];

const events = [
  ["Sunrise on the Summit", "2026-12-05T06:30:00.000Z", "summit-loop", 12, true, "Headlamps on at 5:30; coffee at the top."],
  ["Family Creek Walk", "2026-12-06T10:00:00.000Z", "cedar-creek", 30, false, "An easy morning with a ranger talk for kids."],
  ["Tide Pool Discovery", "2026-12-13T09:00:00.000Z", "hidden-cove", 15, false, "Timed for the lowest tide of the month."],
  ["Desert Sunset Hike", "2026-12-19T15:30:00.000Z", "red-canyon", 20, true, "Rim walk ending at the overlook for sunset."],
  ["Winter Solstice Lantern Walk", "2026-12-21T16:00:00.000Z", "shoreline-loop", 40, false, "Lanterns, cocoa and the longest night of the year."],
  ["Trail Care Day", "2027-01-09T08:30:00.000Z", "old-growth", 25, true, "Boardwalk repairs; tools and lunch provided."],
  ["Goat Pass Shuttle Trip", "2027-01-16T05:45:00.000Z", "goat-pass", 10, true, "Members' shuttle to the trailhead and back."],
  ["Birding by the Lake", "2027-01-24T07:00:00.000Z", "shoreline-loop", 18, false, "Bring binoculars; spotting scopes on loan."],
] as const;

const journal = [
  ["Ten Essentials, Revisited", "Maya Lindqvist", "2026-10-02T09:00:00.000Z", ["safety", "gear"], "gear", "<p>The classic list still holds, but we have updated it for <strong>phones, power banks and offline maps</strong>.</p><ul><li>Navigation</li><li>Headlamp</li><li>Sun protection</li></ul>"],
  ["Why We Start Early", "Tomás Okafor", "2026-10-15T09:00:00.000Z", ["planning", "safety"], "ridge", "<p>Afternoon storms build fast above the tree line. Starting at dawn gives you the summit <em>and</em> the way down.</p>"],
  ["A Season on the Coast", "Priya Raman", "2026-10-28T09:00:00.000Z", ["stories", "coast"], "coast", "<p>Twelve weekends, four seal colonies and one very wet map. Notes from our coastal volunteers.</p>"],
  ["Leave No Trace in the Desert", "Sam Whitfield", "2026-11-05T09:00:00.000Z", ["conservation", "desert"], "desert", "<p>Cryptobiotic soil takes decades to recover. <strong>Stay on the trail</strong>, even when it is sand.</p>"],
  ["Trail Care Day: What We Fixed", "Maya Lindqvist", "2026-11-12T09:00:00.000Z", ["volunteering", "forest"], "forest", "<p>Forty volunteers replaced 120 metres of boardwalk on the Old Growth Circuit. Thank you!</p>"],
  ["Choosing Your First Boots", "Tomás Okafor", "2026-11-19T09:00:00.000Z", ["gear", "beginners"], "valley", "<p>Fit beats features. Try boots on in the afternoon, with the socks you will hike in.</p>"],
] as const;

type SeedItem = Record<string, unknown> & { _id: string };

/** Items per collection, with `_createdDate`s spread out so the default order is meaningful. */
export function demoItems(): Record<string, SeedItem[]> {
  let minutesAgo = 0;
  const created = () => date(new Date(Date.UTC(2026, 10, 1) - (minutesAgo += 97) * 60_000).toISOString());
  return {
    Regions: regions.map(([slug, title, summary, picture]) => ({
      _id: `region-${slug}`, _createdDate: created(), title, slug, summary, image: image(picture),
    })),
    Trails: trails.map(([slug, title, region, distanceKm, elevationGainM, difficulty, dogFriendly, openedOn, tags, picture, text]) => ({
      _id: `trail-${slug}`, _createdDate: created(), title, slug, region: `region-${region}`, distanceKm, elevationGainM,
      difficulty, dogFriendly, openedOn, tags, image: image(picture), description: `<p>${text}</p>`,
    })),
    Events: events.map(([title, startsAt, trail, capacity, membersOnly, summary], index) => ({
      _id: `event-${index + 1}`, _createdDate: created(), title, startsAt: date(startsAt), trail: `trail-${trail}`, capacity, membersOnly, summary,
    })),
    Journal: journal.map(([title, author, publishedAt, tags, picture, body], index) => ({
      _id: `journal-${index + 1}`, _createdDate: created(), title, author, publishedAt: date(publishedAt), tags: [...tags], image: image(picture), body,
    })),
  };
}
