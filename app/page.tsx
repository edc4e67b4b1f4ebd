import Link from "next/link";
import { TrailCard } from "@/components/trail-card";
import { latestTrails } from "@/lib/wix/trails";

export default async function HomePage() {
  const trails = await latestTrails(3);
  return (
    <>
      <section className="relative -mx-4 mb-12 overflow-hidden bg-pine-900 px-6 py-20 text-white sm:-mx-6 sm:rounded-b-3xl sm:px-12">
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src="/media/demo/ridge.svg" alt="" className="absolute inset-0 h-full w-full object-cover opacity-30" />
        <div className="relative max-w-2xl">
          <p className="text-sm font-medium uppercase tracking-widest text-pine-100">Ridgeline Hiking Club</p>
          <h1 className="mt-3 font-serif text-5xl font-semibold leading-tight">Find your next trail.</h1>
          <p className="mt-4 text-lg text-pine-50">Fifteen routes across five regions, walked and looked after by our members.</p>
          <Link href="/trails" className="mt-8 inline-block rounded-lg bg-ember-500 px-5 py-3 font-medium text-white shadow hover:brightness-110">
            Browse trails
          </Link>
        </div>
      </section>
      <section aria-labelledby="latest">
        <div className="mb-6 flex items-baseline justify-between">
          <h2 id="latest" className="font-serif text-2xl font-semibold text-pine-900">Newest trails</h2>
          <Link href="/trails" className="text-sm font-medium text-pine-700 hover:underline">
            All trails →
          </Link>
        </div>
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {trails.map((trail) => (
            <TrailCard key={trail.id} trail={trail} />
          ))}
        </div>
      </section>
    </>
  );
}
