import type { Metadata } from "next";
import Link from "next/link";
import { ItemCard, ItemGrid } from "@/components/collection/item-card";
import { ListControls } from "@/components/collection/list-controls";
import { LoadMoreList } from "@/components/collection/lazy-load-more";
import { ResultsHeading } from "@/components/collection/results-focus";
import { Pagination } from "@/components/pagination";
import { placesLeftOnCards } from "@/components/outings/card-places";
import { notFoundMetadata, notFoundPage } from "@/components/not-found-page";
import { PlatformUnavailable } from "@/components/platform-unavailable";
import { backwardRanges, listHref, parseListState, type ListState, type SearchParams } from "@/lib/search-params";
import { collectionByRoute, itemCount, type CollectionConfig } from "@/lib/site-config";
import { feedItems, listItems, whenAvailable, type ItemFeed, type ItemList } from "@/lib/wix/collections";

type Props = { params: Promise<{ collection: string }>; searchParams: Promise<SearchParams> };

/** The list the address asks for, or null when there is no such collection or the query is malformed. */
async function resolve(props: Props): Promise<{ collection: CollectionConfig; state: ListState } | null> {
  const collection = collectionByRoute((await props.params).collection);
  const state = collection && parseListState(collection, await props.searchParams);
  return collection && state ? { collection, state } : null;
}

const loadsMore = (collection: CollectionConfig) => collection.paging === "load-more";

/**
 * "Trails", "Trails, page 2", "Trails matching “lake”, page 2" (a "load more" list has no pages to
 * name); `name` replaces the collection's title.
 */
function listTitle(collection: CollectionConfig, state: ListState, name = collection.title): string {
  const searched = state.query ? ` matching “${state.query}”` : state.filters.length ? " (filtered)" : "";
  return `${name}${searched}${state.page > 1 && !loadsMore(collection) ? `, page ${state.page}` : ""}`;
}

/**
 * The results' heading says what they are ("All trails", "Trails matching “lake”, page 2"), so it
 * never repeats the page's own heading, the collection's title.
 */
function resultsTitle(collection: CollectionConfig, state: ListState): string {
  const narrowed = state.query !== "" || state.filters.length > 0;
  const plural = collection.plural;
  return listTitle(collection, state, narrowed ? plural.charAt(0).toUpperCase() + plural.slice(1) : `All ${plural}`);
}

/** Why a list is empty when a range runs the wrong way round ("the Distance (km) range ends before it starts"), else nothing. */
function backwardReason(collection: CollectionConfig, state: ListState): string | undefined {
  const labels = backwardRanges(collection, state);
  return labels.length
    ? `the ${labels.join(" and ")} ${labels.length === 1 ? "range ends" : "ranges end"} before ${labels.length === 1 ? "it starts" : "they start"}`
    : undefined;
}

function EmptyList({ collection, state }: { collection: CollectionConfig; state: ListState }) {
  const filtered = state.query !== "" || state.filters.length > 0;
  const backward = backwardReason(collection, state);
  const words = backward
    ? `Nothing can match: ${backward}. Put the smaller value first, or:`
    : filtered
      ? "Nothing matches that search. Try another word, fewer filters, or:"
      : `There are no ${collection.plural} yet.`;
  return (
    <div className="rounded-xl border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
      <p>{words}</p>
      {filtered && (
        <Link href={`/${collection.route}`} className="mt-3 inline-block font-medium text-pine-700 underline">
          See all {collection.plural}
        </Link>
      )}
    </div>
  );
}

type NumberedResults = ItemList & { extras: Record<string, React.ReactNode> };

function NumberedList({ collection, state, list }: { collection: CollectionConfig; state: ListState; list: NumberedResults }) {
  const { items, total, pageCount } = list;
  const first = (state.page - 1) * state.pageSize + 1;
  const backward = backwardReason(collection, state);
  // A page past the last (a stale link, the list shorter since): said so, with the way back.
  const pastEnd = total > 0 && state.page > pageCount;
  const pages = pageCount === 1 ? "1 page" : `${pageCount} pages`;
  const status =
    total === 0
      ? `No ${collection.plural} found${backward ? `: ${backward}` : ""}.`
      : pastEnd
        ? `No ${collection.plural} on page ${state.page}: the list has ${pages} (${itemCount(collection, total)}).`
        : `Showing ${first}–${first + items.length - 1} of ${itemCount(collection, total)}, page ${state.page} of ${pageCount}.`;
  return (
    <>
      <ResultsHeading status={status}>{resultsTitle(collection, state)}</ResultsHeading>
      {total === 0 ? (
        <EmptyList collection={collection} state={state} />
      ) : pastEnd ? (
        <div className="rounded-xl border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
          <p>No results on this page: the list is shorter than the link expected.</p>
          <Link href={listHref(collection, { ...state, page: pageCount })} className="mt-3 inline-block font-medium text-pine-700 underline">
            Go to the last page (page {pageCount})
          </Link>
        </div>
      ) : (
        <ItemGrid collection={collection} items={items} firstRow extras={list.extras} />
      )}
      {!pastEnd && <Pagination page={state.page} pageCount={pageCount} hrefFor={(page) => listHref(collection, { ...state, page })} />}
    </>
  );
}

function GrowingList({ collection, state, feed }: { collection: CollectionConfig; state: ListState; feed: ItemFeed }) {
  const firstPage = listHref(collection, { ...state, page: 1 });
  return (
    <>
      <ResultsHeading ignorePage>{resultsTitle(collection, state)}</ResultsHeading>
      {feed.items.length === 0 ? (
        <EmptyList collection={collection} state={state} />
      ) : (
        // A new search, filter or order is a new list; the same list with a batch more stays, and says what it added.
        <LoadMoreList
          key={firstPage}
          collection={collection}
          shown={feed.items.length}
          total={feed.total}
          page={state.page}
          pageSize={state.pageSize}
          hasMore={feed.hasMore}
          href={firstPage}
        >
          {feed.items.map((item, index) => (
            <ItemCard key={item.id} collection={collection} item={item} priority={index < 3} />
          ))}
        </LoadMoreList>
      )}
    </>
  );
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const resolved = await resolve(props);
  if (!resolved) return notFoundMetadata;
  const { collection, state } = resolved;
  const canonical = listHref(collection, { ...state, page: 1, query: "", filters: [] });
  return { title: listTitle(collection, state), description: collection.description, alternates: { canonical } };
}

export default async function CollectionListPage(props: Props) {
  const resolved = await resolve(props);
  if (!resolved) return notFoundPage();
  const { collection, state } = resolved;
  const retry = <PlatformUnavailable retryHref={listHref(collection, state)} />;
  let results: React.ReactNode;
  if (loadsMore(collection)) {
    const read = await whenAvailable(() => feedItems(collection, state));
    if (!read.reachable) return retry;
    // More batches asked for than there are (a stale link): all there are, which the status line says.
    results = <GrowingList collection={collection} state={state} feed={read.value} />;
  } else {
    const read = await whenAvailable(async () => {
      const list = await listItems(collection, state);
      return { ...list, extras: await placesLeftOnCards(collection, list.items) };
    });
    if (!read.reachable) return retry;
    results = <NumberedList collection={collection} state={state} list={read.value} />;
  }
  return (
    <>
      <header className="py-10">
        <h1 className="font-serif text-4xl font-semibold text-pine-900">{collection.title}</h1>
        <p className="mt-2 max-w-2xl text-stone-700">{collection.description}</p>
      </header>
      <ListControls collection={collection} state={state} href={listHref(collection, state)} />
      {results}
    </>
  );
}
