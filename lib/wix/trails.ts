import "server-only";
import { z } from "zod";
import { publicRead } from "./client";
import { flag, imageUrl, number, optionalText, plainText, stringList, text } from "./reshape";

/** A trail as the site's pages see it; pages never see raw platform items. */
export type Trail = {
  id: string;
  slug: string;
  title: string;
  regionName?: string;
  distanceKm?: number;
  elevationGainM?: number;
  difficulty?: string;
  dogFriendly: boolean;
  openedOn?: string;
  tags: string[];
  imageUrl?: string;
  summary: string;
};

export type TrailPage = { trails: Trail[]; page: number; pageCount: number };

export const TRAILS_PER_PAGE = 9;

/** With `include("region")` the reference arrives as the region item itself. */
const regionData = z.object({ title: text }).optional().catch(undefined);

const trailData = z.object({
  _id: z.string(),
  slug: text,
  title: text,
  region: regionData,
  distanceKm: number,
  elevationGainM: number,
  difficulty: optionalText,
  dogFriendly: flag,
  openedOn: optionalText,
  tags: stringList,
  image: z.unknown(),
  description: text,
});

/** Reshapes one platform item; an item that does not read as a trail is left out. Exported for tests. */
export function toTrail(item: unknown): Trail[] {
  const parsed = trailData.safeParse(item);
  if (!parsed.success) return [];
  const { _id, region, image, description, ...rest } = parsed.data;
  return [{ ...rest, id: _id, regionName: region?.title || undefined, imageUrl: imageUrl(image), summary: plainText(description) }];
}

/** One page of trails, shortest first. */
export async function listTrails(page: number): Promise<TrailPage> {
  const result = await publicRead((client) =>
    client.items
      .query("Trails")
      .include("region")
      .ascending("distanceKm")
      .skip((page - 1) * TRAILS_PER_PAGE)
      .limit(TRAILS_PER_PAGE)
      .find({ returnTotalCount: true }),
  );
  return {
    trails: result.items.flatMap(toTrail),
    page,
    pageCount: Math.max(1, Math.ceil((result.totalCount ?? 0) / TRAILS_PER_PAGE)),
  };
}

/** The trails added most recently (the platform's default order). */
export async function latestTrails(count: number): Promise<Trail[]> {
  const result = await publicRead((client) => client.items.query("Trails").include("region").limit(count).find());
  return result.items.flatMap(toTrail);
}
