import { createHash } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { PageKind } from "./request-key";

/**
 * A rendered page as the page cache keeps and serves it: the body once in each encoding it
 * offers, the headers it answers with (its own security policy and ETag among them), and what
 * decides its life (the data tags it read, when its render started).
 */
export type CachedPage = {
  key: string;
  kind: PageKind;
  url: string;
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  tags: string[];
  /** When the render that made it started (ms): a revalidation after that makes it outdated. */
  renderedAt: number;
  /** A member template (member-template.ts): its placeholders, and the members whose own content it shows. */
  template?: { placeholders: { name: string; initial: string }; owners: string[] };
  /** One member's own page (request-key.ts, `personalTarget`): kept for their cookies, in this instance only. */
  personal?: { memberId: string };
};

/** A page as its render made it, before the cache dates it. */
export type RenderedPage = Omit<CachedPage, "renderedAt">;

/** What a render of a page answered, and what it read. */
export type Rendered = {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  tags: string[];
  /** Some part of the page could not be read and says so: shown, never kept. */
  degraded: boolean;
  /** It read something with the session's own tokens (a template member's render is then not kept). */
  personal: boolean;
  /** The members whose own content it shows (their reports). */
  owners: string[];
};

/** Hop-by-hop and per-response headers, and those the cache sets itself. */
const NOT_KEPT = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "date",
  "content-length",
  "content-encoding",
  "cache-control",
  "content-security-policy",
  "etag",
  "set-cookie",
  "strict-transport-security",
  "x-cache",
]);

/**
 * Visitors' pages may be stored by browsers and shared caches, which must ask again every time
 * (a 304 when nothing changed): an edit shows at once wherever the page is kept. Members'
 * requests must not be answered from a shared cache, hence Cookie in Vary (docs/performance.md).
 */
export const CACHED_PAGE_CACHE_CONTROL = "public, max-age=0, must-revalidate";
/** A page that goes to one member (filled from a template, or their own): never stored by anyone, never served in place of another's. */
export const ONE_MEMBERS_PAGE_CACHE_CONTROL = "private, no-store";
const ADDED_VARY = ["Accept-Encoding", "Cookie"];

/** `<script>` elements without `src`: their text exactly as sent, which the browser hashes. */
export const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/** The base64 sha256 of each distinct inline script, in document order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(([, text]) => createHash("sha256").update(text, "utf8").digest("base64"));
  return [...new Set(hashes)];
}

/** A response is kept only if it is the same for every visitor and complete. */
export function isStorable(rendered: Rendered): boolean {
  const cacheControl = String(rendered.headers["cache-control"] ?? "");
  return rendered.status === 200 && !rendered.degraded && rendered.headers["set-cookie"] === undefined && !/\bno-cache="?set-cookie/i.test(cacheControl);
}

function varyWith(existing: unknown): string {
  const names = String(existing ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of ADDED_VARY) if (!names.some((present) => present.toLowerCase() === name.toLowerCase())) names.push(name);
  return names.join(", ");
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** A body compressed as the cache sends it (zlib runs off the main thread). */
export function compressed(body: Buffer, encoding: "gzip" | "br"): Promise<Buffer> {
  if (encoding === "gzip") return gzip(body, { level: 6 });
  return brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
}

/**
 * Makes the page a render answered: its headers as kept (with `policy`, the security policy made
 * from its own scripts), its ETag, and its body compressed once for every request that will
 * ask for it (zlib runs off the main thread).
 */
export async function toRenderedPage(
  target: { key: string; kind: PageKind; url: string; personal?: object },
  rendered: Rendered,
  policy: (scriptHashes: string[]) => string,
  template?: CachedPage["template"],
): Promise<RenderedPage> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(rendered.headers)) {
    if (value === undefined || NOT_KEPT.has(name.toLowerCase())) continue;
    headers[name.toLowerCase()] = typeof value === "number" ? String(value) : value;
  }
  const html = String(headers["content-type"] ?? "").startsWith("text/html");
  headers["content-security-policy"] = policy(html ? inlineScriptHashes(rendered.body.toString("utf8")) : []);
  headers.vary = varyWith(headers.vary);
  const storable = isStorable(rendered);
  // What is not kept goes to the requests that waited for it with the render's own caching rules.
  headers["cache-control"] = target.personal
    ? ONE_MEMBERS_PAGE_CACHE_CONTROL
    : storable
      ? CACHED_PAGE_CACHE_CONTROL
      : String(rendered.headers["cache-control"] ?? ONE_MEMBERS_PAGE_CACHE_CONTROL);
  // A template is never sent as it is (only the pages filled from it are), and a member's own page is compressed only if they ask for it.
  const [gzipped, brotlied] =
    template || target.personal ? [Buffer.alloc(0), Buffer.alloc(0)] : await Promise.all([compressed(rendered.body, "gzip"), compressed(rendered.body, "br")]);
  return {
    key: target.key,
    kind: target.kind,
    url: target.url,
    status: rendered.status,
    headers,
    body: rendered.body,
    gzip: gzipped,
    br: brotlied,
    etag: `W/"${createHash("sha256").update(rendered.body).digest("base64url").slice(0, 27)}"`,
    tags: [...rendered.tags].sort(),
    ...(template && { template }),
  };
}

/** What a page costs the store: its three bodies and a little for its headers. */
export function pageSize(page: RenderedPage): number {
  return page.body.length + page.gzip.length + page.br.length + 1024;
}
