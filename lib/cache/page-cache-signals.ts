import { currentRequestContext } from "@/lib/observability/request-context";

/**
 * How the site's code talks to the page cache, which lives in the production server
 * (server/page-cache) outside Next.js's bundles: reads note their data tags on the render that
 * made them, a failed read marks the render unfit to keep, and revalidations are announced to
 * whoever listens. Under `next dev` nothing listens and nothing is recorded.
 */

/** The render being filled into the page cache, if this request is one. */
const currentRender = () => currentRequestContext()?.render;

export function noteRenderTags(tags: readonly string[]): void {
  const render = currentRender();
  if (render) for (const tag of tags) render.tags.add(tag);
}

/** A part of the page says "unavailable, try again": such a page is shown but never kept. */
export function noteRenderDegraded(): void {
  const render = currentRender();
  if (render) render.degraded = true;
}

type RevalidationListener = (tags: string[]) => void;
const LISTENERS = Symbol.for("ridgeline.revalidation-listeners");

/** One list per process: Next.js's bundles and the server entry each have their own copy of this module. */
function listeners(): Set<RevalidationListener> {
  const global = globalThis as typeof globalThis & { [LISTENERS]?: Set<RevalidationListener> };
  return (global[LISTENERS] ??= new Set());
}

export function onRevalidation(listener: RevalidationListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

export function announceRevalidation(tags: string[]): void {
  for (const listener of listeners()) listener(tags);
}
