"use server";

import { z } from "zod";
import { collectionByRoute } from "@/lib/site-config";
import { moreItems, type ItemFeed } from "@/lib/wix/collections";

const request = z.object({
  route: z.string().max(64),
  cursor: z.string().min(1).max(4096),
  pageSize: z.number().int(),
});

/**
 * The next batch of a "load more" list, by the cursor the page (or the previous batch) gave.
 * `null` for a request that does not fit a "load more" list, or when the batch cannot be read:
 * the browser then loads the next page's URL instead.
 */
export async function loadMore(input: { route: string; cursor: string; pageSize: number }): Promise<ItemFeed | null> {
  const parsed = request.safeParse(input);
  const collection = parsed.success ? collectionByRoute(parsed.data.route) : undefined;
  if (!parsed.success || !collection || collection.paging !== "load-more" || !collection.pageSizes.includes(parsed.data.pageSize)) return null;
  try {
    return await moreItems(collection, parsed.data.cursor, parsed.data.pageSize);
  } catch (error) {
    // A cursor the platform refuses (expired, altered) or an outage: the page's own URL still works.
    console.error("Loading more items failed:", error instanceof Error ? error.message : error);
    return null;
  }
}
