import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { schemaViolations } from "../http/errors";

// `listSiteScripts({pageUrl, pageName})` sends both as flat query keys (strings as given); the typings cap their lengths.
const listRequest = z.object({ pageUrl: z.string().max(2048).optional(), pageName: z.string().max(255).optional() });

/**
 * `GET /assets/scripts/v1/site-scripts`: the scripts the site embeds in its pages
 * (`@wix/headless-site-assets` `scripts.listSiteScripts`, which `@wix/astro` calls for every
 * HTML page and fails the page without). Any caller may read them, as on Wix. Page-specific
 * SEO tags (sent for a `pageUrl` with a `pageName` on Wix) need the site's page structure,
 * which a headless site keeps in its own code, so none are added.
 */
export function registerSiteAssetRoutes(app: FastifyInstance, ctx: PlatformContext) {
  app.get("/assets/scripts/v1/site-scripts", async (request) => {
    ctx.callerOf(request);
    const parsed = listRequest.safeParse(request.query);
    if (!parsed.success) throw schemaViolations(parsed.error.issues);
    return { siteScripts: ctx.config.siteScripts };
  });
}
