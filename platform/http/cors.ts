import type { FastifyInstance } from "fastify";
import type { PlatformConfig } from "../config";
import { carriesAdminKey } from "./admin-guard";

/**
 * Opt-in CORS for a browser app of one's own (docs/platform/operations.md §1): only the origins
 * named in LOCAL_PLATFORM_CORS_ORIGINS, only for the public API. `/_local/*` and any call with the
 * admin key get no CORS header, so a page can neither make them work nor read their refusal; the
 * admin guard refuses them from other origins all the same. Without the setting nothing changes:
 * no header at all, and a preflight is a 404.
 */

const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE";
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = "600";

export function registerCors(app: FastifyInstance, config: PlatformConfig) {
  const origins = new Set(config.corsOrigins);
  if (origins.size === 0) return;
  app.addHook("onRequest", async (request, reply) => {
    const origin = request.headers.origin;
    reply.header("vary", "Origin");
    if (!origin || !origins.has(origin) || request.url.startsWith("/_local/") || carriesAdminKey(config, request.headers.authorization)) return;
    reply.header("access-control-allow-origin", origin).header("access-control-expose-headers", "x-wix-request-id");
    const preflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
    if (!preflight) return;
    const asked = request.headers["access-control-request-headers"];
    return reply
      .status(204)
      .header("access-control-allow-methods", ALLOWED_METHODS)
      .header("access-control-allow-headers", typeof asked === "string" ? asked : "authorization, content-type")
      .header("access-control-max-age", PREFLIGHT_MAX_AGE)
      .send();
  });
}
