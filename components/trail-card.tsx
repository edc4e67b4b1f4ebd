import type { Trail } from "@/lib/wix/trails";

const difficultyColours: Record<string, string> = {
  Easy: "bg-pine-100 text-pine-700",
  Moderate: "bg-amber-100 text-amber-800",
  Hard: "bg-red-100 text-red-800",
};

export function TrailCard({ trail }: { trail: Trail }) {
  return (
    <article className="group overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition hover:shadow-md" data-testid="trail-card">
      {trail.imageUrl && (
        // Demo images are small SVGs; Wix media URLs are already sized by the CDN.
        // eslint-disable-next-line @next/next/no-img-element
        <img src={trail.imageUrl} alt="" width={1200} height={800} loading="lazy" className="aspect-[3/2] w-full object-cover" />
      )}
      <div className="space-y-3 p-5">
        <div className="flex items-start justify-between gap-3">
          <h2 className="font-serif text-lg font-semibold text-stone-900">{trail.title}</h2>
          {trail.difficulty && (
            <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${difficultyColours[trail.difficulty] ?? "bg-stone-100 text-stone-700"}`}>
              {trail.difficulty}
            </span>
          )}
        </div>
        {trail.regionName && <p className="text-sm text-stone-500">{trail.regionName}</p>}
        <dl className="flex gap-4 text-sm text-stone-700">
          {trail.distanceKm !== undefined && (
            <div>
              <dt className="sr-only">Distance</dt>
              <dd>{trail.distanceKm} km</dd>
            </div>
          )}
          {trail.elevationGainM !== undefined && (
            <div>
              <dt className="sr-only">Elevation gain</dt>
              <dd>↑ {trail.elevationGainM} m</dd>
            </div>
          )}
          {trail.dogFriendly && <dd>Dogs welcome</dd>}
        </dl>
        <p className="line-clamp-3 text-sm leading-relaxed text-stone-600">{trail.summary}</p>
        {trail.tags.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
            {trail.tags.map((tag) => (
              <li key={tag} className="rounded bg-sand-100 px-2 py-0.5 text-xs text-stone-600">
                {tag}
              </li>
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}
