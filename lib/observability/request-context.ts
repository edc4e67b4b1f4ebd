import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the server entry (server/site-server.ts) knows about the request being served, and
 * what the site's code adds to it while serving it: the socket's address (the one client
 * address nobody can forge) and the request ids of the platform calls it caused.
 */
export type RequestContext = {
  socketAddress: string | null;
  platformRequestIds: string[];
  /** Present on the renders the page cache fills (server/page-cache): what they read, and whether they may be kept. */
  render?: RenderRecord;
  /** The page answered "not found" in place of its content (components/not-found-page.tsx): the server entry sends it with 404. */
  notFound?: boolean;
};

/**
 * The data tags a render read, and whether any part of it fell back to an "unavailable" answer.
 * A render made for the page cache's template member also notes whether it read anything with
 * the session's own tokens (`personal`), and whose content it showed (`owners`, member ids).
 */
export type RenderRecord = { tags: Set<string>; degraded: boolean; personal: boolean; owners: Set<string> };

/** Enough ids to trace a page; a runaway loop of calls cannot grow one log line without bound. */
const MAX_PLATFORM_REQUEST_IDS = 32;

const STORE = Symbol.for("ridgeline.request-context");

/**
 * One store per process. Next.js bundles this module into every route and into middleware,
 * each bundle with its own copy, and the server entry has another: a module-level store
 * would be a different one in each.
 */
function storage(): AsyncLocalStorage<RequestContext> {
  const global = globalThis as typeof globalThis & { [STORE]?: AsyncLocalStorage<RequestContext> };
  return (global[STORE] ??= new AsyncLocalStorage());
}

export function runInRequestContext<T>(context: RequestContext, serve: () => T): T {
  return storage().run(context, serve);
}

/** The request being served, or undefined outside one (tests, `next dev` without the server entry, background work). */
export function currentRequestContext(): RequestContext | undefined {
  return storage().getStore();
}

/** Remembers a platform request id for the request log line. */
export function notePlatformRequestId(id: string | null): void {
  const context = currentRequestContext();
  if (id && context && context.platformRequestIds.length < MAX_PLATFORM_REQUEST_IDS) context.platformRequestIds.push(id);
}

/** The page being rendered is a "not found" answer: the server entry sends it with status 404. */
export function noteNotFound(): void {
  const context = currentRequestContext();
  if (context) context.notFound = true;
}
