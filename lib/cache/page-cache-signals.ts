import { currentRequestContext } from "@/lib/observability/request-context";

/**
 * How the site's code talks to the page cache, which lives in the production server
 * (server/page-cache) outside Next.js's bundles: reads note their data tags on the render that
 * made them, a failed read marks the render unfit to keep, and revalidations are announced to
 * whoever listens. The other way, revalidations made on other instances (which the page cache
 * hears through Redis) are passed to the site's data cache. Under `next dev` nothing listens and
 * nothing is recorded.
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

/**
 * A read made with the requester's own tokens: the page depends on who asks, so a render made
 * for the template member is never kept (server/page-cache/member-template.ts).
 */
export function noteRenderPersonal(): void {
  const render = currentRender();
  if (render) render.personal = true;
}

/** The members whose content the page shows and who would see it differently (their own reports' controls). */
export function noteRenderOwners(memberIds: readonly string[]): void {
  const render = currentRender();
  if (render) for (const id of memberIds) render.owners.add(id);
}

/**
 * Tags of one member's own things, not of data anyone reads: `member:<id>` is revalidated when
 * something of theirs changed (the page cache's kept pages of theirs go), `member-sessions:<id>`
 * when their sessions may have ended on the platform (lib/auth/session-check.ts).
 */
const MEMBER_TAG_PREFIX = "member:";
export const MEMBER_SESSIONS_TAG_PREFIX = "member-sessions:";

export const memberTag = (memberId: string) => `${MEMBER_TAG_PREFIX}${memberId}`;

/** The member a `member:` tag names, or undefined for any other tag. */
export function memberOfTag(tag: string): string | undefined {
  return tag.startsWith(MEMBER_TAG_PREFIX) ? tag.slice(MEMBER_TAG_PREFIX.length) : undefined;
}

export const isDataTag = (tag: string) => !tag.startsWith(MEMBER_TAG_PREFIX) && !tag.startsWith(MEMBER_SESSIONS_TAG_PREFIX);

type RevalidationListener = (tags: string[]) => void;
const LISTENERS = Symbol.for("ridgeline.revalidation-listeners");

/** A revalidation another instance made; `everything` when some may have been missed (a lost connection). */
export type RemoteRevalidation = { tags: string[]; everything: boolean };
type RemoteRevalidationListener = (change: RemoteRevalidation) => void;
const REMOTE_LISTENERS = Symbol.for("ridgeline.remote-revalidation-listeners");

/** One list per process: Next.js's bundles and the server entry each have their own copy of this module. */
function listeners<Listener>(key: symbol): Set<Listener> {
  const global = globalThis as typeof globalThis & Record<symbol, Set<Listener> | undefined>;
  return (global[key] ??= new Set());
}

function subscribe<Listener>(key: symbol, listener: Listener): () => void {
  listeners<Listener>(key).add(listener);
  return () => listeners<Listener>(key).delete(listener);
}

export function onRevalidation(listener: RevalidationListener): () => void {
  return subscribe(LISTENERS, listener);
}

export function announceRevalidation(tags: string[]): void {
  for (const listener of listeners<RevalidationListener>(LISTENERS)) listener(tags);
}

/** Something of this member's changed (they wrote or changed something, logged in or out): pages kept for them go, on every instance. */
export function announceMemberChange(memberId: string): void {
  announceRevalidation([memberTag(memberId)]);
}

export function onRemoteRevalidation(listener: RemoteRevalidationListener): () => void {
  return subscribe(REMOTE_LISTENERS, listener);
}

export function announceRemoteRevalidation(change: RemoteRevalidation): void {
  for (const listener of listeners<RemoteRevalidationListener>(REMOTE_LISTENERS)) listener(change);
}
