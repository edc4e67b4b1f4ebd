/**
 * What the public site shows: one entry per collection, with its route, fields, search,
 * filters, sorts and page size. The list and item pages are generic and read only this file,
 * so pointing the site at another Wix site's collections means editing this file, not pages.
 */

/** The platform's field types the site renders, each with a component of its own. */
export const renderedFieldTypes = [
  "TEXT", "NUMBER", "DATE", "DATETIME", "TIME", "BOOLEAN", "URL",
  "IMAGE", "MEDIA_GALLERY", "VIDEO", "AUDIO", "DOCUMENT",
  "RICH_TEXT", "RICH_CONTENT", "ARRAY_STRING", "ADDRESS",
  "REFERENCE", "MULTI_REFERENCE", "OBJECT", "ARRAY",
] as const;

/**
 * Any platform field type may be configured; those not in `renderedFieldTypes` (EMAIL,
 * LANGUAGE, ANY, …) are shown by a plain fallback: text, numbers and lists of them.
 */
export type FieldType = (typeof renderedFieldTypes)[number] | "EMAIL" | "LANGUAGE" | "SLUG" | "PAGE_LINK" | "ANY" | "ARRAY_DOCUMENT";

/** How a value is read and shown, without a name: an ARRAY's elements have this. */
export type ValueConfig = {
  type: FieldType;
  /** Written after numbers ("km"). */
  unit?: string;
  /** For REFERENCE and MULTI_REFERENCE fields: the route of the site collection they point into. */
  references?: string;
  /** For OBJECT fields: the parts shown, in order, each read by its own type. */
  fields?: readonly FieldConfig[];
  /** For ARRAY fields: how each element is read. */
  element?: ValueConfig;
};

export type FieldConfig = ValueConfig & {
  key: string;
  label: string;
};

export type FilterConfig =
  /** Items carrying any of the chosen values (ARRAY_STRING fields). */
  | { kind: "any-of"; field: string; label: string; options: readonly string[] }
  /** One of a fixed set of values (a TEXT field used as a category). */
  | { kind: "choice"; field: string; label: string; options: readonly string[] }
  /** From/to bounds on a NUMBER, DATE or DATETIME field. */
  | { kind: "range"; field: string; label: string; type: "NUMBER" | "DATE" | "DATETIME" }
  /** Yes/no on a BOOLEAN field. */
  | { kind: "yes-no"; field: string; label: string };

export type SortConfig = { id: string; label: string; field: string; order: "asc" | "desc" };

/** Other items shown on an item's page: those referencing it, or sharing its reference. */
export type RelatedConfig = {
  title: string;
  /** The route of the collection the related items come from. */
  from: string;
  /** The REFERENCE field compared. */
  field: string;
  /** "this-item": the field points at this item; "same-value": the field holds the same item as this item's. */
  match: "this-item" | "same-value";
};

/**
 * Reports members write about an item (trail reports): anyone reads them, members write them,
 * and only their author may change or remove them.
 */
export type MemberReportsConfig = {
  collectionId: string;
  /** The REFERENCE field naming the item a report is about. */
  itemField: string;
  title: string;
};

