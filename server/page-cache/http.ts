import type { IncomingMessage, ServerResponse } from "node:http";
import Negotiator from "negotiator";
import type { Logger } from "pino";
import { announceRemoteRevalidation, onRevalidation } from "@/lib/cache/page-cache-signals";
import type { CachedPage, Rendered } from "./page";
import { isStorable, toRenderedPage } from "./page";
import { PageCache, type CacheState, type SharedPages } from "./page-cache";
import { decide, type PageTarget } from "./request-key";

/**
 * The page cache in front of Next.js's handler (docs/performance.md, "Page cache"): visitors'
 * requests for public pages are answered from memory (or the instances' shared Redis) with
 * the page's own hash-based security policy; everything else goes to Next.js as before.
 */

/** Response header and log field: how the cache answered (BYPASS: it did not). */
export const CACHE_STATE_HEADER = "x-cache";

export type PageCacheSettings = {
  maxBytes: number;
  freshSeconds: number;
  staleSeconds: number;
  shared?: SharedPages;
  /** The security policy of a page whose inline scripts have these hashes. */
  policy: (scriptHashes: string[]) => string;
};

export type PageCacheServer = {
  /** Answers the request, or returns false when Next.js must (the request bypasses the cache). */
  serve(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  readonly cache: PageCache;
  close(): Promise<void>;
};

type Render = (target: PageTarget) => Promise<Rendered & { platformRequestIds: string[] }>;

const ENCODINGS = ["br", "gzip", "identity"];
/** Negotiator takes a server preference for ties (`gzip, br` is a tie); its types do not say so. */
type EncodingsWithPreference = (available: string[], options: { preferred: string[] }) => string[];

function bodyFor(request: IncomingMessage, page: CachedPage): { body: Buffer; encoding?: "br" | "gzip" } {
  const negotiator = new Negotiator(request);
  const [encoding] = (negotiator.encodings as unknown as EncodingsWithPreference).call(negotiator, ENCODINGS, { preferred: ENCODINGS });
  if (encoding === "br") return { body: page.br, encoding };
  if (encoding === "gzip") return { body: page.gzip, encoding };
  return { body: page.body };
}

/** If-None-Match as RFC 9110 compares it for GET: weakly, any of a list, or `*`. */
function notModified(request: IncomingMessage, etag: string): boolean {
  const header = request.headers["if-none-match"];
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

function sendPage(request: IncomingMessage, response: ServerResponse, page: CachedPage, state: CacheState): void {
  // Set apart so the request's log line can read it.
  response.setHeader(CACHE_STATE_HEADER, state);
  const headers: Record<string, string | string[] | number> = { ...page.headers, etag: page.etag };
  if (page.status === 200 && notModified(request, page.etag)) {
    response.writeHead(304, headers);
    response.end();
    return;
  }
  const { body, encoding } = bodyFor(request, page);
  response.writeHead(page.status, { ...headers, "content-length": body.length, ...(encoding && { "content-encoding": encoding }) });
  response.end(request.method === "HEAD" ? undefined : body);
}

export function createPageCacheServer(settings: PageCacheSettings, render: Render, log: Logger): PageCacheServer {
  const cache = new PageCache({
    maxBytes: settings.maxBytes,
    freshMs: settings.freshSeconds * 1000,
    staleMs: settings.staleSeconds * 1000,
    shared: settings.shared,
    onError: (error, what) => log.error({ err: error instanceof Error ? error.message : String(error) }, `page cache: ${what} failed`),
    async render(target) {
      const started = process.hrtime.bigint();
      const rendered = await render(target);
      // A page that sets a cookie belongs to one browser: each waiting request gets its own render.
      if (rendered.headers["set-cookie"] !== undefined) return null;
      const storable = isStorable(rendered);
      log.info(
        {
          render: target.url,
          kind: target.kind,
          status: rendered.status,
          durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
          tags: rendered.tags,
          kept: storable,
          platformRequestIds: rendered.platformRequestIds,
        },
        "page cache render",
      );
      return { page: await toRenderedPage(target, rendered, settings.policy), storable };
    },
  });
  // The site's data cache hears of other instances' revalidations too (lib/wix/cache.ts).
  settings.shared?.onRevalidation(announceRemoteRevalidation);
  const stopListening = onRevalidation((tags) => {
    cache
      .revalidate(tags)
      .catch((error: unknown) => log.error({ err: error instanceof Error ? error.message : String(error) }, "page cache: sharing a revalidation failed"));
  });

  return {
    cache,
    async serve(request, response) {
      const decision = decide(request.method, request.url ?? "/", request.headers);
      if (decision.action === "bypass") return false;
      if (decision.action === "redirect") {
        // The same page under its canonical URL: random parameters make no new entries.
        response.setHeader(CACHE_STATE_HEADER, "HIT");
        response.writeHead(307, { location: decision.location, "cache-control": "public, max-age=300" });
        response.end();
        return true;
      }
      const found = await cache.lookup(decision.target);
      if ("pass" in found) return false;
      sendPage(request, response, found.page, found.state);
      return true;
    },
    async close() {
      stopListening();
      await settings.shared?.close();
    },
  };
}
