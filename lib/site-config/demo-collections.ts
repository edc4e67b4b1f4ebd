import type { CollectionConfig, CollectionWithOutings } from "./types";

/**
 * The demo club's collections, as the local platform seeds them. Pointing the site at another
 * Wix site's collections means replacing these entries (README, "Connect a real Wix site").
 */

const trails: CollectionConfig = {
  route: "trails",
  collectionId: "Trails",
  title: "Trails",
  plural: "trails",
  singular: "Trail",
  description: "Every route our club walks, from creek-side strolls to full-day scrambles.",
  titleField: "title",
  slugField: "slug",
  imageField: "image",
  summaryField: "description",
  fields: [
    { key: "region", label: "Region", type: "REFERENCE", references: "regions" },
    { key: "distanceKm", label: "Distance", type: "NUMBER", unit: "km" },
    { key: "elevationGainM", label: "Elevation gain", type: "NUMBER", unit: "m" },
    { key: "difficulty", label: "Difficulty", type: "TEXT" },
    { key: "dogFriendly", label: "Dogs welcome", type: "BOOLEAN" },
    { key: "openedOn", label: "Opened", type: "DATE" },
    { key: "tags", label: "Tags", type: "ARRAY_STRING" },
    { key: "description", label: "About this trail", type: "RICH_TEXT" },
    { key: "gallery", label: "Photos", type: "MEDIA_GALLERY" },
    { key: "video", label: "Video", type: "VIDEO" },
    {
      key: "trailhead",
      label: "Trailhead",
      type: "OBJECT",
      fields: [
        { key: "parking", label: "Parking", type: "TEXT" },
        { key: "toilets", label: "Toilets", type: "BOOLEAN" },
        { key: "gateOpens", label: "Gate opens", type: "TIME" },
        { key: "location", label: "Where", type: "ADDRESS" },
      ],
    },
    {
      key: "waypoints",
      label: "Waypoints",
      type: "ARRAY",
      element: {
        type: "OBJECT",
        fields: [
          { key: "name", label: "Waypoint", type: "TEXT" },
          { key: "km", label: "At", type: "NUMBER", unit: "km" },
        ],
      },
    },
  ],
  listFields: ["region", "difficulty", "distanceKm", "elevationGainM", "dogFriendly", "tags"],
  detailFields: [
    "region",
    "difficulty",
    "distanceKm",
    "elevationGainM",
    "dogFriendly",
    "openedOn",
    "tags",
    "trailhead",
    "waypoints",
    "description",
    "gallery",
    "video",
  ],
  // "Lake Country" finds the trails of that region, though no trail names it.
  searchFields: ["title", "description", "tags", { through: "region", fields: ["title"] }],
  filters: [
    { kind: "choice", field: "difficulty", label: "Difficulty", options: ["Easy", "Moderate", "Hard"] },
    { kind: "range", field: "distanceKm", label: "Distance (km)", type: "NUMBER" },
    { kind: "yes-no", field: "dogFriendly", label: "Dogs welcome" },
    // Every tag a trail has, so each tag on a card is a filter too (components/collection/item-card.tsx).
    {
      kind: "any-of",
      field: "tags",
      label: "Tags",
      options: [
        ...["views", "family", "lakes", "forest", "ocean", "full-day", "swimming", "sunset", "alpine", "arch", "beach", "birds", "canyon"],
        ...["history", "river", "scramble", "shade", "tide-pools", "traverse", "waterfall", "wildlife"],
      ],
    },
  ],
  sorts: [
    { id: "shortest", label: "Shortest first", field: "distanceKm", order: "asc" },
    { id: "longest", label: "Longest first", field: "distanceKm", order: "desc" },
    { id: "climb", label: "Least climbing", field: "elevationGainM", order: "asc" },
    { id: "name", label: "Name A–Z", field: "title", order: "asc" },
    { id: "newest", label: "Newest first", field: "openedOn", order: "desc" },
    { id: "added", label: "Recently added", field: "_createdDate", order: "desc" },
  ],
  pageSizes: [9, 18, 36],
  related: [{ title: "More trails in this region", from: "trails", field: "region", match: "same-value" }],
  directions: { field: "trailhead", part: "location", label: "Directions to the trailhead" },
  memberReports: { collectionId: "TrailReports", itemField: "trail", title: "Trail reports" },
};

const regions: CollectionConfig = {
  route: "regions",
  collectionId: "Regions",
  title: "Regions",
  plural: "regions",
  singular: "Region",
  description: "Five landscapes, from granite crests to quiet lake shores.",
  titleField: "title",
  slugField: "slug",
  imageField: "image",
  summaryField: "summary",
  fields: [
    { key: "summary", label: "About", type: "TEXT" },
    { key: "visitorCentre", label: "Visitor centre", type: "ADDRESS" },
    { key: "website", label: "Park website", type: "URL" },
  ],
  listFields: [],
  detailFields: ["summary", "visitorCentre", "website"],
  searchFields: ["title", "summary"],
  filters: [],
  sorts: [{ id: "name", label: "Name A–Z", field: "title", order: "asc" }],
  pageSizes: [12],
  related: [{ title: "Trails in this region", from: "trails", field: "region", match: "this-item" }],
};

