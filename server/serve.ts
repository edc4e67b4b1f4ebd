import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import nodePath from "node:path";
import pLimit from "p-limit";
import type { Logger } from "pino";
import parseRange from "range-parser";
import { loggablePath, requestLogger, type RequestLine } from "@/lib/observability/log";
import { runInRequestContext, type RequestContext } from "@/lib/observability/request-context";
import { ROUTER_PREFETCH_HEADER, isRouterPrefetchRequest } from "@/lib/auth/prefetch";
import { carriesSiteState } from "@/lib/auth/cookie-names";
import { CACHE_RENDER_HEADER, STRICT_TRANSPORT_SECURITY, securityHeaders } from "@/lib/security/policy";
import {
  MAX_ACTION_BODY_BYTES,
  checkActionBody,
  refuseMisdirectedAction,
  refuseRequest,
  refuseUndecodablePath,
  type BuildActions,
  type Refused,
} from "@/lib/security/request-guard";
import { CACHE_STATE_HEADER, createPageCacheServer, type PageCacheServer, type PageCacheSettings } from "./page-cache/http";
import { renderForCache } from "./page-cache/render";
import { answeringNotFound } from "./not-found-status";
import { asPageRequest, hasBody, readBody, withBody } from "./request-body";

type Handle = (request: IncomingMessage, response: ServerResponse) => Promise<void>;
export type ServeOptions = {
  log: Logger;
  siteOrigin: string;
  https: boolean;
  /** How many requests Next.js handles at once; the rest wait their turn in arrival order. 0: no limit. */
  maxConcurrentRequests: number;
  /** Visitors' public pages answered from memory (server/page-cache); null: every request goes to Next.js. */
  pageCache: PageCacheSettings | null;
  /** The build's server actions (its server-reference manifest): a no-JavaScript form naming another is from an older page. */
  actions: BuildActions;
  /** How long a client has to send its body once its headers are in (default BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
  /** The folder Next.js serves the site's files from (FILE_FOLDERS); without it, every Range is left to Next.js. */
  dir?: string;
};

/**
 * A body is read whole before its request may wait for a render, so a slow or stalled client
 * holds its own connection and nothing else: the most any body may hold (Next.js's own limit for
 * a server action; route handlers bound theirs further), and the time it has to arrive.
 */
const MAX_BODY_BYTES = MAX_ACTION_BODY_BYTES;
const BODY_TIMEOUT_MS = 5_000;

/**
 * What a client has to send in time, checked by Node's HTTP server every second: its headers in
 * 10 s, the whole request in 15 s (a body's own deadline above is shorter), and an idle
 * keep-alive connection is closed after 5 s (and the second of grace Node adds).
 */
const CLIENT_DEADLINES = {
  headersTimeout: 10_000,
  requestTimeout: 15_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} satisfies http.ServerOptions;

/** The production server, with the deadlines above (`deadlines` for tests, which cannot wait that long). */
export function createSiteServer(listener: RequestListener, deadlines: Partial<typeof CLIENT_DEADLINES> = {}): http.Server {
  return http.createServer({ ...CLIENT_DEADLINES, ...deadlines }, listener);
}

/** Health checks arrive every few seconds from the orchestrator; they are logged only at debug level. */
const QUIET_PATHS = new Set(["/api/health"]);

/** Files served as they are, in no time: they never wait behind pages being rendered. Each prefix's folder, in the one Next.js serves. */
const FILE_FOLDERS: Record<string, string> = { "/_next/static/": ".next/static", "/media/": "public/media" };
const FILE_PREFIXES = Object.keys(FILE_FOLDERS);

const isFile = (path: string) => FILE_PREFIXES.some((prefix) => path.startsWith(prefix));

/**
 * Next.js answers some requests by asking this same server for another page over HTTP while the
 * first one holds its render slot: a server action posted to a page that lacks it goes on to one
 * that has it, and a script's action that redirects within the site fetches the next page's
 * payload. Queued behind the requests that wait for it, such a request waits forever once they
 * hold every slot. So each request given a slot carries a random token in this header, and
 * Next.js copies its headers onto those requests: one that shows the token of a request still in
 * its slot runs in that slot, in its context. A client cannot guess a token, nor use one past
 * its request's end; any other value is dropped.
 */
