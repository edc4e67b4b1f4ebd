/**
 * What the public site shows: one entry per collection, with its route, fields, search,
 * filters, sorts and page size (their shape in types.ts, the demo club's entries in
 * demo-collections.ts). The list and item pages are generic and read only this folder, so
 * pointing the site at another Wix site's collections means editing its entries, not pages.
 */
import { memberOutings, outingCollections, siteCollections } from "./demo-collections";
import type { CollectionConfig, CollectionWithOutings, CollectionWithReports, FieldConfig } from "./types";

export * from "./types";
export { memberOutings, outingCollections, siteCollections } from "./demo-collections";

/** The collections whose items members write reports about. */
export const reportedCollections = siteCollections.filter((collection): collection is CollectionWithReports => collection.memberReports !== undefined);

/** Every collection the site reads: each listed one, members' outings, their reports and sign-ups. */
export const readCollectionIds: readonly string[] = [
  ...new Set(
    [...siteCollections, memberOutings].flatMap((collection) =>
      [collection.collectionId, collection.memberReports?.collectionId, collection.outing?.signupsCollectionId].filter((id): id is string => !!id),
    ),
  ),
];

export function collectionByRoute(route: string): CollectionConfig | undefined {
  return siteCollections.find((collection) => collection.route === route);
}

/** "1 story", "6 stories". */
export function itemCount(collection: CollectionConfig, count: number): string {
  return `${count} ${count === 1 ? collection.singular.toLowerCase() : collection.plural}`;
}

/** An outings collection by its route: /outings or /member-outings. */
export function outingCollectionByRoute(route: string): CollectionWithOutings | undefined {
  return outingCollections.find((collection) => collection.route === route);
}

export function fieldOf(collection: CollectionConfig, key: string): FieldConfig | undefined {
  return collection.fields.find((field) => field.key === key);
}

export const siteName = "Ridgeline Hiking Club";

/**
 * The club's own clocks (its home trails are around Alder Springs, Colorado): a date and time
 * without a zone of its own (a story's publication) is shown in it, never in UTC. Outings carry
 * their own zone.
 */
export const clubTimeZone = "America/Denver";