const outings: CollectionWithOutings = {
  route: "outings",
  collectionId: "Events",
  title: "Outings",
  plural: "outings",
  singular: "Outing",
  description: "Group walks led by club members. Everyone is welcome on these.",
  titleField: "title",
  slugField: "slug",
  summaryField: "summary",
  membersOnlyField: "membersOnly",
  fields: [
    { key: "startsAt", label: "Starts", type: "DATETIME" },
    { key: "trail", label: "Trail", type: "REFERENCE", references: "trails" },
    { key: "meetAt", label: "Meeting time", type: "TIME" },
    { key: "capacity", label: "Places", type: "NUMBER" },
    { key: "summary", label: "What to expect", type: "TEXT" },
  ],
  // The capacity shows as places left, next to the button that joins (components/outings).
  listFields: ["startsAt", "trail"],
  detailFields: ["startsAt", "meetAt", "trail", "summary"],
  searchFields: ["title", "summary"],
  filters: [
    { kind: "range", field: "startsAt", label: "Date", type: "DATETIME" },
    { kind: "range", field: "capacity", label: "Places", type: "NUMBER" },
  ],
  sorts: [
    { id: "soonest", label: "Soonest first", field: "startsAt", order: "asc" },
    { id: "latest", label: "Latest first", field: "startsAt", order: "desc" },
    { id: "name", label: "Name A–Z", field: "title", order: "asc" },
  ],
  pageSizes: [10, 20],
  related: [],
  outing: {
    startsField: "startsAt",
    timeZoneField: "timeZone",
    capacityField: "capacity",
    hoursField: "hours",
    placeField: "trail",
    signupsCollectionId: "OutingSignups",
    organiser: { field: "organiser", rosterCollectionId: "OutingRosters" },
  },
};

const journal: CollectionConfig = {
  route: "journal",
  collectionId: "Journal",
  title: "Journal",
  plural: "stories",
  singular: "Story",
  description: "Notes, advice and stories from the trail.",
  titleField: "title",
  slugField: "slug",
  imageField: "image",
  summaryField: "body",
  datedBy: "publishedAt",
  fields: [
    { key: "author", label: "By", type: "TEXT" },
    // A story is published on a day; the hour it went up is noise ("03:00 MDT").
    { key: "publishedAt", label: "Published", type: "DATETIME", dayOnly: true },
    { key: "tags", label: "Topics", type: "ARRAY_STRING" },
    { key: "body", label: "Story", type: "RICH_TEXT", unheaded: true },
    { key: "article", label: "In detail", type: "RICH_CONTENT", unheaded: true },
    { key: "audio", label: "Listen", type: "AUDIO" },
    { key: "attachment", label: "Download", type: "DOCUMENT" },
    { key: "trails", label: "Trails in this story", type: "MULTI_REFERENCE", references: "trails" },
  ],
  listFields: ["author", "publishedAt", "tags"],
  detailFields: ["author", "publishedAt", "tags", "trails", "attachment", "body", "article", "audio"],
  searchFields: ["title", "body", "author", "tags"],
  filters: [
    {
      kind: "any-of",
      field: "tags",
      label: "Topics",
      options: ["gear", "safety", "stories", "conservation", "volunteering", "beginners", "planning", "forest", "desert", "coast"],
    },
    { kind: "range", field: "publishedAt", label: "Published", type: "DATETIME" },
  ],
  sorts: [
    { id: "newest", label: "Newest first", field: "publishedAt", order: "desc" },
    { id: "oldest", label: "Oldest first", field: "publishedAt", order: "asc" },
    { id: "updated", label: "Recently updated", field: "_updatedDate", order: "desc" },
  ],
  pageSizes: [6, 12],
  // Stories read one after another, so the journal grows rather than turning pages.
  paging: "load-more",
  related: [],
};

export const siteCollections: readonly CollectionConfig[] = [trails, regions, outings, journal];

/**
 * Outings only signed-in members may read. The collection's read permission is SITE_MEMBER, so
 * it is read with the member's own session and never cached or shared; it is not one of the
 * public collections, so no public page, sitemap or list can reach it.
 */
export const memberOutings: CollectionWithOutings = {
  ...outings,
  route: "member-outings",
  collectionId: "MembersOutings",
  title: "Members' outings",
  singular: "Members' outing",
  description: "Smaller groups, longer days: dawn summits, navigation practice and overnight trips, for club members.",
  membersOnlyField: undefined,
  filters: [],
  related: [],
  // Who joined a members' outing is for members' eyes: its sign-ups have a collection of their own.
  outing: { ...outings.outing, signupsCollectionId: "MembersOutingSignups", membersOnlySignups: true },
};

/** Collections of outings members join: the public ones and the members' own. */
export const outingCollections: readonly CollectionWithOutings[] = [outings, memberOutings];