export const SLOT_HEADER = "x-ridgeline-render-slot";

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * Requests Next.js would answer with a 500 are refused here, before it sees them: methods
 * its Request cannot represent (TRACE), a router state header it cannot parse, which it
 * strips before middleware runs, so middleware cannot check it (docs/operations.md), and a
 * path it cannot decode.
 */
function refuseEarly(request: IncomingMessage, response: ServerResponse, options: ServeOptions): boolean {
  const refused = refuseRequest(request.method ?? "GET", headersOf(request), options.siteOrigin) ?? refuseUndecodablePath(request.url ?? "/");
  if (refused) sendRefusal(response, refused, options);
  return refused !== null;
}

function sendRefusal(response: ServerResponse, refused: Refused, options: ServeOptions, closing = false): void {
  response.writeHead(refused.status, {
    ...securityHeaders({ https: options.https }),
    ...refused.headers,
    "content-type": "text/plain; charset=utf-8",
    "cache-control": "no-store",
    ...(closing && { connection: "close" }),
  });
  response.end(refused.message);
}

/** What a client asks with any of these, Next.js decides before a Range (a 304, a 412, or the whole file for a stale If-Range). */
const CONDITIONAL_HEADERS = ["if-range", "if-none-match", "if-modified-since", "if-match", "if-unmodified-since"];

/**
 * Next.js serves a file with `send`, which refuses a Range it cannot satisfy (past the end,
 * backwards) with a 416 that Next.js then renders as a page `/416`, which does not exist: a 500.
 * Such a request is answered here, read by send's own parser: 416, with the file's size. A
 * conditional one gets the whole file from Next.js instead, as a server always may.
 */
async function refuseUnsatisfiableRange(request: IncomingMessage, response: ServerResponse, path: string, options: ServeOptions): Promise<boolean> {
  const range = request.headers.range;
  const prefix = FILE_PREFIXES.find((one) => path.startsWith(one));
  if (!options.dir || range === undefined || !/^ *bytes=/.test(range) || !prefix) return false;
  const folder = nodePath.join(options.dir, FILE_FOLDERS[prefix]);
  const file = nodePath.join(folder, decodeURIComponent(path.slice(prefix.length)));
  if (!file.startsWith(folder + nodePath.sep)) return false;
  const size = await fs.stat(file).then(
    (stats) => (stats.isFile() ? stats.size : null),
    () => null,
  );
  if (size === null || parseRange(size, range, { combine: true }) !== -1) return false;
  if (CONDITIONAL_HEADERS.some((name) => request.headers[name] !== undefined)) {
    delete request.headers.range;
    return false;
  }
  sendRefusal(response, { status: 416, message: "The range is not in the file.", headers: { "content-range": `bytes */${size}` } }, options);
  return true;
}

/**
 * A POST to a page may be a server action, which Next.js parses itself and answers 500 when it
 * cannot (a body over its 1 MB limit, bad JSON, cut-short multipart, arguments React cannot
 * decode, a request addressed to another host): it is checked here first, its body read whole,
 * and refused with 413 or 400, or handed on as it came. Route handlers (`/api/`) get their
 * bodies read whole too, and check what they hold themselves.
 */
const mayBeServerAction = (request: IncomingMessage, path: string) => request.method === "POST" && !path.startsWith("/api/");

/** The page a no-JavaScript form of an older build gets instead (app/page-updated/page.tsx). */
const PAGE_UPDATED_PATH = "/page-updated";

/** Next.js renders the page as for a GET, with 200; the form's POST was not taken, and its answer says so. */
function answeringConflict(response: ServerResponse): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((status: number, ...rest: unknown[]) => writeHead(status === 200 ? 409 : status, ...rest)) as ServerResponse["writeHead"];
}

/** The request with its body read whole, for Next.js to read again; null when it was refused here or its client left. */
async function readFirst(
  request: IncomingMessage,
  response: ServerResponse,
  options: ServeOptions,
): Promise<{ request: IncomingMessage; body: Buffer } | null> {
  const body = await readBody(request, MAX_BODY_BYTES, options.bodyTimeoutMs ?? BODY_TIMEOUT_MS);
  if (Buffer.isBuffer(body)) return { request: withBody(request, body), body };
  // The rest of a body too large or too slow is not worth waiting for: the connection closes.
  if (body === "too-large") sendRefusal(response, { status: 413, message: "The request is too large." }, options, true);
  if (body === "too-slow") sendRefusal(response, { status: 408, message: "The request took too long to arrive." }, options, true);
  return null;
}

