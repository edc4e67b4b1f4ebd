/**
 * True for requests the browser or Next.js makes ahead of a navigation. Such requests must
 * never start a login or a logout, or consume a one-time notice (docs/auth-pitfalls.md P6). Only explicit
 * prefetch headers count: real navigations also send `sec-fetch-mode` and RSC accept headers.
 */
export function isPrefetch(headers: Headers): boolean {
  return (
    headers.has("next-router-prefetch") ||
    headers.has("x-middleware-prefetch") ||
    headers.get("purpose")?.toLowerCase() === "prefetch" ||
    (headers.get("sec-purpose")?.toLowerCase().includes("prefetch") ?? false)
  );
}

/**
 * True when the browser loads a page for the person: a document, or the payload the App Router
 * fetches for a client-side navigation. Not a prefetch, and not the favicon or any other
 * subresource the browser fetches alongside (Fetch Metadata's `sec-fetch-dest`): one of those,
 * sent while a redirect sets a one-time notice, would consume it before the page that shows it.
 * Next.js takes its own headers (`rsc`, `next-router-*`) and `?_rsc` off the request before
 * middleware sees it, so a navigation's payload, and the page a server action redirects to
 * (rendered through such a request, with the browser's headers), arrive as a plain `fetch()`:
 * destination `empty`. A client that sends no Fetch Metadata is taken at its word that a GET is
 * a page.
 */
export function isNavigation(method: string, headers: Headers): boolean {
  if (method !== "GET" || isPrefetch(headers)) return false;
  if (headers.get("rsc") === "1") return true;
  const destination = headers.get("sec-fetch-dest");
  return destination === null || destination === "document" || destination === "empty";
}

/**
 * True when the page's own script sent the request (the App Router fetching a page's payload,
 * or prefetching it): Fetch Metadata's destination `empty`. Such a request must never be
 * answered with a redirect that leads to another origin: the browser would follow it inside
 * the fetch, where the page's policy allows the site's origin only (connect-src 'self').
 */
export function isScriptFetch(headers: Headers): boolean {
  return headers.get("sec-fetch-dest") === "empty";
}

/**
 * Next.js takes its own prefetch headers off a request before middleware sees it, so the site's
 * server (server/serve.ts) names a router prefetch in this header, and drops any a client sends.
 * Under `next dev`, which has no such server, no request carries it.
 */
export const ROUTER_PREFETCH_HEADER = "x-ridgeline-router-prefetch";

/** The raw request's headers, before Next.js takes its own off: a prefetch of the App Router. */
export function isRouterPrefetchRequest(headers: Record<string, string | string[] | undefined>): boolean {
  return headers["next-router-prefetch"] !== undefined || headers["next-router-segment-prefetch"] !== undefined;
}

/** In middleware: the server found this request to be a prefetch of the App Router. */
export function isMarkedRouterPrefetch(headers: Headers): boolean {
  return headers.get(ROUTER_PREFETCH_HEADER) === "1";
}
