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
