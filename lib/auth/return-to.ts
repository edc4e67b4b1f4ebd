/**
 * Where to send someone after signing in or out: only a path on this site. Anything that
 * could leave the origin (`//host`, backslashes, schemes, control characters, encoded
 * tricks that resolve elsewhere) falls back to `/` (docs/auth-pitfalls.md P4).
 */
export function safeReturnTo(input: string | null | undefined, siteOrigin: string): string {
  if (!input || input.length > 2048) return "/";
  // One leading slash, not two; no backslashes, whitespace or control characters anywhere.
  if (!input.startsWith("/") || input.startsWith("//") || /[\\\u0000-\u001f\u007f\s]/.test(input)) return "/";
  let url: URL;
  try {
    url = new URL(input, siteOrigin);
  } catch {
    return "/";
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can normalise into a protocol-relative path: `/..//evil` → `//evil`.
  if (url.origin !== new URL(siteOrigin).origin || path.startsWith("//")) return "/";
  return path;
}

/** The path of a page on this site that a Referer names, for a link back to it; `/` for any other Referer, or none. */
export function refererPath(referer: string | null, siteOrigin: string): string {
  const url = referer ? URL.parse(referer) : null;
  if (!url || url.origin !== new URL(siteOrigin).origin) return "/";
  return safeReturnTo(`${url.pathname}${url.search}`, siteOrigin);
}
