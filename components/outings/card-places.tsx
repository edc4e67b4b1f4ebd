import type { ReactNode } from "react";
import type { CollectionConfig } from "@/lib/site-config";
import { placesLeft, takenPlaces } from "@/lib/wix/signups";
import type { SiteItem } from "@/lib/wix/site-item";
import { PlacesLeft } from "./places-left";

/**
 * "7 of 12 places left" for each outing on a list's cards, by item id, from one cached count for
 * all of them (dropped when anyone joins or cancels); nothing for other collections.
 */
export async function placesLeftOnCards(collection: CollectionConfig, items: SiteItem[]): Promise<Record<string, ReactNode>> {
  if (!collection.outing || items.length === 0) return {};
  const taken = await takenPlaces(
    { ...collection, outing: collection.outing },
    items.map((item) => item.id),
  );
  return Object.fromEntries(
    items.map((item) => [
      item.id,
      <PlacesLeft key={item.id} left={placesLeft(item, taken[item.id] ?? 0)} capacity={item.outing?.capacity} className="text-sm font-medium text-pine-800" />,
    ]),
  );
}
