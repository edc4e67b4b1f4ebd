"use server";

import { z } from "zod";
import { parseListState, searchParamsOf } from "@/lib/search-params";
import { collectionByRoute } from "@/lib/site-config";
import { moreItems, type ItemFeed } from "@/lib/wix/collections";

const request = z.object({
  route: z.string().max(64),
  /** The list's search, filters, sort and size, as its URL's query string. */
  query: z.string().max(4096),
  /** The batch wanted: the list shows the ones before it. */
  page: z.number().int().min(2).max(999_999),
});

/**
 * The next batch of a "load more" list: the list's state read from its query string, as the
 * page reads it, at the batch after those shown. `null` for a request that does not fit a
 * "load more" list, or when the batch cannot be read: the browser then loads the next page's URL instead.
 */
export async function loadMore(input: { route: string; query: string; page: number }): Promise<ItemFeed | null> {
  const parsed = request.safeParse(input);
  const collection = parsed.success ? collectionByRoute(parsed.data.route) : undefined;
  if (!parsed.success || !collection || collection.paging !== "load-more") return null;
  const state = parseListState(collection, { ...searchParamsOf(new URLSearchParams(parsed.data.query)), page: String(parsed.data.page) });
  if (!state) return null;
  try {
    return await moreItems(collection, state);
  } catch (error) {
    // An outage: the page's own URL still works.
    console.error("Loading more items failed:", error instanceof Error ? error.message : error);
    return null;
  }
}
