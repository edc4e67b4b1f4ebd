import sanitizeHtml from "sanitize-html";
import { z } from "zod";
import { countryName } from "@/lib/countries";
import { dayInZone, knownTimeZone, zoneName } from "@/lib/outings/time";
import { clubTimeZone, collectionByRoute, type CollectionConfig, type DirectionsConfig, type FieldConfig, type ValueConfig } from "@/lib/site-config";
import { documentFrom, imageUrl, pictureFrom, soundFrom, videoFrom, type Document, type Picture, type Sound, type Video } from "./media";
import { plainText } from "./reshape";
import { richContentBlocks, richContentText, type RichBlock } from "./rich-content";

export type Link = { title: string; href?: string };

export type GalleryEntry =
  { kind: "image"; picture: Picture; title?: string; description?: string } | { kind: "video"; video: Video; title?: string; description?: string };

/** One field's value, reshaped for display; pages never see raw platform values. */
export type FieldValue =
  | { type: "text"; text: string }
  | { type: "number"; value: number; unit?: string }
  /** `timeZone`: the item's own zone, for items that carry one (outings); otherwise shown in UTC. */
  | { type: "date"; iso: string; withTime: boolean; timeZone?: string }
  /** `zone`: the zone's name on the item's day ("MST"), for items that carry one. */
  | { type: "time"; text: string; zone?: string }
  | { type: "boolean"; value: boolean }
  | { type: "url"; href: string; label: string }
  | { type: "image"; picture: Picture }
  | { type: "gallery"; entries: GalleryEntry[] }
  | { type: "video"; video: Video }
  | { type: "audio"; sound: Sound }
  | { type: "document"; document: Document }
  | { type: "rich-text"; html: string }
  | { type: "rich-content"; blocks: RichBlock[] }
  | { type: "tags"; values: string[] }
  | { type: "address"; lines: string[]; mapHref?: string }
  | ({ type: "reference" } & Link)
  | { type: "references"; links: Link[] }
  | { type: "object"; fields: ShownField[] }
  | { type: "list"; items: FieldValue[] }
  /** Any other type: its text, number or yes/no as words. */
  | { type: "plain"; text: string };

export type ShownField = { key: string; label: string; value: FieldValue };

export type SiteItem = {
  id: string;
  slug: string;
  title: string;
  href: string;
  imageUrl?: string;
  summary: string;
  fields: Record<string, ShownField>;
  /** When the item was added and last changed (ISO instants), when the platform says. */
  createdDate?: string;
  updatedDate?: string;
  /** For outings: when (and in which zone), and how many may join. */
  outing?: OutingFacts;
  /** A route planner's page with the way to the item's place (a trail's trailhead), when the item has one on the map. */
  directions?: Directions;
};

export type Directions = { label: string; place?: string; href: string };

/** A point on the map, in degrees. */
export type MapPoint = { latitude: number; longitude: number };

/**
 * `hours`: how long it takes; `place`: where it starts (a trailhead's address) and `placeAt`
 * where that is on the map, when known; `organiserId`: the member who organises it.
 */
export type OutingFacts = {
  startsAt?: string;
  timeZone: string;
  capacity?: number;
  hours?: number;
  place?: string;
  placeAt?: MapPoint;
  organiserId?: string;
};

/**
 * Rich text from the platform, reduced to harmless markup: no scripts, no event handlers,
 * no javascript: (or any non-web) URLs. Exported for tests.
 */
export function sanitiseRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== "iframe"),
    allowedAttributes: { ...sanitizeHtml.defaults.allowedAttributes, a: ["href", "name", "rel"] },
    allowedSchemes: ["http", "https", "mailto"],
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
  });
}

/** The most characters of one text value a page shows: the platform's data may be any size, the page stays bounded. */
export const MAX_TEXT_CHARS = 10_000;
const text = z
  .string()
  .trim()
  .min(1)
  .transform((value) => value.slice(0, MAX_TEXT_CHARS));
