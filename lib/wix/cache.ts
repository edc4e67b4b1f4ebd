import "server-only";
import { revalidateTag, unstable_cache, updateTag } from "next/cache";
import { announceRevalidation, isDataTag, noteRenderTags, onRemoteRevalidation } from "@/lib/cache/page-cache-signals";
import { TagChanges } from "@/lib/cache/tag-changes";
import { SharedRuns } from "@/lib/shared-runs";
import { publicRead, type WixClient } from "./client";

/**
 * Reads anyone may make are cached on the server and shared by every visitor: they go through
 * the server's own visitor token, never a visitor's session. Each read is tagged with the
 * collections it touches, so a change to one collection (the revalidation webhook) drops
 * exactly the reads that showed it. Member-dependent reads never come through here.
 */

/** How long a cached read is served before it is read again in the background, whatever happens. */
export const CACHE_LIFE_SECONDS = 300;

/** The tags of data anyone reads: the channel also carries tags of one member's own (`isDataTag` tells them apart). */
export const TAGS = {
  /** Every cached read of one data collection. */
  collection: (collectionId: string) => `wix:collection:${collectionId}`,
  /** Public member profiles. */
  members: "wix:members",
} as const;

/**
 * Runs `read` with the public client, or answers from the cache. The result must be plain
 * data (it is stored as JSON: dates come back as strings, which the reshapers accept).
 */
export function cachedRead<T>(key: ReadonlyArray<string | number>, tags: string[], read: (client: WixClient) => Promise<T>): Promise<T> {
  const keyParts = ["wix", ...key.map(String)];
  // Noted whether the read hits or misses: a cached page must be dropped when this data changes.
  noteRenderTags(tags);
  const shared = JSON.stringify(keyParts);
  return unstable_cache(() => tagChanges.readUnchanged(tags, () => platformReads.run(shared, () => publicRead(read)) as Promise<T>), keyParts, {
    tags,
    revalidate: CACHE_LIFE_SECONDS,
  })();
}

/** A read that overlapped a revalidation of its tags is read again, so the cache never keeps what it read before the change. */
const tagChanges = new TagChanges();

/**
 * Requests that miss the cache together (a cold start, the moment after a revalidation) share
 * one platform read per key instead of each making its own.
 */
const platformReads = new SharedRuns<unknown>();

/**
 * A server action's own write: every cached read and page with one of these tags is dropped, and
 * the page the action renders reads afresh, so the member sees what they just wrote.
 */
export function updateTags(tags: string[]): void {
  dropTags(tags, updateTag);
}

/** Drops every cached read, and every cached page, that carries one of these tags. */
function dropTags(tags: string[], drop: (tag: string) => void): void {
  for (const tag of tags) drop(tag);
  // A read already under way may have started before the change: later misses must not join it,
  // and it reads again before the cache keeps its answer.
  platformReads.forget();
  tagChanges.changed(tags);
  announceRevalidation(tags);
}

// Another instance revalidated (the shared cache in Redis has dropped those reads already): a
// read under way here may hold the old data, as after a revalidation of this instance's own.
// News of no data leaves the reads under way shared.
onRemoteRevalidation(({ tags, everything }) => {
  const dataTags = tags.filter(isDataTag);
  if (!everything && dataTags.length === 0) return;
  platformReads.forget();
  if (everything) tagChanges.changedEverything();
  else tagChanges.changed(dataTags);
});

/** The revalidation webhook: drops every cached read of these collections (and member profiles, when asked). */
export function revalidateCollections(collectionIds: string[], options: { members?: boolean } = {}): string[] {
  const tags = [...collectionIds.map(TAGS.collection), ...(options.members ? [TAGS.members] : [])];
  // Expired at once, as a member's own write is: the next read of the changed data waits for the
  // platform rather than being served the old answer while it refreshes.
  dropTags(tags, (tag) => revalidateTag(tag, { expire: 0 }));
  return tags;
}
