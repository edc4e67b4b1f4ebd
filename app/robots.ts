import type { MetadataRoute } from "next";
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";

export default function robots(): MetadataRoute.Robots {
  return {
    // Member and sign-in pages are personal; everything else is for crawlers.
    rules: { userAgent: "*", allow: "/", disallow: ["/account", "/api/"] },
    sitemap: new URL("/sitemap.xml", getConfig().siteUrl).toString(),
  };
}
