import path from "node:path";
import type { NextConfig } from "next";
import { securityHeaders } from "./lib/security/policy";
import { WIX_IMAGE_ORIGIN } from "./lib/wix/media-origins";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // A self-contained server in .next/standalone with only the files it needs (docs/deployment.md).
  output: "standalone",
  // Native and server-only packages stay out of the bundle.
  serverExternalPackages: ["pino", "redis", "rate-limiter-flexible"],
  // The site's own sources only: the build (and the container) type-checks without the local
  // platform's workspace or the tests, which `npm run typecheck` checks with tsconfig.json.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // The contract shared with the local platform is a workspace package of TypeScript sources.
  transpilePackages: ["@ridgeline/platform-contract"],
  // The optimiser's settings are pinned to what the site was designed and measured with, not left
  // to the framework's defaults (Next.js 16 changed several): quality 75, these widths, and a
  // minimum of 60 s in the cache. Local images come from public/media, Wix's from its static host.
  images: {
    remotePatterns: [{ protocol: "https", hostname: new URL(WIX_IMAGE_ORIGIN).hostname }],
    qualities: [75],
    deviceSizes: [640, 750, 828, 1080, 1200, 1920, 2048, 3840],
    imageSizes: [16, 32, 48, 64, 96, 128, 256, 384],
    minimumCacheTTL: 60,
  },
  // Titles, descriptions and Open Graph tags go in the <head> for every client, as search engines
  // and link previews read them there; the pages' metadata comes from the shared cache, so
  // waiting for it costs next to nothing.
  htmlLimitedBots: /.*/,
  // An RSC request's `_rsc` parameter must be the hash of the headers its answer varies on, or it
  // is redirected: a cache keyed on the URL alone (a CDN) can then never hand an RSC answer to a
  // document request or the reverse (docs/performance.md, "Putting a CDN in front").
  experimental: { validateRSCRequestHeaders: true },
  // The handler reads REDIS_URL when the server starts, not when the site is built: with it every
  // instance shares one cache (docs/performance.md). Next's own in-memory copy would hide the
  // others' revalidations.
  cacheHandler: path.resolve("lib/cache/redis-cache-handler.mjs"),
  cacheMaxMemorySize: 0,
  // Fixed when the site is built, so HSTS, which follows SITE_URL at run time, is added by the
  // server entry (server/serve.ts) instead.
  async headers() {
    return [{ source: "/:path*", headers: Object.entries(securityHeaders({ https: false })).map(([key, value]) => ({ key, value })) }];
  },
};

export default nextConfig;
