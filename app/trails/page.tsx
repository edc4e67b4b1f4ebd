import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Pagination } from "@/components/pagination";
import { TrailCard } from "@/components/trail-card";
import { parsePageParam } from "@/lib/search-params";
import { listTrails } from "@/lib/wix/trails";

export const metadata: Metadata = { title: "Trails" };

export default async function TrailsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const page = parsePageParam((await searchParams).page);
  if (page === null) notFound();
  const { trails, pageCount } = await listTrails(page);
  if (page > pageCount) notFound();

  return (
    <>
      <header className="py-10">
        <h1 className="font-serif text-4xl font-semibold text-pine-900">Trails</h1>
        <p className="mt-2 max-w-2xl text-stone-600">Every route our club walks, from creek-side strolls to full-day scrambles. Shortest first.</p>
      </header>
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {trails.map((trail) => (
          <TrailCard key={trail.id} trail={trail} />
        ))}
      </div>
      <Pagination page={page} pageCount={pageCount} basePath="/trails" />
    </>
  );
}