/** The request Next.js is to answer, or null when it has been refused here. */
async function checkedActionRequest(request: IncomingMessage, response: ServerResponse, options: ServeOptions): Promise<IncomingMessage | null> {
  const headers = headersOf(request);
  const misdirected = refuseMisdirectedAction(headers, options.siteOrigin);
  if (misdirected) {
    sendRefusal(response, misdirected, options);
    return null;
  }
  const read = await readFirst(request, response, options);
  if (!read) return null;
  const verdict = await checkActionBody(headers, read.body, options.actions);
  if (verdict === "pass") return read.request;
  if (verdict === "stale-form") {
    // A page loaded before a deploy: the person is told so, on a page of the site, and sent back to it.
    answeringConflict(response);
    return asPageRequest(request, PAGE_UPDATED_PATH);
  }
  sendRefusal(response, verdict, options);
  return null;
}

/**
 * Whatever part of the site answers (middleware, a route handler, a server action, a page),
 * a response that sets a cookie is never stored by any cache (docs/auth-pitfalls.md P10).
 * Checked when the headers go out, after Next.js has set its own Cache-Control.
 */
function noStoreWhenSettingCookies(response: ServerResponse): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((...args: unknown[]) => {
    if (response.hasHeader("set-cookie")) response.setHeader("cache-control", "private, no-store");
    return writeHead(...args);
  }) as ServerResponse["writeHead"];
}

type RequestLogger = ReturnType<typeof requestLogger>;

function logWhenDone(request: IncomingMessage, response: ServerResponse, context: RequestContext, write: RequestLogger): void {
  const started = process.hrtime.bigint();
  response.once("close", () => {
    const path = loggablePath(request.url ?? "/");
    const cache = response.getHeader(CACHE_STATE_HEADER);
    const line: RequestLine = {
      method: request.method,
      path,
      status: response.statusCode,
      durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      platformRequestIds: context.platformRequestIds,
      ...(cache !== undefined && { cache: String(cache) }),
      ...(request.headers["next-action"] !== undefined && { serverAction: true }),
      ...(!response.writableFinished && { aborted: true }),
    };
    write(response.statusCode >= 500 ? "error" : QUIET_PATHS.has(path) ? "debug" : "info", line);
  });
}

/**
 * Wraps Next.js's request handler. Each request runs in its own request context (the socket's
 * address for rate limits, the platform request ids its calls collect) and gets exactly one
 * log line once its response is sent or the client has gone (docs/operations.md). HSTS is set
 * here because it depends on SITE_URL at run time; next.config.ts headers are fixed at build.
 */
