"use client";

import type { ComponentProps } from "react";
import { lazyInPage } from "@/components/lazy-in-page";
import type * as LoadMore from "./load-more";

/**
 * "Load more" is how the journal pages; the other lists turn numbered pages. All lists share one
 * route, so only the lists that grow in place download its code (and the site configuration it
 * needs), keeping the numbered lists within their JavaScript budget (docs/performance.md). The
 * server renders it into the page, "Load more" link included, so the list grows without script.
 */
const LazyLoadMoreList = lazyInPage<typeof LoadMore>(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the server renders it at once (lazyInPage)
  typeof window === "undefined" ? require("./load-more") : () => import("./load-more"),
)((module) => module.LoadMoreList);

// A component of its own, not the lazy object: what the server's page names must be a function.
export function LoadMoreList(props: ComponentProps<typeof LoadMore.LoadMoreList>) {
  return <LazyLoadMoreList {...props} />;
}
