/**
 * The shape of the public site's configuration: what a collection entry says about its route,
 * fields, search, filters, sorts, paging, related items and members' reports. The entries
 * themselves are in demo-collections.ts.
 */

/** The platform's field types the site renders, each with a component of its own. */
export const renderedFieldTypes = [
  "TEXT",
  "NUMBER",
  "DATE",
  "DATETIME",
  "TIME",
  "BOOLEAN",
  "URL",
  "IMAGE",
  "MEDIA_GALLERY",
  "VIDEO",
  "AUDIO",
  "DOCUMENT",
  "RICH_TEXT",
  "RICH_CONTENT",
  "ARRAY_STRING",
  "ADDRESS",
  "REFERENCE",
  "MULTI_REFERENCE",
  "OBJECT",
  "ARRAY",
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
  /** For DATETIME fields whose time says nothing (a story's publication): the day alone, as the club's clocks read it. */
  dayOnly?: true;
};

export type FieldConfig = ValueConfig & {
  key: string;
  label: string;
  /** For the main text of an item page: it shows no heading of its own; the label heads its region for screen readers only. */
  unheaded?: true;
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

/**
 * A field the list's search box looks in. A key names one of the item's own fields (text, rich
 * text, tags). `through` names a REFERENCE or MULTI_REFERENCE field instead: the search then finds
 * items whose referenced item holds the words in one of `fields` (a trail by its region's name).
 */
export type SearchField = string | { through: string; fields: readonly [string, ...string[]] };

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

/**
 * Outings: items that happen at a time, in a place with its own time zone, and that members
 * join. Sign-ups live in a collection of their own that members write and only their author
 * may change or remove (SITE_MEMBER_AUTHOR).
 */
export type OutingConfig = {
  /** The DATETIME field of the start. */
  startsField: string;
  /** A TEXT field holding the IANA zone the outing's times are shown in ("America/Denver"). */
  timeZoneField: string;
  /** The NUMBER field of how many may join. */
  capacityField: string;
  /** The NUMBER field of how many hours it takes; calendars show its end from it. */
  hoursField?: string;
  /** The REFERENCE field of the place it starts from: the referenced item's directions (a trail's trailhead) name it in calendars. */
  placeField?: string;
  signupsCollectionId: string;
  /**
   * The sign-ups collection is readable by members only (read SITE_MEMBER), so that visitors
   * cannot see who joined: its places are counted with the member's own client, never cached.
   */
  membersOnlySignups?: boolean;
  /**
   * The organiser: a TEXT field holding the member id of who organises the outing, and the
   * roster collection where each member who joins writes their own name. Its permissions are the
   * author's (SITE_MEMBER_AUTHOR): a member reads their own entries only, and the members the
   * site's owner grants a special permission to read (the organisers) read them all, so the
   * organiser sees private profiles' names and no other member does.
   */
  organiser?: { field: string; rosterCollectionId: string };
};

/**
 * Where an item page offers directions to: an ADDRESS field, or the ADDRESS `part` of an OBJECT
 * field (a trail's trailhead). Only an address with a map location gets the link.
 */
export type DirectionsConfig = { field: string; part?: string; label: string };

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
  /** The DATE or DATETIME field that dates an item; an item without a value there is dated by when it was added. */
  datedBy?: string;
  /** Items with this BOOLEAN field set are for members and never shown on public pages. */
  membersOnlyField?: string;
  fields: readonly FieldConfig[];
  /** Shown on cards, in this order. */
  listFields: readonly string[];
  /** Shown on the item page, in this order. */
  detailFields: readonly string[];
  /** Searched with "contains" (case-insensitive) by the list's search box. */
  searchFields: readonly SearchField[];
  filters: readonly FilterConfig[];
  /** The first is the default. */
  sorts: readonly [SortConfig, ...SortConfig[]];
  pageSizes: readonly [number, ...number[]];
  /** "numbered" (the default): pages 1, 2, 3; "load-more": one list that grows by a page at a time. */
  paging?: "numbered" | "load-more";
  related: readonly RelatedConfig[];
  /** A "Directions" link at the top of each item's page. */
  directions?: DirectionsConfig;
  /** Members' reports shown on, and written from, each item's page. */
  memberReports?: MemberReportsConfig;
  /** Outings members join: places left, sign-ups, times in the outing's zone, a calendar file. */
  outing?: OutingConfig;
};

export type CollectionWithOutings = CollectionConfig & { outing: OutingConfig };

/** A collection whose items members write reports about. */
export type CollectionWithReports = CollectionConfig & { memberReports: MemberReportsConfig };