export type CollectionConfig = {
  /** The first path segment: /trails, /trails/summit-loop. */
  route: string;
  /** The platform's collection id. */
  collectionId: string;
  title: string;
  singular: string;
  /** Items in running text: "Showing 6 stories", "Load more stories". */
  plural: string;
  description: string;
  titleField: string;
  slugField: string;
  imageField?: string;
  /** Text or rich text shown as a card's excerpt and the page's description. */
  summaryField?: string;
  /** Items with this BOOLEAN field set are for members and never shown on public pages. */
  membersOnlyField?: string;
  fields: readonly FieldConfig[];
  /** Shown on cards, in this order. */
  listFields: readonly string[];
  /** Shown on the item page, in this order. */
  detailFields: readonly string[];
  /** Searched with "contains" (case-insensitive) by the list's search box. */
  searchFields: readonly string[];
  filters: readonly FilterConfig[];
  /** The first is the default. */
  sorts: readonly [SortConfig, ...SortConfig[]];
  pageSizes: readonly [number, ...number[]];
  /** "numbered" (the default): pages 1, 2, 3; "load-more": one list that grows by a page at a time. */
  paging?: "numbered" | "load-more";
  related: readonly RelatedConfig[];
  /** Members' reports shown on, and written from, each item's page. */
  memberReports?: MemberReportsConfig;
};

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
  detailFields: ["region", "difficulty", "distanceKm", "elevationGainM", "dogFriendly", "openedOn", "tags", "trailhead", "waypoints", "description", "gallery", "video"],
  searchFields: ["title", "description"],
  filters: [
    { kind: "choice", field: "difficulty", label: "Difficulty", options: ["Easy", "Moderate", "Hard"] },
    { kind: "range", field: "distanceKm", label: "Distance (km)", type: "NUMBER" },
    { kind: "yes-no", field: "dogFriendly", label: "Dogs welcome" },
    { kind: "any-of", field: "tags", label: "Tags", options: ["views", "family", "lakes", "forest", "ocean", "full-day", "swimming", "sunset"] },
  ],
  sorts: [
    { id: "shortest", label: "Shortest first", field: "distanceKm", order: "asc" },
    { id: "longest", label: "Longest first", field: "distanceKm", order: "desc" },
    { id: "climb", label: "Least climbing", field: "elevationGainM", order: "asc" },
    { id: "name", label: "Name A–Z", field: "title", order: "asc" },
    { id: "newest", label: "Newest first", field: "openedOn", order: "desc" },
  ],
  pageSizes: [9, 18, 36],
  related: [{ title: "More trails in this region", from: "trails", field: "region", match: "same-value" }],
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

const outings: CollectionConfig = {
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
    { key: "meetAt", label: "Meet at", type: "TIME" },
    { key: "capacity", label: "Places", type: "NUMBER" },
    { key: "summary", label: "What to expect", type: "TEXT" },
  ],
  listFields: ["startsAt", "trail", "capacity"],
  detailFields: ["startsAt", "meetAt", "trail", "capacity", "summary"],
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
  fields: [
    { key: "author", label: "By", type: "TEXT" },
    { key: "publishedAt", label: "Published", type: "DATETIME" },
    { key: "tags", label: "Topics", type: "ARRAY_STRING" },
    { key: "body", label: "Story", type: "RICH_TEXT" },
    { key: "article", label: "In detail", type: "RICH_CONTENT" },
    { key: "audio", label: "Listen", type: "AUDIO" },
    { key: "attachment", label: "Download", type: "DOCUMENT" },
    { key: "trails", label: "Trails in this story", type: "MULTI_REFERENCE", references: "trails" },
  ],
  listFields: ["author", "publishedAt", "tags"],
  detailFields: ["author", "publishedAt", "tags", "trails", "attachment", "body", "article", "audio"],
  searchFields: ["title", "body", "author"],
  filters: [
    { kind: "any-of", field: "tags", label: "Topics", options: ["gear", "safety", "stories", "conservation", "volunteering", "beginners"] },
    { kind: "range", field: "publishedAt", label: "Published", type: "DATETIME" },
  ],
  sorts: [
    { id: "newest", label: "Newest first", field: "publishedAt", order: "desc" },
    { id: "oldest", label: "Oldest first", field: "publishedAt", order: "asc" },
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
export const memberOutings: CollectionConfig = {
  ...outings,
  route: "member-outings",
  collectionId: "MembersOutings",
  title: "Members' outings",
  singular: "Members' outing",
  description: "Smaller groups, longer days: dawn summits, navigation practice and overnight trips, for club members.",
  membersOnlyField: undefined,
  filters: [],
  related: [],
};

export type CollectionWithReports = CollectionConfig & { memberReports: MemberReportsConfig };

/** The collections whose items members write reports about. */
export const reportedCollections = siteCollections.filter((collection): collection is CollectionWithReports => collection.memberReports !== undefined);

export function collectionByRoute(route: string): CollectionConfig | undefined {
  return siteCollections.find((collection) => collection.route === route);
}

/** "1 story", "6 stories". */
export function itemCount(collection: CollectionConfig, count: number): string {
  return `${count} ${count === 1 ? collection.singular.toLowerCase() : collection.plural}`;
}

export function fieldOf(collection: CollectionConfig, key: string): FieldConfig | undefined {
  return collection.fields.find((field) => field.key === key);
}

export const siteName = "Ridgeline Hiking Club";