export function createRequestListener(handle: Handle, options: ServeOptions): RequestListener & { pageCache: PageCacheServer | null } {
  const limit = options.maxConcurrentRequests > 0 ? pLimit(options.maxConcurrentRequests) : null;
  const queued = <T>(work: () => Promise<T>) => (limit ? limit(work) : work());
  const siteHost = new URL(options.siteOrigin).host;
  const writeRequestLine = requestLogger(options.log);
  // The cache's renders take their turn in the same queue as every other render.
  const pageCache =
    options.pageCache &&
    createPageCacheServer(options.pageCache, (target, cookie) => queued(() => renderForCache(handle, target, siteHost, cookie)), options.log);
  /** The contexts of the requests in a render slot now, by their tokens (SLOT_HEADER). */
  const inSlot = new Map<string, RequestContext>();

  /** Runs a request's render in a slot of its own, with a token that lets Next.js's requests on its behalf share it. */
  const inOwnSlot = (request: IncomingMessage, context: RequestContext, render: () => Promise<void>) =>
    queued(async () => {
      const token = randomBytes(16).toString("base64url");
      inSlot.set(token, context);
      request.headers[SLOT_HEADER] = token;
      try {
        await render();
      } finally {
        inSlot.delete(token);
      }
    });

  /** The context of the request this one is made on behalf of, while that one holds its slot; any other token is dropped. */
  const slotHolder = (request: IncomingMessage): RequestContext | undefined => {
    const token = request.headers[SLOT_HEADER];
    const holder = typeof token === "string" ? inSlot.get(token) : undefined;
    if (!holder) delete request.headers[SLOT_HEADER];
    return holder;
  };

  const fail = (response: ServerResponse) => (error: unknown) => {
    options.log.error({ err: error instanceof Error ? error.message : String(error) }, "request handler failed");
    if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    response.end("Internal Server Error");
  };

  /**
   * Next.js answers. Done when it is, or when the connection closes: Next.js may never settle a
   * render whose client went away (a prefetch the browser cancelled), and that must not keep its place.
   */
  const toNext = (request: IncomingMessage, response: ServerResponse, context: RequestContext, path: string, inHoldersSlot: boolean) => {
    if (pageCache && !isFile(path)) response.setHeader(CACHE_STATE_HEADER, "BYPASS");
    noStoreWhenSettingCookies(response);
    answeringNotFound(request, response, context);
    const run = () =>
      new Promise<void>((resolve, reject) => {
        // A client that gave up while its request waited is not worth a render.
        if (response.destroyed) return resolve();
        response.once("close", resolve);
        runInRequestContext(context, () => handle(request, response)).then(resolve, reject);
      });
    (QUIET_PATHS.has(path) || isFile(path) || inHoldersSlot ? run() : inOwnSlot(request, context, run)).catch(fail(response));
  };

  const listener: RequestListener = (request, response) => {
    // A request made on behalf of another is part of it: the other's client address and log of platform calls.
    const holder = slotHolder(request);
    const context: RequestContext = holder ?? { socketAddress: request.socket.remoteAddress ?? null, platformRequestIds: [] };
    logWhenDone(request, response, context, writeRequestLine);
    if (options.https) response.setHeader("strict-transport-security", STRICT_TRANSPORT_SECURITY);
    if (refuseEarly(request, response, options)) return;
    if (pageCache && request.method !== "GET" && request.method !== "HEAD" && carriesSiteState(request.headers.cookie)) {
      // A member's form or action may have changed what their kept pages show: those go once it is answered.
      const { cookie } = request.headers;
      response.once("finish", () => {
        pageCache
          .answeredChange(cookie)
          .catch((error: unknown) =>
            options.log.error({ err: error instanceof Error ? error.message : String(error) }, "page cache: dropping a member's pages failed"),
          );
      });
    }
    // Only the page cache's own renders may ask for a page without a nonce.
    delete request.headers[CACHE_RENDER_HEADER];
    // Middleware cannot see Next.js's prefetch headers; only this server names a prefetch to it.
    delete request.headers[ROUTER_PREFETCH_HEADER];
    if (isRouterPrefetchRequest(request.headers)) request.headers[ROUTER_PREFETCH_HEADER] = "1";
    const path = (request.url ?? "/").split("?")[0];
    const inHoldersSlot = holder !== undefined;
    const answer = (whole: IncomingMessage) => {
      // A page the cache lacks would be rendered in a slot of its own, which a request on behalf of another must not wait for.
      if (!pageCache || isFile(path) || inHoldersSlot) return toNext(whole, response, context, path, inHoldersSlot);
      // In the request's context: the platform calls the cache makes for this request alone go on its log line.
      runInRequestContext(context, () => pageCache.serve(whole, response)).then(
        (served) => served || toNext(whole, response, context, path, inHoldersSlot),
        fail(response),
      );
    };
    // No request waits for a render, or reaches Next.js, before its body is all here.
    if (mayBeServerAction(request, path)) {
      checkedActionRequest(request, response, options).then((checked) => checked && toNext(checked, response, context, path, inHoldersSlot), fail(response));
    } else if (hasBody(request)) {
      readFirst(request, response, options).then((read) => read && answer(read.request), fail(response));
    } else if (isFile(path)) {
      refuseUnsatisfiableRange(request, response, path, options).then((refused) => refused || answer(request), fail(response));
    } else answer(request);
  };
  return Object.assign(listener, { pageCache });
}
