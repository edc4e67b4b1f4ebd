"use client";

import { lazy, Suspense, type ComponentProps } from "react";
import type * as LoadMore from "./load-more";

/**
 * "Load more" is how the journal pages; the other lists turn numbered pages. All lists share one
 * route, so only the lists that grow in place download its code (and the site configuration it
 * needs), keeping the numbered lists within their JavaScript budget (docs/performance.md).
 */
const LazyLoadMoreList = lazy(() => import("./load-more").then((module) => ({ default: module.LoadMoreList })));

export function LoadMoreList(props: ComponentProps<typeof LoadMore.LoadMoreList>) {
  return (
    <Suspense fallback={props.children}>
      <LazyLoadMoreList {...props} />
    </Suspense>
  );
}
