import type { IncomingMessage, ServerResponse } from "node:http";
import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";
import { RequestCookies } from "next/dist/compiled/@edge-runtime/cookies/index.js";
import type { Logger } from "pino";
import { isRouterPrefetchRequest } from "@/lib/auth/prefetch";
import { readSession, templateSessionCookie, templateViewer } from "@/lib/auth/session-store";
import { announceRemoteRevalidation, memberTag, onRevalidation } from "@/lib/cache/page-cache-signals";
import { notePlatformRequestId } from "@/lib/observability/request-context";
import type { CachedPage, Rendered } from "./page";
import { ONE_MEMBERS_PAGE_CACHE_CONTROL, compressed, isStorable, toRenderedPage } from "./page";
import { PageCache, type CacheState, type SharedPages } from "./page-cache";
import { fillTemplate, fillableName, makeTemplate, newPlaceholders, randomWord, type MemberTemplate } from "./member-template";
import { decide, personalTarget, type PageTarget } from "./request-key";

/**
 * The page cache in front of Next.js's handler (docs/performance.md, "Page cache"): visitors'
 * requests for public pages are answered from memory (or the instances' shared Redis) with
 * the page's own hash-based security policy; everything else goes to Next.js as before.
 */

/** Response header and log field: how the cache answered (BYPASS: it did not). */
export const CACHE_STATE_HEADER = "x-cache";

export type PageCacheSettings = {
  maxBytes: number;
  /** Whether members' views of shared pages are answered from templates (member-template.ts). */
  memberTemplates?: boolean;
  freshSeconds: number;
  /** How long a member's own page is kept for their cookies (`/account`, an outing's page); 0: Next.js renders each view. */
  personalFreshSeconds?: number;
  staleSeconds: number;
  shared?: SharedPages;
  /** The security policy of a page whose inline scripts have these hashes. */
  policy: (scriptHashes: string[]) => string;
};

