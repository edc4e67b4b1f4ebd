"use client";

import Link from "next/link";
import { useEffect, useRef, useState, useTransition, type ReactNode } from "react";
import { loadMore } from "@/app/[collection]/actions";
import { itemCount, type CollectionConfig } from "@/lib/site-config";
import type { SiteItem } from "@/lib/wix/site-item";
import { ItemCard } from "./item-card";

type Props = {
  collection: CollectionConfig;
  /** The cards the server rendered: the first `page` batches. */
  children: ReactNode;
  shown: number;
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

/**
 * A list that grows in place: "Load more" fetches the next batch of the list's state, adds it, moves
 * focus to the first new item and says how many are shown. The URL's `page` counts the batches
 * shown, so a reload or a shared link shows the same items; without script the link loads that
 * URL.
 */
export function LoadMoreList({ collection, children, shown, page, pageSize, hasMore, href }: Props) {
  const [added, setAdded] = useState<SiteItem[]>([]);
  const [lastBatch, setLastBatch] = useState(0);
  const [more, setMore] = useState(hasMore);
  const [batches, setBatches] = useState(page);
  /** The first item of the batch just added, which takes the focus once it is on the page. */
  const focusNext = useRef<string | null>(null);
  const [pending, startTransition] = useTransition();
  const grid = useRef<HTMLDivElement>(null);
  const nextHref = withPage(href, batches + 1);

  useEffect(() => {
    const id = focusNext.current;
    if (!id) return;
    focusNext.current = null;
    grid.current?.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"] a`)?.focus();
  }, [added]);

  function loadNext(event: React.MouseEvent<HTMLAnchorElement>) {
    if (!more || pending || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    startTransition(async () => {
      const batch = await loadMore({ route: collection.route, query: new URL(href, "https://site.invalid").search, page: batches + 1 });
      if (!batch) {
        window.location.assign(nextHref);
        return;
      }
      setAdded((previous) => [...previous, ...batch.items]);
      setLastBatch(batch.items.length);
      setMore(batch.hasMore);
      setBatches((count) => count + 1);
      // The address says how much is shown, without a new entry in the history.
      window.history.replaceState(window.history.state, "", nextHref);
      focusNext.current = batch.items[0]?.id ?? null;
    });
  }

  const total = shown + added.length;
  return (
    <>
      <div ref={grid} className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {children}
        {added.map((item) => (
          <ItemCard key={item.id} collection={collection} item={item} />
        ))}
      </div>
      <div className="mt-10 flex flex-col items-center gap-3 text-sm">
        <p role="status" className="text-stone-700">
          {lastBatch > 0 ? `${lastBatch} more loaded. ` : ""}
          Showing {itemCount(collection, total)}
          {more ? "." : total > pageSize ? ", all there are." : "."}
        </p>
        {more && (
          <Link
            href={nextHref}
            scroll={false}
            onClick={loadNext}
            aria-disabled={pending || undefined}
            className="rounded-lg bg-pine-700 px-5 py-2.5 font-medium text-white hover:bg-pine-600 aria-disabled:cursor-wait aria-disabled:opacity-80"
          >
            {pending ? "Loading…" : `Load more ${collection.plural}`}
          </Link>
        )}
      </div>
    </>
  );
}
