import type { CollectionDefinition } from "../data/collection";

/**
 * The demo site: a hiking club. Its collections between them use every field type the site
 * renders (docs/public-site.md, "Field types"), and five permission setups: public reads,
 * members-only reads, member-written reports, member-written sign-ups for public outings anyone
 * may count, and for members' outings only members may read (docs/platform/members.md §6). Media are
 * files under the site's public/media/demo folder (made by scripts/demo-media/make.sh).
 */

const publicRead = { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;
/** Members-only outings live in a collection of their own, so that no public read can ever reach them. */
const memberRead = { read: "SITE_MEMBER", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" } as const;
/** Anyone reads trail reports; members write them and change or remove only their own. */
const memberReports = { read: "ANYONE", insert: "SITE_MEMBER", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" } as const;
/**
 * Members sign up for public outings and change or cancel only their own sign-ups. Anyone reads
 * them, because the places left on a public outing page are counted with the site's visitor
 * token; a sign-up holds only which outing and the member's id, never a name.
 */
const memberSignups = { read: "ANYONE", insert: "SITE_MEMBER_AUTHOR", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" } as const;
/** Sign-ups for members' outings: only members may see who joined them. */
const membersOnlySignups = { ...memberSignups, read: "SITE_MEMBER" } as const;
/**
 * The organisers' rosters: each member who joins an outing writes their own name there, and
 * reads, changes or removes only their own entry. Only the site's owner and the members the owner
 * grants a special permission to read (the outings' organisers, seed.ts) read every entry, so a
 * private profile's name reaches an organiser and no other member.
 */
const organisersOnly = { read: "SITE_MEMBER_AUTHOR", insert: "SITE_MEMBER_AUTHOR", update: "SITE_MEMBER_AUTHOR", remove: "SITE_MEMBER_AUTHOR" } as const;

export const TRAIL_REPORTS = "TrailReports";
export const MEMBERS_OUTINGS = "MembersOutings";
export const OUTING_SIGNUPS = "OutingSignups";
export const MEMBERS_OUTING_SIGNUPS = "MembersOutingSignups";
export const OUTING_ROSTERS = "OutingRosters";
/** The outing the demo member organises (seed.ts names them once the members exist). */
export const ORGANISED_OUTING = { collectionId: MEMBERS_OUTINGS, id: "outing-2" } as const;

const signupFields: CollectionDefinition["fields"] = [
  // The outing's collection and id.
  { key: "collection", displayName: "Collection", type: "TEXT", stringLengthRange: { minLength: 1, maxLength: 100 } },
  { key: "outing", displayName: "Outing", type: "TEXT", stringLengthRange: { minLength: 1, maxLength: 100 } },
];

const eventFields: CollectionDefinition["fields"] = [
  { key: "title", displayName: "Title", type: "TEXT", stringLengthRange: { maxLength: 200 } },
  { key: "slug", displayName: "Slug", type: "TEXT", stringLengthRange: { maxLength: 100 } },
  { key: "startsAt", displayName: "Starts at", type: "DATETIME" },
  { key: "trail", displayName: "Trail", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Trails" } } },
  { key: "capacity", displayName: "Capacity", type: "NUMBER", numberRange: { min: 1, max: 500 } },
  { key: "summary", displayName: "Summary", type: "TEXT", stringLengthRange: { maxLength: 2000 } },
  // A wall-clock time in the outing's own zone.
  { key: "meetAt", displayName: "Meeting time", type: "TIME" },
  // How long the outing takes, for calendars.
  { key: "hours", displayName: "Length (hours)", type: "NUMBER", numberRange: { min: 0.5, max: 24 } },
  // Where the outing happens, as an IANA zone name: its times are shown in this zone.
  { key: "timeZone", displayName: "Time zone", type: "TEXT", stringLengthRange: { maxLength: 64 } },
  // The member who organises the outing, by id: they read its roster (OutingRosters).
  { key: "organiser", displayName: "Organiser (member id)", type: "TEXT", stringLengthRange: { maxLength: 100 } },
];

export const demoCollections: CollectionDefinition[] = [
  {
    id: "Regions",
    displayName: "Regions",
    displayField: "title",
    permissions: publicRead,
    fields: [
      { key: "title", displayName: "Title", type: "TEXT", stringLengthRange: { maxLength: 200 } },
      { key: "slug", displayName: "Slug", type: "TEXT", stringLengthRange: { maxLength: 100 } },
      { key: "summary", displayName: "Summary", type: "TEXT", stringLengthRange: { maxLength: 2000 } },
      { key: "image", displayName: "Image", type: "IMAGE" },
      { key: "visitorCentre", displayName: "Visitor centre", type: "ADDRESS" },
      { key: "website", displayName: "Website", type: "URL" },
    ],
  },
  {
    id: "Trails",
    displayName: "Trails",
    displayField: "title",
    permissions: publicRead,
    fields: [
      { key: "title", displayName: "Title", type: "TEXT", stringLengthRange: { maxLength: 200 } },
      { key: "slug", displayName: "Slug", type: "TEXT", stringLengthRange: { maxLength: 100 } },
      { key: "region", displayName: "Region", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Regions" } } },
      { key: "distanceKm", displayName: "Distance (km)", type: "NUMBER" },
      { key: "elevationGainM", displayName: "Elevation gain (m)", type: "NUMBER" },
      { key: "difficulty", displayName: "Difficulty", type: "TEXT", stringLengthRange: { maxLength: 50 } },
      { key: "dogFriendly", displayName: "Dog friendly", type: "BOOLEAN" },
      { key: "openedOn", displayName: "Opened on", type: "DATE" },
      { key: "tags", displayName: "Tags", type: "ARRAY_STRING", arraySizeRange: { maxSize: 20 } },
      { key: "image", displayName: "Image", type: "IMAGE" },
      { key: "description", displayName: "Description", type: "RICH_TEXT", stringLengthRange: { maxLength: 50000 } },
      { key: "gallery", displayName: "Gallery", type: "MEDIA_GALLERY" },
      { key: "video", displayName: "Video", type: "VIDEO" },
      {
        key: "trailhead",
        displayName: "Trailhead",
        type: "OBJECT",
        typeMetadata: {
          object: {
            fields: [
              { key: "parking", displayName: "Parking", type: "TEXT" },
              { key: "toilets", displayName: "Toilets", type: "BOOLEAN" },
              { key: "gateOpens", displayName: "Gate opens", type: "TIME" },
              // Where the trailhead is: a place name (`formatted`) and its map location, for directions.
              { key: "location", displayName: "Location", type: "ADDRESS" },
            ],
          },
        },
      },
      {
        key: "waypoints",
        displayName: "Waypoints",
        type: "ARRAY",
        typeMetadata: {
          array: {
            elementType: "OBJECT",
            fields: [
              { key: "name", displayName: "Name", type: "TEXT" },
              { key: "km", displayName: "Kilometre", type: "NUMBER" },
            ],
          },
        },
      },
    ],
  },
  {
    id: "Events",
    displayName: "Events",
    displayField: "title",
    permissions: publicRead,
    fields: eventFields,
  },
  {
    id: MEMBERS_OUTINGS,
    displayName: "Members' outings",
    displayField: "title",
    permissions: memberRead,
    fields: eventFields,
  },
  {
    id: TRAIL_REPORTS,
    displayName: "Trail reports",
    displayField: "title",
    permissions: memberReports,
    fields: [
      { key: "trail", displayName: "Trail", type: "REFERENCE", typeMetadata: { reference: { referencedCollectionId: "Trails" } } },
      // The limits of the site's report form, so a report written straight to the API cannot exceed them either.
      { key: "title", displayName: "Title", type: "TEXT", stringLengthRange: { minLength: 1, maxLength: 120 } },
      { key: "body", displayName: "Report", type: "TEXT", stringLengthRange: { minLength: 1, maxLength: 4000 } },
      { key: "rating", displayName: "Rating (1-5)", type: "NUMBER", numberRange: { min: 1, max: 5 } },
      { key: "hikedOn", displayName: "Hiked on", type: "DATE" },
    ],
  },
  {
    id: OUTING_SIGNUPS,
    displayName: "Outing sign-ups",
    displayField: "outing",
    permissions: memberSignups,
    fields: signupFields,
  },
  {
    id: MEMBERS_OUTING_SIGNUPS,
    displayName: "Members' outing sign-ups",
    displayField: "outing",
    permissions: membersOnlySignups,
    fields: signupFields,
  },
  {
    id: OUTING_ROSTERS,
    displayName: "Organisers' rosters",
    displayField: "name",
    permissions: organisersOnly,
    fields: [...signupFields, { key: "name", displayName: "Name", type: "TEXT", stringLengthRange: { minLength: 1, maxLength: 100 } }],
  },
  {
    id: "Journal",
    displayName: "Journal",
    displayField: "title",
    permissions: publicRead,
    fields: [
      { key: "title", displayName: "Title", type: "TEXT", stringLengthRange: { maxLength: 200 } },
      { key: "slug", displayName: "Slug", type: "TEXT", stringLengthRange: { maxLength: 100 } },
      { key: "author", displayName: "Author", type: "TEXT", stringLengthRange: { maxLength: 100 } },
      { key: "publishedAt", displayName: "Published at", type: "DATETIME" },
      { key: "tags", displayName: "Tags", type: "ARRAY_STRING", arraySizeRange: { maxSize: 20 } },
      { key: "image", displayName: "Image", type: "IMAGE" },
      { key: "body", displayName: "Body", type: "RICH_TEXT", stringLengthRange: { maxLength: 50000 } },
      { key: "article", displayName: "Article", type: "RICH_CONTENT" },
      { key: "attachment", displayName: "Attachment", type: "DOCUMENT" },
      { key: "audio", displayName: "Audio", type: "AUDIO" },
      { key: "trails", displayName: "Trails", type: "MULTI_REFERENCE", typeMetadata: { multiReference: { referencedCollectionId: "Trails" } } },
    ],
  },
];

const media = (file: string) => `/media/demo/${file}`;
const image = (name: string) => media(`${name}.jpg`);
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
  [
    "summit-loop",
    "Summit Loop",
    "north-ridge",
    14.2,
    980,
    "Hard",
    false,
    "2009-06-14",
    ["views", "alpine", "full-day"],
    "ridge",
    "A steep climb through switchbacks to a granite summit with a 360° view of the range.",
  ],
  [
    "mirror-lakes",
    "Mirror Lakes Trail",
    "north-ridge",
    9.6,
    540,
    "Moderate",
    true,
    "2012-07-01",
    ["lakes", "swimming", "alpine"],
    "lake",
    "Three tarns strung along a high bench; the second one holds the famous reflection of Eagle Peak.",
  ],
  [
    "goat-pass",
    "Goat Pass Traverse",
    "north-ridge",
    18.4,
    1320,
    "Hard",
    false,
    "2015-08-20",
    ["traverse", "scramble", "full-day"],
    "ridge",
    "A point-to-point route over a rocky pass. Arrange a shuttle and start before sunrise.",
  ],
  [
    "cedar-creek",
    "Cedar Creek Path",
    "cedar-valley",
    5.1,
    120,
    "Easy",
    true,
    "1998-05-10",
    ["family", "river", "shade"],
    "valley",
    "A flat, shaded walk beside Cedar Creek with benches, a footbridge and a picnic meadow.",
  ],
  [
    "old-growth",
    "Old Growth Circuit",
    "cedar-valley",
    7.8,
    260,
    "Easy",
    true,
    "2004-04-22",
    ["forest", "family", "shade"],
    "forest",
    "Loops past cedars more than eight hundred years old. Boardwalks protect the roots.",
  ],
  [
    "falls-overlook",
    "Falls Overlook",
    "cedar-valley",
    6.3,
    410,
    "Moderate",
    true,
    "2011-09-03",
    ["waterfall", "views"],
    "valley",
    "Climbs to a railed platform facing Bridal Veil Falls, loudest in late spring.",
  ],
  [
    "headland-trail",
    "Headland Trail",
    "coastal-bluffs",
    8.9,
    300,
    "Moderate",
    true,
    "2001-03-15",
    ["ocean", "views", "wildlife"],
    "coast",
    "Follows the cliff edge past sea stacks; look for seals hauled out on the lower rocks.",
  ],
  [
    "hidden-cove",
    "Hidden Cove Descent",
    "coastal-bluffs",
    4.2,
    230,
    "Moderate",
    false,
    "2017-06-30",
    ["beach", "tide-pools"],
    "coast",
    "A short, steep stair-and-rope descent to a sandy cove. Check the tide table first.",
  ],
  [
    "lighthouse-walk",
    "Lighthouse Walk",
    "coastal-bluffs",
    3.4,
    60,
    "Easy",
    true,
    "1995-07-04",
    ["family", "ocean", "history"],
    "coast",
    "Paved most of the way to the 1889 lighthouse; the keeper's cottage is open on weekends.",
  ],
  [
    "red-canyon",
    "Red Canyon Rim",
    "high-desert",
    11.5,
    620,
    "Moderate",
    false,
    "2008-10-11",
    ["canyon", "views", "sunset"],
    "desert",
    "Rim walking above a sandstone canyon. Carry three litres of water; there is no shade.",
  ],
  [
    "arch-spur",
    "Arch Spur",
    "high-desert",
    2.7,
    90,
    "Easy",
    true,
    "2019-04-06",
    ["arch", "family", "sunset"],
    "desert",
    "A short sandy spur to a free-standing arch that glows orange at sunset.",
  ],
  [
    "mesa-top",
    "Mesa Top Challenge",
    "high-desert",
    16.0,
    1100,
    "Hard",
    false,
    "2021-03-27",
    ["scramble", "views", "full-day"],
    "desert",
    "Exposed scrambling up the mesa's east face. Not for the faint of heart or for hot days.",
  ],
  [
    "shoreline-loop",
    "Shoreline Loop",
    "lake-country",
    6.0,
    40,
    "Easy",
    true,
    "2000-06-18",
    ["lakes", "family", "birds"],
    "lake",
    "Circles Willow Lake on a level gravel path; herons nest on the north shore in April.",
  ],
  [
    "island-causeway",
    "Island Causeway",
    "lake-country",
    4.8,
    20,
    "Easy",
    true,
    "2014-05-25",
    ["lakes", "swimming"],
    "lake",
    "Crosses a stone causeway to Pine Island and its swimming beach.",
  ],
  [
    "ridge-to-lake",
    "Ridge to Lake",
    "lake-country",
    12.3,
    700,
    "Moderate",
    true,
    "2018-09-15",
    ["views", "lakes", "forest"],
    "forest",
    "Drops from the fire lookout through pine forest to the lake, where the ferry can take you back.",
  ],
];

/** Start times are written with the offset of the outing's zone on that day. */
const events = [
  ["Family Creek Walk", "2026-12-06T10:00:00+00:00", "Europe/London", "cedar-creek", 30, "An easy morning with a ranger talk for kids.", 2],
  ["Tide Pool Discovery", "2026-12-13T09:00:00-08:00", "America/Los_Angeles", "hidden-cove", 15, "Timed for the lowest tide of the month.", 2.5],
  [
    "Winter Solstice Lantern Walk",
    "2026-12-21T16:00:00+00:00",
    "Europe/London",
    "shoreline-loop",
    40,
    "Lanterns, cocoa and the longest night of the year.",
    1.5,
  ],
  ["Birding by the Lake", "2027-01-24T07:00:00+00:00", "Europe/London", "shoreline-loop", 18, "Bring binoculars; spotting scopes on loan.", 3],
] as const;

const outings = [
  ["Sunrise on the Summit", "2026-12-05T06:30:00-07:00", "America/Denver", "summit-loop", 12, "Headlamps on at 5:30; coffee at the top.", 4],
  ["Desert Sunset Hike", "2026-12-19T15:30:00-07:00", "America/Phoenix", "red-canyon", 20, "Rim walk ending at the overlook for sunset.", 3],
  ["Trail Care Day", "2027-01-09T08:30:00-08:00", "America/Los_Angeles", "old-growth", 25, "Boardwalk repairs; tools and lunch provided.", 6],
  ["Goat Pass Shuttle Trip", "2027-01-16T05:45:00-07:00", "America/Denver", "goat-pass", 10, "Members' shuttle to the trailhead and back.", 9],
] as const;

/** The wall-clock time ("hh:mm") of an instant in a zone. */
function wallClock(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(instant);
}

/** Trail reports and which demo member wrote each (seed.ts sets the owner once the members exist). */
const trailReports = [
  ["dana", "mirror-lakes", "Still water at the second tarn", "Calm morning, perfect reflection of Eagle Peak by 8am. Mosquitoes after noon.", 5, "2026-09-14"],
  ["dana", "cedar-creek", "Footbridge repaired", "The washed-out footbridge is fixed; the picnic meadow is mown and dry.", 4, "2026-10-03"],
  ["rowan", "goat-pass", "Snow on the pass", "A short snowfield below the saddle; microspikes helped. The shuttle ran on time.", 4, "2026-10-18"],
  ["rowan", "red-canyon", "Hot and exposed", "Drank all three litres by the overlook. Start early or go at dusk.", 3, "2026-08-30"],
  ["rowan", "hidden-cove", "Rope replaced", "New rope on the lower section; the cove was empty at low tide.", 5, "2026-11-08"],
] as const;

export type DemoReportAuthor = (typeof trailReports)[number][0];

export function demoTrailReports(): { author: DemoReportAuthor; item: SeedItem }[] {
  return trailReports.map(([author, trail, title, body, rating, hikedOn], index) => ({
    author,
    item: {
      _id: `report-${index + 1}`,
      _createdDate: date(`${hikedOn}T18:00:00.000Z`),
      trail: `trail-${trail}`,
      title,
      body,
      rating,
      hikedOn,
    },
  }));
}

const journal = [
  [
    "Ten Essentials, Revisited",
    "Maya Lindqvist",
    "2026-10-02T09:00:00.000Z",
    ["safety", "gear"],
    "gear",
    "<p>The classic list still holds, but we have updated it for <strong>phones, power banks and offline maps</strong>.</p>" +
      "<ul><li>Navigation</li><li>Headlamp</li><li>Sun protection</li></ul>",
  ],
  [
    "Why We Start Early",
    "Tomás Okafor",
    "2026-10-15T09:00:00.000Z",
    ["planning", "safety"],
    "ridge",
    "<p>Afternoon storms build fast above the tree line. Starting at dawn gives you the summit <em>and</em> the way down.</p>",
  ],
  [
    "A Season on the Coast",
    "Priya Raman",
    "2026-10-28T09:00:00.000Z",
    ["stories", "coast"],
    "coast",
    "<p>Twelve weekends, four seal colonies and one very wet map. Notes from our coastal volunteers.</p>",
  ],
  [
    "Leave No Trace in the Desert",
    "Sam Whitfield",
    "2026-11-05T09:00:00.000Z",
    ["conservation", "desert"],
    "desert",
    "<p>Cryptobiotic soil takes decades to recover. <strong>Stay on the trail</strong>, even when it is sand.</p>",
  ],
  [
    "Trail Care Day: What We Fixed",
    "Maya Lindqvist",
    "2026-11-12T09:00:00.000Z",
    ["volunteering", "forest"],
    "forest",
    "<p>Forty volunteers replaced 120 metres of boardwalk on the Old Growth Circuit. Thank you!</p>",
  ],
  [
    "Choosing Your First Boots",
    "Tomás Okafor",
    "2026-11-19T09:00:00.000Z",
    ["gear", "beginners"],
    "valley",
    "<p>Fit beats features. Try boots on in the afternoon, with the socks you will hike in.</p>",
  ],
  [
    "Reading a Contour Map",
    "Priya Raman",
    "2026-09-18T09:00:00.000Z",
    ["beginners", "safety"],
    "valley",
    "<p>Lines close together mean steep ground. Ten minutes with the map at home saves an hour on the hill.</p>",
  ],
  [
    "The Lighthouse Keepers' Path",
    "Sam Whitfield",
    "2026-09-04T09:00:00.000Z",
    ["stories"],
    "coast",
    "<p>Before the road, keepers walked supplies along the bluffs. Their path is now our Lighthouse Walk.</p>",
  ],
  [
    "A Summer With the Trail Crew",
    "Maya Lindqvist",
    "2026-08-21T09:00:00.000Z",
    ["volunteering", "conservation"],
    "forest",
    "<p>Drainage bars, cut-back brush and a new stile: what eight Saturdays of volunteering looks like.</p>",
  ],
  [
    "Hiking With Your Dog",
    "Tomás Okafor",
    "2026-08-07T09:00:00.000Z",
    ["beginners", "stories"],
    "lake",
    "<p>Water for two, a lead for the lambing fields, and why the Shoreline Loop is our dogs' favourite.</p>",
  ],
] as const;

type SeedItem = Record<string, unknown> & { _id: string };

/** "Sunrise on the Summit" → "sunrise-on-the-summit", for item pages' addresses. */
const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Visitor centres as ADDRESS values: the platform's address object. */
const visitorCentres: Record<string, Record<string, unknown>> = Object.fromEntries(
  (
    [
      ["north-ridge", "1", "Lookout Road", "Alder Springs", "US-CO", "81201", 38.84, -106.13],
      ["cedar-valley", "48", "Millrace Lane", "Cedar Falls", "US-OR", "97411", 43.21, -123.36],
      ["coastal-bluffs", "2", "Lighthouse Point", "Seal Cove", "US-CA", "95437", 39.42, -123.81],
      ["high-desert", "310", "Canyon Rim Drive", "Red Mesa", "US-UT", "84532", 38.57, -109.55],
      ["lake-country", "7", "Willow Shore", "Pine Harbor", "US-MN", "55604", 47.75, -90.33],
    ] as const
  ).map(([region, number, street, city, subdivision, postalCode, latitude, longitude]) => [
    region,
    {
      formatted: `${number} ${street}, ${city}, ${subdivision.slice(3)} ${postalCode}, USA`,
      streetAddress: { number, name: street },
      city,
      subdivision,
      postalCode,
      country: "US",
      location: { latitude, longitude },
    },
  ]),
);

/** A trailhead's place as an ADDRESS value: its name, and where it is on the map. */
const trailheadAt = (formatted: string, latitude: number, longitude: number) => ({ formatted, location: { latitude, longitude } });

const photo = (scene: string, title: string, description: string) => ({ type: "image", src: image(scene), title, description, alt: description });

/**
 * Photo galleries, a video, trailhead details (OBJECT, with the trailhead's place for directions)
 * and waypoints (ARRAY of OBJECT) on some trails; the other trails have none of these.
 */
const trailExtras: Record<string, Record<string, unknown>> = {
  "summit-loop": {
    gallery: [
      photo("ridge-dawn", "First light", "Dawn colour on the granite crest above the switchbacks."),
      photo("ridge", "Midday", "The full range seen from the summit cairn."),
      photo("ridge-dusk", "Moonrise", "The moon rising over the ridge on the way down."),
      {
        type: "video",
        src: media("ridge-flyover.mp4"),
        thumbnail: image("ridge"),
        title: "Along the crest",
        description: "Four seconds drifting along the crest.",
      },
    ],
    trailhead: {
      parking: "Gravel lot for 40 cars at the end of Lookout Road",
      toilets: true,
      gateOpens: "05:30:00.000",
      location: trailheadAt("Lookout Road trailhead, Alder Springs, CO", 38.8571, -106.1184),
    },
    waypoints: [
      { name: "Trailhead", km: 0 },
      { name: "First switchback", km: 1.8 },
      { name: "False summit", km: 6.1 },
      { name: "Summit cairn", km: 7.1 },
    ],
  },
  "mirror-lakes": {
    gallery: [
      photo("lake-dawn", "The second tarn", "Still water at dawn on the second tarn."),
      photo("lake", "Lunch stop", "The grassy bench above the third tarn."),
      photo("lake-dusk", "Evening", "Dusk over the upper lake."),
    ],
    trailhead: {
      parking: "Roadside pull-out, 12 cars",
      toilets: false,
      gateOpens: "06:00:00.000",
      location: trailheadAt("Tarn Creek pull-out, Alder Springs, CO", 38.8812, -106.1643),
    },
  },
  "goat-pass": {
    video: media("ridge-flyover.mp4"),
    trailhead: {
      parking: "Shuttle stop at Goat Creek bridge",
      toilets: true,
      location: trailheadAt("Goat Creek bridge, Alder Springs, CO", 38.8024, -106.2051),
    },
  },
  "headland-trail": {
    gallery: [
      photo("coast-dawn", "Sea stacks", "Sea stacks below the cliff path at sunrise."),
      photo("coast", "The headland", "The headland path from the south car park."),
      photo("coast-dusk", "Seal rocks", "Seals hauled out on the lower rocks at dusk."),
    ],
    trailhead: { parking: "South car park, pay and display", toilets: true, location: trailheadAt("South car park, Seal Cove, CA", 39.4087, -123.8195) },
    waypoints: [
      { name: "South car park", km: 0 },
      { name: "Sea stack viewpoint", km: 2.4 },
      { name: "Seal rocks", km: 4.5 },
    ],
  },
  // The trails the public outings start from, so an outing's page can say where to meet; the
  // Shoreline Loop keeps none, as a trail whose start is not on the map.
  "cedar-creek": {
    trailhead: {
      parking: "Picnic meadow car park",
      toilets: true,
      location: trailheadAt("Picnic meadow car park, Millrace Lane, Cedar Falls, OR", 43.2168, -123.3652),
    },
  },
  "old-growth": {
    trailhead: { parking: "Boardwalk car park, 30 cars", toilets: true, location: trailheadAt("Boardwalk car park, Cedar Falls, OR", 43.2289, -123.3811) },
  },
  "hidden-cove": {
    trailhead: {
      parking: "Cliff-top lay-by, 8 cars",
      toilets: false,
      location: trailheadAt("Cove stair lay-by, Lighthouse Point, Seal Cove, CA", 39.4238, -123.8127),
    },
  },
  "red-canyon": {
    trailhead: { parking: "Rim Drive overlook car park", toilets: true, location: trailheadAt("Canyon Rim Drive overlook, Red Mesa, UT", 38.5731, -109.5487) },
  },
};

/** Ricos rich content, built from a few node kinds. */
type RicosNode = Record<string, unknown>;
const ricosText = (value: string, ...decorations: RicosNode[]): RicosNode => ({ type: "TEXT", nodes: [], textData: { text: value, decorations } });
const bold: RicosNode = { type: "BOLD", fontWeightValue: 700 };
const italic: RicosNode = { type: "ITALIC", italicData: true };
const link = (url: string): RicosNode => ({ type: "LINK", linkData: { link: { url, target: "SELF" } } });
const paragraph = (...nodes: RicosNode[]): RicosNode => ({ type: "PARAGRAPH", nodes, paragraphData: {} });
const heading = (level: number, value: string): RicosNode => ({ type: "HEADING", nodes: [ricosText(value)], headingData: { level } });
const list = (type: "BULLETED_LIST" | "ORDERED_LIST", ...items: RicosNode[][]): RicosNode => ({
  type,
  nodes: items.map((nodes) => ({ type: "LIST_ITEM", nodes: [paragraph(...nodes)] })),
});

const checklist = media("ten-essentials-checklist.pdf");

const tenEssentialsArticle = {
  nodes: [
    paragraph(ricosText("The classic list was written for map-and-compass days. Here is how we pack it "), ricosText("now", italic), ricosText(".")),
    heading(2, "What changed"),
    list(
      "BULLETED_LIST",
      [ricosText("Offline maps", bold), ricosText(" on your phone, with a paper map as the backup.")],
      [ricosText("A power bank", bold), ricosText(" and the right cable: a dead phone is a lost map.")],
      [ricosText("A headlamp, even on day hikes. Autumn light goes early.")],
    ),
    {
      type: "IMAGE",
      nodes: [],
      imageData: {
        image: { src: { url: image("ridge-dawn") }, width: 1500, height: 1000 },
        altText: "A granite ridge in warm dawn light",
        caption: "Pack the night before, and you are walking by first light.",
      },
    },
    heading(3, "Before you go"),
    list(
      "ORDERED_LIST",
      [ricosText("Check the forecast for the summit, not the town.")],
      [ricosText("Tell someone your route and when you will be back.")],
      [ricosText("Pack the list.")],
    ),
    { type: "BLOCKQUOTE", nodes: [paragraph(ricosText("The mountain will still be there tomorrow.", italic))] },
    { type: "DIVIDER", nodes: [], dividerData: {} },
    paragraph(ricosText("Print our "), ricosText("one-page checklist", link(checklist)), ricosText(" and keep it by the door.")),
  ],
  metadata: { version: 1 },
};

/** Rich content, a document, an audio note and trails mentioned (MULTI_REFERENCE, see demoReferences) on some posts. */
const journalExtras: Record<string, Record<string, unknown>> = {
  "ten-essentials-revisited": { article: tenEssentialsArticle, attachment: checklist },
  "why-we-start-early": { audio: media("trail-notes.mp3") },
};

/** Journal posts' MULTI_REFERENCE links to trails: kept outside the items, as the platform keeps them. */
const journalTrails: Record<string, string[]> = {
  "why-we-start-early": ["summit-loop", "goat-pass"],
  "leave-no-trace-in-the-desert": ["red-canyon", "arch-spur", "mesa-top"],
  "trail-care-day-what-we-fixed": ["old-growth"],
  "hiking-with-your-dog": ["shoreline-loop"],
};

export type DemoReference = { collectionId: string; field: string; referringId: string; targetCollectionId: string; referencedIds: string[] };

export function demoReferences(): DemoReference[] {
  return journal.flatMap(([title], index) => {
    const trailSlugs = journalTrails[slugOf(title)];
    return trailSlugs
      ? [
          {
            collectionId: "Journal",
            field: "trails",
            referringId: `journal-${index + 1}`,
            targetCollectionId: "Trails",
            referencedIds: trailSlugs.map((slug) => `trail-${slug}`),
          },
        ]
      : [];
  });
}

/** Items per collection, with `_createdDate`s spread out so the default order is meaningful. */
export function demoItems(): Record<string, SeedItem[]> {
  let minutesAgo = 0;
  const created = () => date(new Date(Date.UTC(2026, 10, 1) - (minutesAgo += 97) * 60_000).toISOString());
  const eventItems = (list: typeof events | typeof outings, idPrefix: string) =>
    list.map(([title, startsAt, timeZone, trail, capacity, summary, hours], index) => ({
      _id: `${idPrefix}-${index + 1}`,
      _createdDate: created(),
      title,
      slug: slugOf(title),
      startsAt: date(startsAt),
      timeZone,
      trail: `trail-${trail}`,
      capacity,
      summary,
      hours,
      // Fifteen minutes before the start, on the clocks where the outing is.
      meetAt: wallClock(new Date(Date.parse(startsAt) - 15 * 60_000), timeZone),
    }));
  return {
    Regions: regions.map(([slug, title, summary, picture]) => ({
      _id: `region-${slug}`,
      _createdDate: created(),
      title,
      slug,
      summary,
      image: image(picture),
      visitorCentre: visitorCentres[slug],
      website: `https://parks.example/${slug}`,
    })),
    Trails: trails.map(([slug, title, region, distanceKm, elevationGainM, difficulty, dogFriendly, openedOn, tags, picture, text]) => ({
      _id: `trail-${slug}`,
      _createdDate: created(),
      title,
      slug,
      region: `region-${region}`,
      distanceKm,
      elevationGainM,
      difficulty,
      dogFriendly,
      openedOn,
      tags,
      image: image(picture),
      description: `<p>${text}</p>`,
      ...trailExtras[slug],
    })),
    Events: eventItems(events, "event"),
    [MEMBERS_OUTINGS]: eventItems(outings, "outing"),
    Journal: journal.map(([title, author, publishedAt, tags, picture, body], index) => ({
      _id: `journal-${index + 1}`,
      _createdDate: created(),
      title,
      slug: slugOf(title),
      author,
      publishedAt: date(publishedAt),
      tags: [...tags],
      image: image(picture),
      body,
      ...journalExtras[slugOf(title)],
    })),
  };
}
