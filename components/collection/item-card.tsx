import Link from "next/link";
import { listHref, parseListState } from "@/lib/search-params";
import type { CollectionConfig } from "@/lib/site-config";
import type { SiteItem } from "@/lib/wix/site-item";
import { FieldValueView } from "./field-value";
import { Photo } from "./media-values";

const cardClass =
  "relative flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition " +
  "focus-within:ring-2 focus-within:ring-pine-600 hover:shadow-md";

/** The list filtered by a card's tag, when the list has a filter of its tags that offers it. */
function tagHref(collection: CollectionConfig, field: string, tag: string): string | undefined {
  const filter = collection.filters.find((entry) => entry.field === field);
  if ((filter?.kind !== "any-of" && filter?.kind !== "choice") || !filter.options.includes(tag)) return undefined;
  return listHref(collection, { ...parseListState(collection, {})!, filters: [{ kind: "values", field: filter.field, values: [tag] }] });
}

/** A list entry: its title links to the item page, and the whole card is the link's target area. */
/**
 * `priority` for cards in the first row of a list: their picture is what the page paints largest
 * first. `children` follow the card's facts (an outing's places left).
 */
export function ItemCard({
  collection,
  item,
  headingLevel = 2,
  priority = false,
  children,
}: {
  collection: CollectionConfig;
  item: SiteItem;
  headingLevel?: 2 | 3;
  priority?: boolean;
  children?: React.ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  // Tags are shown as chips below; references stay plain text inside the card's single link.
  const shown = collection.listFields.flatMap((key) => (item.fields[key] && item.fields[key].value.type !== "tags" ? [item.fields[key]] : []));
  const tags = collection.listFields.flatMap((key) => {
    const value = item.fields[key]?.value;
    return value?.type === "tags" ? value.values.map((tag) => ({ field: key, tag })) : [];
  });
  return (
    <article className={cardClass} data-testid="item-card" data-item-id={item.id}>
      {/* Always cropped to 3:2, whatever the picture's own size, so cards line up. */}
      {item.imageUrl && <Photo picture={{ src: item.imageUrl, alt: "" }} layout="card" priority={priority} />}
      <div className="flex flex-1 flex-col gap-3 p-5">
        <Heading className="font-serif text-lg font-semibold text-stone-900">
          <Link href={item.href} className="after:absolute after:inset-0 focus:outline-none">
            {item.title}
          </Link>
        </Heading>
        {shown.length > 0 && (
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-700">
            {shown.map((field) => (
              <div key={field.key} className="flex gap-1">
                <dt className="text-stone-600">{field.label}:</dt>
                <dd>{field.value.type === "reference" ? field.value.title : <FieldValueView value={field.value} compact />}</dd>
              </div>
            ))}
          </dl>
        )}
        {children}
        {item.summary && <p className="line-clamp-3 text-sm leading-relaxed text-stone-600">{item.summary}</p>}
        {tags.length > 0 && (
          <ul className="mt-auto flex flex-wrap gap-1.5" aria-label="Tags">
            {tags.map(({ field, tag }) => {
              const href = tagHref(collection, field, tag);
              return (
                <li key={`${field}:${tag}`} className="rounded bg-sand-100 px-2 py-0.5 text-xs text-stone-700">
                  {href ? (
                    // Above the card's own link, which covers the card.
                    <Link href={href} className="relative z-10 underline-offset-2 hover:underline">
                      <span className="sr-only">{`${collection.title} tagged `}</span>
                      {tag}
                    </Link>
                  ) : (
                    tag
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </article>
  );
}

/**
 * Three across at most, so `firstRow` marks the first three cards for early loading. `extras`:
 * more for a card to show, by item id.
 */
export function ItemGrid({
  collection,
  items,
  headingLevel,
  firstRow = false,
  extras = {},
}: {
  collection: CollectionConfig;
  items: SiteItem[];
  headingLevel?: 2 | 3;
  firstRow?: boolean;
  extras?: Record<string, React.ReactNode>;
}) {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {items.map((item, index) => (
        <ItemCard key={item.id} collection={collection} item={item} headingLevel={headingLevel} priority={firstRow && index < 3}>
          {extras[item.id]}
        </ItemCard>
      ))}
    </div>
  );
}
