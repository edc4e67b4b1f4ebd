/**
 * Requests refused before anything renders, with a clear 4xx instead of whatever Next.js would
 * make of them (a 500 for some). Pure: tested on its own.
 */

const ALLOWED_METHODS = new Set(["GET", "HEAD", "POST", "OPTIONS"]);
/** Next.js reads this header on client navigations and fails on one it cannot parse. */
const ROUTER_STATE_HEADER = "next-router-state-tree";
const MAX_ROUTER_STATE_LENGTH = 16_384;

export type Refused = { status: 400 | 403 | 405; message: string; headers?: Record<string, string> };

function isReadableRouterState(value: string): boolean {
  if (value.length > MAX_ROUTER_STATE_LENGTH) return false;
  try {
    return Array.isArray(JSON.parse(decodeURIComponent(value)));
  } catch {
    return false;
  }
}

/**
 * A state-changing request is accepted from the site's own pages only. The site's origin comes
 * from configuration, never from Host or X-Forwarded-Host, which a client or proxy can set.
 * A server action without an Origin header is refused too: browsers always send one on POST.
 */
function isForeignPost(method: string, headers: Headers, siteOrigin: string): boolean {
  if (method !== "POST") return false;
  const origin = headers.get("origin");
  if (origin) return origin !== siteOrigin;
  if (headers.has("next-action")) return true;
  const fetchSite = headers.get("sec-fetch-site");
  return fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none";
}

export function refuseRequest(method: string, headers: Headers, siteOrigin: string): Refused | null {
  if (!ALLOWED_METHODS.has(method)) return { status: 405, message: "Method not allowed.", headers: { allow: [...ALLOWED_METHODS].join(", ") } };
  const routerState = headers.get(ROUTER_STATE_HEADER);
  if (routerState !== null && !isReadableRouterState(routerState)) return { status: 400, message: "Bad request." };
  if (isForeignPost(method, headers, siteOrigin)) return { status: 403, message: "This request did not come from this site." };
  return null;
}