const number = z.number().finite();
/** Datetimes arrive as Date objects through the SDK, or as `{ $date }` / ISO text on the wire. */
const instant = z
  .union([z.date(), z.object({ $date: z.string() }).transform((value) => value.$date), z.string()])
  .pipe(z.coerce.date())
  .refine((value) => !Number.isNaN(value.getTime()));
const day = z.iso.date();
/** "hh:mm", "hh:mm:ss" or "hh:mm:ss.SSS" (the platform's formats disagree); shown as hh:mm. */
const time = z.string().regex(/^([01]\d|2[0-3])[:.][0-5]\d([:.][0-5]\d(\.\d{1,3})?)?$/);
const referenced = z.looseObject({ _id: z.string() });
/** Long arrays are cut: a page shows a field, not a data dump. */
const MAX_ELEMENTS = 100;

function linkTo(route: string | undefined, raw: unknown): Link | undefined {
  const target = route ? collectionByRoute(route) : undefined;
  const parsed = referenced.safeParse(raw);
  // An unresolved reference is only an id: nothing a visitor could read.
  if (!target || !parsed.success) return undefined;
  const title = text.safeParse(parsed.data[target.titleField]);
  if (!title.success) return undefined;
  const slug = text.safeParse(parsed.data[target.slugField]);
  return { title: title.data, href: slug.success ? `/${target.route}/${encodeURIComponent(slug.data)}` : undefined };
}

/** URL fields: web pages, e-mail addresses and phone numbers; the visible text says which. */
function urlValue(raw: unknown): FieldValue | undefined {
  const parsed = text.safeParse(raw);
  if (!parsed.success) return undefined;
  try {
    const url = new URL(parsed.data);
    if (url.protocol === "http:" || url.protocol === "https:") return { type: "url", href: url.href, label: url.hostname };
    if (url.protocol === "mailto:" || url.protocol === "tel:") return { type: "url", href: url.href, label: decodeURIComponent(url.pathname) };
  } catch {
    // not a URL
  }
  return undefined;
}

const galleryItem = z.looseObject({
  type: z.string().optional(),
  src: z.string(),
  /** A video's still, shown before it plays. */
  thumbnail: z.string().optional().catch(undefined),
  title: text.optional().catch(undefined),
  description: text.optional().catch(undefined),
  alt: text.optional().catch(undefined),
});

function galleryEntry(raw: unknown): GalleryEntry[] {
  const parsed = galleryItem.safeParse(raw);
  if (!parsed.success) return [];
  const { type, src, thumbnail, title, description, alt } = parsed.data;
  const words = { ...(title && { title }), ...(description && { description }) };
  if (type === "video") {
    const video = videoFrom(src);
    const poster = video?.poster ?? imageUrl(thumbnail);
    return video ? [{ kind: "video", video: { ...video, ...(poster && { poster }) }, ...words }] : [];
  }
  const picture = pictureFrom(src, alt ?? description ?? title ?? "");
  return picture ? [{ kind: "image", picture, ...words }] : [];
}

const part = text.optional().catch(undefined);
const address = z.object({
  formatted: part,
  addressLine: part,
  addressLine2: part,
  streetAddress: z.object({ number: part, name: part, apt: part }).optional().catch(undefined),
  city: part,
  subdivision: part,
  postalCode: part,
  country: part,
  location: z
    .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
    .optional()
    .catch(undefined),
});

