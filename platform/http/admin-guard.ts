import type { FastifyInstance, FastifyRequest } from "fastify";
import { DEFAULT_API_KEY, type PlatformConfig } from "../config";
import { externalLoginToken, isAdminKey } from "../context";
import { permissionDenied } from "./errors";

/**
 * Who may use the admin key and the `/_local/*` endpoints (docs/platform/operations.md §1):
 * never a web page from another origin, and the well-known default key only from this machine.
 */

const LOOPBACK_ADDRESSES = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);
const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

function hostnameOf(host: string | undefined): string | null {
  try {
    return host ? new URL(`http://${host}`).hostname : null;
  } catch {
    return null;
  }
}

/**
 * A request from this machine, addressed to this machine by name: the socket is loopback and
 * so is the Host. A web page whose own name resolves to 127.0.0.1 (DNS rebinding) reaches the
 * loopback socket but sends its own name as Host, so it is not taken for this machine.
 */
export function fromLoopback(request: FastifyRequest): boolean {
  return LOOPBACK_ADDRESSES.has(request.socket.remoteAddress ?? "") && LOOPBACK_HOSTNAMES.has(hostnameOf(request.headers.host) ?? "");
}

/** The platform's own origins (every loopback name and the configured host, on the port the request came in on) and the site's. */
function allowedOrigins(request: FastifyRequest, config: PlatformConfig): Set<string> {
  const port = request.socket.localPort;
  const names = [...LOOPBACK_HOSTNAMES, config.host.includes(":") ? `[${config.host}]` : config.host];
  return new Set([...names.map((name) => `http://${name}:${port}`), new URL(config.siteUrl).origin]);
}

/**
 * A browser request made by a page of another origin. Browsers name the page's origin in
 * `Origin` on every cross-origin call and every POST; `Sec-Fetch-Site: cross-site` marks the
 * rest. A top-level navigation is let through: it cannot carry the key or read the answer,
 * and the site links to the mailbox page.
 */
export function fromOtherOrigin(request: FastifyRequest, config: PlatformConfig): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return !allowedOrigins(request, config).has(origin);
  const navigation = request.method === "GET" && request.headers["sec-fetch-mode"] === "navigate";
  return request.headers["sec-fetch-site"] === "cross-site" && !navigation;
}

/** Whether the Authorization header holds the admin key, alone or in the external-login form. */
export function carriesAdminKey(config: PlatformConfig, authorization: string | undefined): boolean {
  const header = authorization?.trim();
  return !!header && (isAdminKey(config, header) || externalLoginToken(config, header) !== null);
}

export function registerAdminGuard(app: FastifyInstance, config: PlatformConfig) {
  app.addHook("onRequest", async (request) => {
    // The route's own pattern when it matched, so an encoded path cannot slip past.
    const local = (request.routeOptions.url ?? request.url).startsWith("/_local/");
    const admin = carriesAdminKey(config, request.headers.authorization);
    if (!local && !admin) return;
    if (fromOtherOrigin(request, config)) {
      throw permissionDenied("Admin and /_local requests are refused from web pages of other origins.");
    }
    if (admin && config.apiKey === DEFAULT_API_KEY && !fromLoopback(request)) {
      throw permissionDenied("The default admin key works only from this machine; set LOCAL_PLATFORM_API_KEY to use the platform from elsewhere.");
    }
  });
}
