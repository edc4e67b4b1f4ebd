import type { Metadata } from "next";
import Link from "next/link";
import { cache } from "react";
import { FieldValueView, isWide } from "@/components/collection/field-value";
import { ItemGrid } from "@/components/collection/item-card";
import { Photo } from "@/components/collection/media-values";
import { notFoundMetadata, notFoundPage } from "@/components/not-found-page";
import { PlatformUnavailable } from "@/components/platform-unavailable";
import { MeetingPlace } from "@/components/outings/meeting-place";
import { OutingRsvp } from "@/components/outings/outing-rsvp";
import { ItemReports } from "@/components/reports/item-reports";
import { ReportSummary } from "@/components/reports/report-summary";
import { decodedSegment, parseReportsPage, type SearchParams } from "@/lib/search-params";
import { collectionByRoute } from "@/lib/site-config";
import { itemBySlug, whenAvailable } from "@/lib/wix/collections";
import { reportsAbout } from "@/lib/wix/reports";
import type { ShownField } from "@/lib/wix/site-item";

type Props = { params: Promise<{ collection: string; slug: string }>; searchParams: Promise<SearchParams> };

/**
 * One read per request, shared by the metadata and the page; null when there is no such item, or
 * the page of its reports asked for (`reportsPage`, null when malformed) is past the last: a 404,
 * like a list's `?page=`.
 */
const loadItem = cache(async (route: string, slug: string, reportsPage: number | null) => {
  const collection = collectionByRoute(route);
  if (!collection) return null;
  const read = await whenAvailable(() => itemBySlug(collection, slug));
  if (!read.reachable) return { collection, unavailable: true as const };
  const found = read.value;
  if (!found) return null;
  // Without reports the parameter means nothing.
  const reports = collection.memberReports;
  const page = reports ? reportsPage : 1;
  if (page === null) return null;
  if (reports && page > 1) {
    const list = await whenAvailable(() => reportsAbout({ ...collection, memberReports: reports }, found.item.id, page));
    if (list.reachable && page > list.value.pageCount) return null;
  }
  return { collection, ...found, reportsPage: page, unavailable: false as const };
});

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { collection, slug } = await params;
  const loaded = await loadItem(collection, decodedSegment(slug), parseReportsPage(await searchParams));
  if (!loaded) return notFoundMetadata;
  if (loaded.unavailable) return { title: loaded.collection.title };
  const { item } = loaded;
  const description = item.summary.slice(0, 160) || undefined;
  return {
    title: item.title,
    description,
    alternates: { canonical: item.href },
    openGraph: { title: item.title, description, type: "article", images: item.imageUrl ? [item.imageUrl] : undefined },
  };
}

/** The item's facts beside the long read, and how fresh the page is. */
function Details({ facts, updatedDate }: { facts: ShownField[]; updatedDate?: string }) {
  return (
    <aside aria-label="Details" className="h-fit rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
      <dl className="space-y-3 text-sm">
        {facts.map((field) => (
          <div key={field.key}>
            <dt className="font-semibold text-stone-700">{field.label}</dt>
            <dd className="mt-0.5 text-stone-900">
              <FieldValueView value={field.value} label={field.label} layout="aside" />
            </dd>
          </div>
        ))}
        {/* How fresh the page is: conditions on a trail and advice in a story change. */}
        {updatedDate && (
          <div>
            <dt className="font-semibold text-stone-700">Last updated</dt>
            <dd className="mt-0.5 text-stone-900">
              <FieldValueView value={{ type: "date", iso: updatedDate, withTime: false }} label="Last updated" layout="aside" />
            </dd>
          </div>
        )}
      </dl>
    </aside>
  );
}