export type PageCacheServer = {
  /** Answers the request, or returns false when Next.js must (the request bypasses the cache). */
  serve(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  /** A request that may have changed something (a form, a server action) was answered: the pages kept for its member go. */
  answeredChange(cookie: string | undefined): Promise<void>;
  readonly cache: PageCache;
  close(): Promise<void>;
};

/** Renders a target; `cookie`: the Cookie header to render with (the template member's), else none. */
type Render = (target: PageTarget, cookie?: string) => Promise<Rendered & { platformRequestIds: string[] }>;

const ENCODINGS = ["br", "gzip", "identity"];
/** Negotiator takes a server preference for ties (`gzip, br` is a tie); its types do not say so. */
type EncodingsWithPreference = (available: string[], options: { preferred: string[] }) => string[];

function encodingFor(request: IncomingMessage): "br" | "gzip" | "identity" {
  const negotiator = new Negotiator(request);
  const [encoding] = (negotiator.encodings as unknown as EncodingsWithPreference).call(negotiator, ENCODINGS, { preferred: ENCODINGS });
  return encoding === "br" || encoding === "gzip" ? encoding : "identity";
}

function bodyFor(request: IncomingMessage, page: CachedPage): { body: Buffer; encoding?: "br" | "gzip" } {
  const encoding = encodingFor(request);
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

/** The cookies of a raw Cookie header, as the session store reads them. */
const cookiesOf = (header: string | undefined) => new RequestCookies(new Headers(header ? { cookie: header } : {}));

/** Bytes of filled pages kept in memory (bodies and their compressed copies, counted as twice the body). */
const FILLED_PAGES_BYTES = 32 * 1024 * 1024;
/** A body's compressed copies, each made when a client first asks for it. */
type Encoded = Partial<Record<"br" | "gzip", Promise<Buffer>>>;
type FilledPage = { body: Buffer; policy: string; encoded: Encoded };

/** Sends a page meant for one member, compressed as the client asks (made once per copy). */
async function sendOneMembersPage(
  request: IncomingMessage,
  response: ServerResponse,
  page: CachedPage,
  state: CacheState,
  own: { body: Buffer; policy: string; encoded: Encoded },
): Promise<void> {
  const encoding = encodingFor(request);
  const body = encoding === "identity" ? own.body : await (own.encoded[encoding] ??= compressed(own.body, encoding));
  response.setHeader(CACHE_STATE_HEADER, state);
  response.writeHead(page.status, {
    ...page.headers,
    "content-security-policy": own.policy,
    "cache-control": ONE_MEMBERS_PAGE_CACHE_CONTROL,
    "content-length": body.length,
    ...(encoding !== "identity" && { "content-encoding": encoding }),
  });
  response.end(request.method === "HEAD" ? undefined : body);
}

/**
 * The template member of this process: placeholders for the name and initial, an id nobody has
 * and tokens no platform issued. A template another instance made names its own placeholders.
 */
function templateMember() {
  const placeholders = newPlaceholders();
  const secrets = { id: `template-${randomWord()}`, accessToken: `template-${randomWord()}`, refreshToken: `template-${randomWord()}` };
  return {
    placeholders,
    secrets: Object.values(secrets),
    cookie: () => templateSessionCookie({ id: secrets.id, name: placeholders.name, initial: placeholders.initial }, secrets),
  };
}

export function createPageCacheServer(settings: PageCacheSettings, render: Render, log: Logger): PageCacheServer {
  const member = templateMember();
  /** Each template page's parsed form, made once per copy this instance holds. */
  const templates = new WeakMap<CachedPage, MemberTemplate | { unusable: string }>();
  const templateOf = (page: CachedPage) => {
    let template = templates.get(page);
    if (!template)
      templates.set(page, (template = page.template ? makeTemplate(page, page.template.placeholders, member.secrets) : { unusable: "not a template" }));
    return template;
  };

  /** Why a render for the template member cannot be kept as a template, or undefined when it can. */
  const unusableTemplate = (target: PageTarget, rendered: Rendered): string | undefined => {
    if (rendered.personal) return "read with the member's own tokens";
    const made = makeTemplate({ kind: target.kind, body: rendered.body, headers: rendered.headers }, member.placeholders, member.secrets);
    return "unusable" in made ? made.unusable : undefined;
  };

  const cache = new PageCache({
    maxBytes: settings.maxBytes,
    freshMs: settings.freshSeconds * 1000,
    personalFreshMs: (settings.personalFreshSeconds ?? 0) * 1000,
    staleMs: settings.staleSeconds * 1000,
    shared: settings.shared,
    onError: (error, what) => log.error({ err: error instanceof Error ? error.message : String(error) }, `page cache: ${what} failed`),
    async render(target) {
      const started = process.hrtime.bigint();
      const rendered = await render(target, target.personal ? target.personal.cookie : target.member && (await member.cookie()));
      // A member's own page is rendered for the request that asked: its platform calls are that request's.
      if (target.personal) for (const id of rendered.platformRequestIds) notePlatformRequestId(id);
      // A page that sets a cookie belongs to one browser: each waiting request gets its own render.
      if (rendered.headers["set-cookie"] !== undefined) return null;
      const template = target.member && { placeholders: member.placeholders, owners: rendered.owners };
      const unusable = template ? unusableTemplate(target, rendered) : undefined;
      const storable = isStorable(rendered) && !unusable;
      log.info(
        {
          render: target.url,
          kind: target.kind,
          status: rendered.status,
          durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
          tags: rendered.tags,
          kept: storable,
          ...(template && { template: unusable ?? "usable" }),
          platformRequestIds: rendered.platformRequestIds,
        },
        "page cache render",
      );
      return { page: await toRenderedPage(target, rendered, settings.policy, template || undefined), storable };
    },
  });
  // The site's data cache hears of other instances' revalidations too (lib/wix/cache.ts).
  settings.shared?.onRevalidation(announceRemoteRevalidation);
  const stopListening = onRevalidation((tags) => {
    cache
      .revalidate(tags)
      .catch((error: unknown) => log.error({ err: error instanceof Error ? error.message : String(error) }, "page cache: sharing a revalidation failed"));
  });

  /** A member's view from the page's template, or their own kept page, or false when Next.js must render it. */
  async function serveMember(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    // The page first: a member's request for any other page costs no opening of the cookie here.
    const decision = decide(request.method, request.url ?? "/", request.headers, "member");
    const personal = decision.action === "cache" || !settings.personalFreshSeconds ? null : personalTarget(request.method, request.url ?? "/", request.headers);
    if (decision.action !== "cache" && !personal) return false;
    const viewer = await templateViewer(cookiesOf(request.headers.cookie), { prefetch: isRouterPrefetchRequest(request.headers) });
    if (!viewer) return false;
    if (personal) return servePersonal(request, response, { ...personal, personal: { memberId: viewer.id, cookie: request.headers.cookie ?? "" } });
    if (decision.action !== "cache" || !fillableName(viewer.name)) return false;
    const found = await cache.lookup(decision.target);
    if ("pass" in found || !found.page.template) return false;
    // The page shows the member's own content (their reports, with the controls only they get).
    if (found.page.template.owners.includes(viewer.id)) return false;
    const page = filledPage(found.page, viewer.name);
    if (!page) return false;
    await sendOneMembersPage(request, response, found.page, found.state, page);
    return true;
  }

  /** Compressed copies of members' own pages, made as they are asked for. */
  const personalEncodings = new WeakMap<CachedPage, Encoded>();
  async function servePersonal(request: IncomingMessage, response: ServerResponse, target: PageTarget): Promise<boolean> {
    const found = await cache.lookup(target);
    if ("pass" in found) return false;
    let encoded = personalEncodings.get(found.page);
    if (!encoded) personalEncodings.set(found.page, (encoded = {}));
    await sendOneMembersPage(request, response, found.page, found.state, {
      body: found.page.body,
      policy: String(found.page.headers["content-security-policy"]),
      encoded,
    });
    return true;
  }

  /**
   * The template filled in for a name, with its policy and its compressed bodies as they are
   * asked for: kept a while, since members read the same pages again. Two members of the same
   * name get the same bytes, which hold nothing of theirs but that name.
   */
  const filled = new LRUCache<string, FilledPage>({ maxSize: FILLED_PAGES_BYTES, sizeCalculation: (page) => page.body.length * 2 });
  function filledPage(page: CachedPage, name: string): FilledPage | null {
    const key = JSON.stringify([page.key, page.renderedAt, name]);
    const known = filled.get(key);
    if (known) return known;
    const template = templateOf(page);
    if ("unusable" in template) return null;
    const { body, scriptHashes } = fillTemplate(template, name);
    const made: FilledPage = { body, policy: settings.policy(page.kind === "document" ? scriptHashes : []), encoded: {} };
    filled.set(key, made);
    return made;
  }

  return {
    cache,
    async serve(request, response) {
      const decision = decide(request.method, request.url ?? "/", request.headers);
      if (decision.action === "bypass") return decision.reason === "site-cookie" && settings.memberTemplates === true && serveMember(request, response);
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
    async answeredChange(cookie) {
      if (!cookie) return;
      const memberId = (await readSession(cookiesOf(cookie)))?.member?.id;
      if (memberId) await cache.revalidate([memberTag(memberId)]);
    },
    async close() {
      stopListening();
      await settings.shared?.close();
    },
  };
}
