import Image from "next/image";
import Link from "next/link";
import { ItemGrid } from "@/components/collection/item-card";
import { placesLeftOnCards } from "@/components/outings/card-places";
import { PlatformUnavailable } from "@/components/platform-unavailable";
import { collectionByRoute, type CollectionConfig } from "@/lib/site-config";
import { firstItems, whenAvailable } from "@/lib/wix/collections";

/** The home page's sections, each a few items of a configured collection. */
const sections = [
  { route: "trails", heading: "Trails to try", link: "All trails" },
  { route: "outings", heading: "Upcoming outings", link: "All outings" },
  { route: "journal", heading: "From the journal", link: "The whole journal" },
].flatMap((section) => {
  const collection = collectionByRoute(section.route);
  return collection ? [{ ...section, collection }] : [];
});

async function Section({ collection, heading, link }: { collection: CollectionConfig; heading: string; link: string }) {
  const read = await whenAvailable(async () => {
    const items = await firstItems(collection, 3);
    return { items, extras: await placesLeftOnCards(collection, items) };
  });
  if (!read.reachable) return <PlatformUnavailable retryHref="/" />;
  const { items, extras } = read.value;
  if (items.length === 0) return null;
  const id = `home-${collection.route}`;
  return (
    <section aria-labelledby={id} className="mb-14">
      <div className="mb-6 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="font-serif text-2xl font-semibold text-pine-900">
          {heading}
        </h2>
        <Link href={`/${collection.route}`} className="text-sm font-medium text-pine-700 hover:underline">
          {link} →
        </Link>
      </div>
      <ItemGrid collection={collection} items={items} headingLevel={3} extras={extras} />
    </section>
  );
}

export default function HomePage() {
  return (
    <>
      <section className="relative -mx-4 mb-12 overflow-hidden bg-pine-900 px-6 py-20 text-white sm:-mx-6 sm:rounded-b-3xl sm:px-12">
        <Image src="/media/demo/ridge.jpg" alt="" fill priority sizes="100vw" className="object-cover opacity-30" />
        <div className="relative max-w-2xl">
          <p className="text-sm font-medium uppercase tracking-widest text-pine-100">Ridgeline Hiking Club</p>
          <h1 className="mt-3 font-serif text-4xl font-semibold leading-tight sm:text-5xl">Find your next trail.</h1>
          <p className="mt-4 text-lg text-pine-50">Fifteen routes across five regions, walked and looked after by our members.</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              href="/trails"
              className="inline-block rounded-lg bg-ember-700 px-5 py-3 font-medium text-white shadow hover:bg-ember-500 hover:text-stone-950"
            >
              Browse trails
            </Link>
            <Link href="/regions" className="inline-block rounded-lg border border-white/70 px-5 py-3 font-medium text-white hover:bg-white/10">
              Explore regions
            </Link>
          </div>
        </div>
      </section>
      {sections.map((section) => (
        <Section key={section.route} {...section} />
      ))}
    </>
  );
}