/** An address on the lines a letter would have; the formatted text when there are no parts. */
function addressValue(raw: unknown): FieldValue | undefined {
  const parsed = address.safeParse(raw);
  if (!parsed.success) return undefined;
  const { formatted, addressLine, addressLine2, streetAddress, city, subdivision, postalCode, country, location } = parsed.data;
  const street = [streetAddress?.number, streetAddress?.name].filter(Boolean).join(" ") || addressLine;
  const region = subdivision?.replace(/^[A-Z]{2}-/, "");
  const place = [city, [region, postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  const structured = [street, streetAddress?.apt ?? addressLine2, place, country && countryName(country)].filter((line): line is string => Boolean(line));
  const lines = structured.length > 0 ? structured : formatted ? [formatted] : [];
  if (lines.length === 0) return undefined;
  const mapHref = location
    ? `https://www.openstreetmap.org/?mlat=${location.latitude}&mlon=${location.longitude}#map=15/${location.latitude}/${location.longitude}`
    : undefined;
  return { type: "address", lines, ...(mapHref && { mapHref }) };
}

/**
 * Directions to the configured address, when it has a map location: the route planner of Google
 * Maps' URL scheme, which starts from where the visitor is and opens the maps app on a phone.
 */
function directionsTo(config: DirectionsConfig, data: Record<string, unknown>): Directions | undefined {
  const found = placeOf(config, data);
  if (!found) return undefined;
  const { formatted, location } = found;
  const href = `https://www.google.com/maps/dir/?${new URLSearchParams({ api: "1", destination: `${location.latitude},${location.longitude}` })}`;
  return { label: config.label, ...(formatted && { place: formatted }), href };
}

/** The configured address's name and map location, when it has a location. */
function placeOf(config: DirectionsConfig, data: Record<string, unknown>): { formatted?: string; location: MapPoint } | undefined {
  const value = data[config.field];
  const raw = config.part ? (typeof value === "object" && value !== null ? (value as Record<string, unknown>)[config.part] : undefined) : value;
  const parsed = address.safeParse(raw);
  if (!parsed.success || !parsed.data.location) return undefined;
  return { formatted: parsed.data.formatted, location: parsed.data.location };
}

function objectValue(config: ValueConfig, raw: unknown): FieldValue | undefined {
  const parsed = z.record(z.string(), z.unknown()).safeParse(raw);
  if (!parsed.success) return undefined;
  // Without configured parts, the object's plain values are shown under their own keys.
  const parts = config.fields ?? Object.keys(parsed.data).map((key): FieldConfig => ({ key, label: key, type: "ANY" }));
  const fields = parts.flatMap((field) => {
    const value = fieldValue(field, parsed.data[field.key]);
    return value ? [{ key: field.key, label: field.label, value }] : [];
  });
  return fields.length ? { type: "object", fields } : undefined;
}

function listValue(element: ValueConfig, raw: unknown): FieldValue | undefined {
  const parsed = z.array(z.unknown()).safeParse(raw);
  if (!parsed.success) return undefined;
  const items = parsed.data.slice(0, MAX_ELEMENTS).flatMap((entry) => fieldValue(element, entry) ?? []);
  return items.length ? { type: "list", items } : undefined;
}

/** Types the site has no component for: words, numbers and yes/no, or a list of them. */
function plainValue(raw: unknown): FieldValue | undefined {
  if (typeof raw === "string") return raw.trim() ? { type: "plain", text: raw.trim() } : undefined;
  if (typeof raw === "number" && Number.isFinite(raw)) return { type: "plain", text: String(raw) };
  if (typeof raw === "boolean") return { type: "plain", text: raw ? "Yes" : "No" };
  if (Array.isArray(raw)) {
    const items = raw.slice(0, MAX_ELEMENTS).flatMap((entry) => (Array.isArray(entry) ? [] : (plainValue(entry) ?? [])));
    return items.length ? { type: "list", items } : undefined;
  }
  return undefined;
}

/** Reads one value by its configured type; undefined when empty or not of that type. Exported for tests. */
export function fieldValue(config: ValueConfig, raw: unknown): FieldValue | undefined {
  switch (config.type) {
    case "TEXT": {
      const parsed = text.safeParse(raw);
      return parsed.success ? { type: "text", text: parsed.data } : undefined;
    }
    case "NUMBER": {
      const parsed = number.safeParse(raw);
      return parsed.success ? { type: "number", value: parsed.data, ...(config.unit && { unit: config.unit }) } : undefined;
    }
    case "DATE": {
      const parsed = day.safeParse(raw);
      return parsed.success ? { type: "date", iso: parsed.data, withTime: false } : undefined;
    }
    case "DATETIME": {
      const parsed = instant.safeParse(raw);
      if (!parsed.success) return undefined;
      return config.dayOnly
        ? { type: "date", iso: dayInZone(parsed.data, clubTimeZone), withTime: false }
        : { type: "date", iso: parsed.data.toISOString(), withTime: true };
    }
    case "TIME": {
      const parsed = time.safeParse(raw);
      return parsed.success ? { type: "time", text: parsed.data.slice(0, 5).replace(".", ":") } : undefined;
    }
    case "BOOLEAN":
      return typeof raw === "boolean" ? { type: "boolean", value: raw } : undefined;
    case "URL":
      return urlValue(raw);
    case "IMAGE": {
      const picture = pictureFrom(raw);
      return picture ? { type: "image", picture } : undefined;
    }
    case "MEDIA_GALLERY": {
      const parsed = z.array(z.unknown()).safeParse(raw);
      const entries = parsed.success ? parsed.data.slice(0, MAX_ELEMENTS).flatMap(galleryEntry) : [];
      return entries.length ? { type: "gallery", entries } : undefined;
    }
    case "VIDEO": {
      const video = videoFrom(raw);
      return video ? { type: "video", video } : undefined;
    }
    case "AUDIO": {
      const sound = soundFrom(raw);
      return sound ? { type: "audio", sound } : undefined;
    }
    case "DOCUMENT": {
      const document = documentFrom(raw);
      return document ? { type: "document", document } : undefined;
    }
    case "RICH_TEXT": {
      const parsed = text.safeParse(raw);
      const html = parsed.success ? sanitiseRichText(parsed.data) : "";
      return html.trim() ? { type: "rich-text", html } : undefined;
    }
    case "RICH_CONTENT": {
      const blocks = richContentBlocks(raw);
      return blocks.length ? { type: "rich-content", blocks } : undefined;
    }
    case "ARRAY_STRING": {
      const parsed = z.array(z.string()).safeParse(raw);
      const values = parsed.success ? parsed.data.filter(Boolean) : [];
      return values.length ? { type: "tags", values } : undefined;
    }
    case "ADDRESS":
      return addressValue(raw);
    case "REFERENCE": {
      const link = linkTo(config.references, raw);
      return link ? { type: "reference", ...link } : undefined;
    }
    case "MULTI_REFERENCE": {
      const parsed = z.array(z.unknown()).safeParse(raw);
      const links = parsed.success ? parsed.data.slice(0, MAX_ELEMENTS).flatMap((entry) => linkTo(config.references, entry) ?? []) : [];
      return links.length ? { type: "references", links } : undefined;
    }
    case "OBJECT":
      return objectValue(config, raw);
    case "ARRAY":
      return listValue(config.element ?? { type: "ANY" }, raw);
    default:
      return plainValue(raw);
  }
}

/** An item's excerpt: its summary field's words, whether that holds text, rich text or rich content. */
function summaryOf(raw: unknown): string {
  if (typeof raw === "string") return plainText(raw);
  return richContentText(richContentBlocks(raw));
}

const systemDate = instant.optional().catch(undefined);
const itemBase = z.object({ _id: z.string(), _createdDate: systemDate, _updatedDate: systemDate }).passthrough();

/**
 * Reshapes one platform item by the collection's configuration. An item without an id, title
 * or slug, or one marked members-only (defensively: the query already leaves those out), is
 * null.
 */
export function toSiteItem(collection: CollectionConfig, raw: unknown): SiteItem | null {
  const parsed = itemBase.safeParse(raw);
  if (!parsed.success) return null;
  const data = parsed.data as Record<string, unknown>;
  if (collection.membersOnlyField && data[collection.membersOnlyField] !== false && data[collection.membersOnlyField] !== undefined) return null;
  const title = text.safeParse(data[collection.titleField]);
  const slug = text.safeParse(data[collection.slugField]);
  if (!title.success || !slug.success) return null;
  const fields: Record<string, ShownField> = {};
  for (const field of collection.fields) {
    const value = fieldValue(field, data[field.key]);
    if (value) fields[field.key] = { key: field.key, label: field.label, value };
  }
  const createdDate = parsed.data._createdDate?.toISOString();
  const dated = collection.fields.find((field) => field.key === collection.datedBy);
  // An item without its own date is dated by when it was added, so a list by date never shows an undated entry.
  if (dated && !fields[dated.key] && createdDate) {
    // Read as the field is (a day-only DATETIME shows the day); a DATE field shows the day the instant names in UTC.
    const value = dated.type === "DATETIME" ? fieldValue(dated, createdDate) : ({ type: "date", iso: createdDate, withTime: false } as const);
    if (value) fields[dated.key] = { key: dated.key, label: dated.label, value };
  }
  const outing = collection.outing && outingFacts(collection, collection.outing, data, fields);
  const directions = collection.directions && directionsTo(collection.directions, data);
  return {
    id: parsed.data._id,
    slug: slug.data,
    title: title.data,
    href: `/${collection.route}/${encodeURIComponent(slug.data)}`,
    imageUrl: collection.imageField ? imageUrl(data[collection.imageField]) : undefined,
    summary: collection.summaryField ? summaryOf(data[collection.summaryField]) : "",
    fields,
    ...(createdDate && { createdDate }),
    ...(parsed.data._updatedDate && { updatedDate: parsed.data._updatedDate.toISOString() }),
    ...(outing && { outing }),
    ...(directions && { directions }),
  };
}

/**
 * An outing's start, zone and capacity; its date and time fields are put in its zone (a zone
 * the runtime does not know falls back to UTC, which the times then say).
 */
function outingFacts(
  collection: CollectionConfig,
  config: NonNullable<CollectionConfig["outing"]>,
  data: Record<string, unknown>,
  fields: Record<string, ShownField>,
): OutingFacts {
  const timeZone = knownTimeZone(data[config.timeZoneField]) ?? "UTC";
  const starts = fields[config.startsField]?.value;
  const startsAt = starts?.type === "date" ? starts.iso : undefined;
  for (const field of Object.values(fields)) {
    if (field.value.type === "date" && field.value.withTime) field.value = { ...field.value, timeZone };
    if (field.value.type === "time") field.value = { ...field.value, zone: zoneName(startsAt ? new Date(startsAt) : new Date(), timeZone) };
  }
  const capacity = number.int().min(0).safeParse(data[config.capacityField]);
  const hours = config.hoursField
    ? number
        .positive()
        .max(24 * 14)
        .safeParse(data[config.hoursField])
    : undefined;
  const place = config.placeField ? startingPlace(collection, config.placeField, data[config.placeField]) : undefined;
  const organiser = config.organiser && z.string().min(1).safeParse(data[config.organiser.field]);
  return {
    ...(startsAt && { startsAt }),
    timeZone,
    ...(capacity.success && { capacity: capacity.data }),
    ...(hours?.success && { hours: hours.data }),
    ...(place?.formatted && { place: place.formatted }),
    ...(place && { placeAt: place.location }),
    ...(organiser?.success && { organiserId: organiser.data }),
  };
}

/** The place of a referenced item's directions (a trail's trailhead), when the reference was resolved and has one on the map. */
function startingPlace(collection: CollectionConfig, key: string, raw: unknown) {
  const route = collection.fields.find((field) => field.key === key)?.references;
  const target = route ? collectionByRoute(route) : undefined;
  const referencedData = referenced.safeParse(raw);
  if (!target?.directions || !referencedData.success) return undefined;
  return placeOf(target.directions, referencedData.data);
}
