import "server-only";
import { z } from "zod";
import { sessionClient } from "./client";
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

const trailData = z.object({
  _id: z.string(),
  slug: text,
  title: text,
  region: optionalText,
  distanceKm: number,
  elevationGainM: number,
  difficulty: optionalText,
  dogFriendly: flag,
  openedOn: optionalText,
  tags: stringList,
  image: z.unknown(),
  description: text,
});

const regionData = z.object({ _id: z.string(), title: text });

function toTrail(item: unknown, regions: Map<string, string>): Trail | null {
  const parsed = trailData.safeParse(item);
  if (!parsed.success) return null;
  const { _id, region, image, description, ...rest } = parsed.data;
  return { ...rest, id: _id, regionName: region ? regions.get(region) : undefined, imageUrl: imageUrl(image), summary: plainText(description) };
}

async function regionNames(client: Awaited<ReturnType<typeof sessionClient>>): Promise<Map<string, string>> {
  const result = await client.items.query("Regions").limit(100).find();
  return new Map(result.items.flatMap((item) => {
    const region = regionData.safeParse(item);
    return region.success ? [[region.data._id, region.data.title] as const] : [];
  }));
}

/** One page of trails, shortest first. */
export async function listTrails(page: number): Promise<TrailPage> {
  const client = await sessionClient();
  const [result, regions] = await Promise.all([
    client.items
      .query("Trails")
      .ascending("distanceKm")
      .skip((page - 1) * TRAILS_PER_PAGE)
      .limit(TRAILS_PER_PAGE)
      .find({ returnTotalCount: true }),
    regionNames(client),
  ]);
  return {
    trails: result.items.flatMap((item) => toTrail(item, regions) ?? []),
    page,
    pageCount: Math.max(1, Math.ceil((result.totalCount ?? 0) / TRAILS_PER_PAGE)),
  };
}

/** The trails added most recently (the platform's default order). */
export async function latestTrails(count: number): Promise<Trail[]> {
  const client = await sessionClient();
  const [result, regions] = await Promise.all([client.items.query("Trails").limit(count).find(), regionNames(client)]);
  return result.items.flatMap((item) => toTrail(item, regions) ?? []);
}