export default async function ItemPage({ params, searchParams }: Props) {
  const { collection: route, slug } = await params;
  const loaded = await loadItem(route, decodedSegment(slug), parseReportsPage(await searchParams));
  if (!loaded) return notFoundPage();
  if (loaded.unavailable) return <PlatformUnavailable retryHref={`/${route}/${slug}`} />;
  const { collection, item, previous, next, related, reportsPage } = loaded;
  const reports = collection.memberReports;
  const shown = collection.detailFields.flatMap((key) => (item.fields[key] ? [item.fields[key]] : []));
  const isMain = (field: (typeof shown)[number]) => isWide(field.value) || field.key === collection.summaryField;
  const facts = shown.filter((field) => !isMain(field));
  const prose = shown.filter(isMain);
  const unheaded = new Set(collection.fields.flatMap((field) => (field.unheaded ? [field.key] : [])));

  return (
    <article className="py-8">
      <nav aria-label="Breadcrumb" className="text-sm text-stone-600">
        <Link href={`/${collection.route}`} className="text-pine-700 underline underline-offset-2">
          {collection.title}
        </Link>
        <span aria-hidden> / </span>
        <span aria-current="page">{item.title}</span>
      </nav>
      <h1 className="mt-3 font-serif text-4xl font-semibold text-pine-900">{item.title}</h1>
      {(reports || item.directions) && (
        <div className="mt-3 space-y-2">
          {reports && <ReportSummary collection={{ ...collection, memberReports: reports }} item={item} />}
          {item.directions && (
            <p className="text-stone-800">
              {/* An ordinary link to the route planner: no map or script of theirs is loaded here. */}
              <a href={item.directions.href} rel="noopener noreferrer" className="font-medium text-pine-700 underline underline-offset-2 hover:text-pine-900">
                {item.directions.label}
              </a>
              {item.directions.place && <span className="text-stone-700"> ({item.directions.place})</span>}
            </p>
          )}
        </div>
      )}
      {/* On a phone an outing's sign-up comes first, then the picture, the details and the long
          read; on a wide screen the sign-up and the details stand in a column beside the rest. */}
      <div className="mt-6 grid gap-8 lg:grid-cols-[2fr_1fr]">
        {item.imageUrl && <Photo picture={{ src: item.imageUrl, alt: "" }} layout="main" priority className="rounded-xl lg:col-start-1 lg:row-start-1" />}
        <div className="contents lg:col-start-2 lg:row-span-2 lg:row-start-1 lg:block lg:space-y-6">
          {collection.outing && (
            <div className="-order-1 space-y-6 lg:order-none">
              <OutingRsvp collection={{ ...collection, outing: collection.outing }} item={item} />
              <MeetingPlace item={item} />
            </div>
          )}
          {(facts.length > 0 || item.updatedDate) && <Details facts={facts} updatedDate={item.updatedDate} />}
        </div>
        {prose.length > 0 && (
          <div className={`min-w-0 space-y-8 lg:col-start-1 ${item.imageUrl ? "lg:row-start-2" : "lg:row-start-1"}`}>
            {prose.map((field) => (
              <section key={field.key} aria-labelledby={`field-${field.key}`}>
                {/* An unheaded field's heading is there for screen readers only: the outline stays whole, the page shows no label. */}
                <h2 id={`field-${field.key}`} className={unheaded.has(field.key) ? "sr-only" : "mb-2 font-serif text-xl font-semibold text-pine-900"}>
                  {field.label}
                </h2>
                <div className="leading-relaxed text-stone-800">
                  <FieldValueView value={field.value} label={field.label} layout="main" />
                </div>
              </section>
            ))}
          </div>
        )}
      </div>
      {(previous || next) && (
        <nav aria-label={`More ${collection.plural}`} className="mt-10 grid gap-4 border-t border-stone-200 pt-6 sm:grid-cols-2">
          {previous ? (
            <Link href={previous.href} rel="prev" className="rounded-lg border border-stone-200 bg-white p-4 hover:border-pine-600">
              <span className="block text-xs uppercase tracking-wide text-stone-600">Previous</span>
              <span className="font-medium text-pine-900">{previous.title}</span>
            </Link>
          ) : (
            <span />
          )}
          {next && (
            <Link href={next.href} rel="next" className="rounded-lg border border-stone-200 bg-white p-4 text-right hover:border-pine-600">
              <span className="block text-xs uppercase tracking-wide text-stone-600">Next</span>
              <span className="font-medium text-pine-900">{next.title}</span>
            </Link>
          )}
        </nav>
      )}
      {related.map((group) => (
        <section key={group.title} aria-labelledby={`related-${group.collection.route}`} className="mt-12">
          <h2 id={`related-${group.collection.route}`} className="mb-4 font-serif text-2xl font-semibold text-pine-900">
            {group.title}
          </h2>
          <ItemGrid collection={group.collection} items={group.items} headingLevel={3} />
        </section>
      ))}
      {/* Part of the page itself, not streamed after it: a streamed section needs script to appear. */}
      <ItemReports collection={collection} item={item} page={reportsPage} />
    </article>
  );
}
