import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { schemaViolations } from "../http/errors";
import { essentialProperties } from "./properties";

// `listSiteScripts` and `getSiteMetadata` send `{pageUrl, pageName}` as flat query keys (strings as given); the typings cap their lengths.
const pageRequest = z.object({ pageUrl: z.string().max(2048).optional(), pageName: z.string().max(255).optional() });

/**
 * `GET /assets/scripts/v1/site-scripts` and its `/essentials` and `/metadata` siblings
 * (`@wix/headless-site-assets` `scripts`): the scripts the site embeds in its pages, which
 * `@wix/astro` asks for on every HTML page and fails the page without, and the site's locale,
 * currency, time zone and languages. Any caller may read them, as on Wix. Page-specific SEO tags
 * (sent for a `pageUrl` with a `pageName` on Wix) need the site's page structure, which a
 * headless site keeps in its own code, so none are added.
 */
export function registerSiteAssetRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const checkedPage = (request: FastifyRequest) => {
    ctx.callerOf(request);
    const parsed = pageRequest.safeParse(request.query);
    if (!parsed.success) throw schemaViolations(parsed.error.issues);
  };
  app.get("/assets/scripts/v1/site-scripts", async (request) => {
    checkedPage(request);
    return { siteScripts: ctx.config.siteScripts };
  });
  app.get("/assets/scripts/v1/site-scripts/essentials", async (request) => {
    ctx.callerOf(request);
    return { properties: essentialProperties(ctx.config.siteProperties) };
  });
  app.get("/assets/scripts/v1/site-scripts/metadata", async (request) => {
    checkedPage(request);
    return { siteScripts: ctx.config.siteScripts, properties: essentialProperties(ctx.config.siteProperties) };
  });
}
