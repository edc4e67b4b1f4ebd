import type { MetadataRoute } from "next";
import { getConfig } from "@/lib/config";
import { siteCollections } from "@/lib/site-config";
import { allSlugs } from "@/lib/wix/collections";

// Built on request from the platform's current items, never at build time.
export const dynamic = "force-dynamic";

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const { siteUrl } = getConfig();
  const url = (path: string) => new URL(path, siteUrl).toString();
  const perCollection = await Promise.all(
    siteCollections.map(async (collection) => [
      { url: url(`/${collection.route}`) },
      ...(await allSlugs(collection)).map((slug) => ({ url: url(`/${collection.route}/${encodeURIComponent(slug)}`) })),
    ]),
  );
  return [{ url: url("/") }, ...perCollection.flat()];
}
