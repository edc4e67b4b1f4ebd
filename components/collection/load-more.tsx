"use client";

import Link, { useLinkStatus } from "next/link";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { itemCount, type CollectionConfig } from "@/lib/site-config";

type Props = {
  collection: CollectionConfig;
  /** The cards the server rendered: the first `page` batches. */
  children: ReactNode;
  shown: number;
  /** How many items the list has in all. */
  total: number;
  page: number;
  pageSize: number;
  /** Whether a batch follows those shown. */
  hasMore: boolean;
  /** The list's URL with its search, filters and sort; `page` is set on it. */
  href: string;
};

function withPage(href: string, page: number): string {
  const url = new URL(href, "https://site.invalid");
  url.searchParams.set("page", String(page));
  return url.pathname + url.search;
}

/** The link's words, "Loading…" while its page is on its way. */
function LoadMoreLabel({ label }: { label: string }) {
  return useLinkStatus().pending ? "Loading…" : label;
}

/**
 * A list that grows in place. The URL's `page` counts the batches shown, and "Load more" is a link
 * to the next one: with script the router fetches that page in place of this one in the history
 * (the scroll position kept), so a reload, a shared link and Back from an item all show the same
 * items, at the same place. Once the batch is in, focus moves to its first item and the status
 * line says how many were added. Without script the link loads that URL.
 */
export function LoadMoreList({ collection, children, shown, total, page, pageSize, hasMore, href }: Props) {
  const grid = useRef<HTMLDivElement>(null);
  /** How many were shown when "Load more" was pressed here: the first new item takes the focus. */
  const pressedAt = useRef<number | null>(null);
  // How many the last batch added, while this list stays on screen (worked out while rendering, from the new count).
  const [counted, setCounted] = useState({ shown, added: 0 });
  if (counted.shown !== shown) setCounted({ shown, added: Math.max(0, shown - counted.shown) });

  useEffect(() => {
    const before = pressedAt.current;
    if (before === null || shown <= before) return;
    pressedAt.current = null;
    grid.current?.querySelectorAll<HTMLElement>("[data-item-id]")[before]?.querySelector("a")?.focus();
  }, [shown]);

  const all = !hasMore && total > pageSize;
  return (
    <>
      <div ref={grid} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {children}
      </div>
      <div className="mt-10 flex flex-col items-center gap-3 text-sm">
        <p role="status" className="text-stone-700">
          {counted.added > 0 ? `${counted.added} more loaded. ` : ""}
          {hasMore ? `Showing ${shown} of ${itemCount(collection, total)}.` : `Showing ${itemCount(collection, shown)}${all ? ", all there are." : "."}`}
        </p>
        {hasMore && (
          <Link
            href={withPage(href, page + 1)}
            replace
            scroll={false}
            onClick={() => (pressedAt.current = shown)}
            className="rounded-lg bg-pine-700 px-5 py-2.5 font-medium text-white hover:bg-pine-600"
          >
            <LoadMoreLabel label={`Load more ${collection.plural}`} />
          </Link>
        )}
      </div>
    </>
  );
}
