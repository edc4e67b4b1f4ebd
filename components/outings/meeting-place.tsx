import type { SiteItem } from "@/lib/wix/site-item";

/** Degrees as a map link writes them: enough places for a car park, no float noise. */
const degrees = (value: number) => String(Number(value.toFixed(5)));

/**
 * Where the outing meets: the start of its trail (the trailhead's address), with plain links to
 * the spot on a map. No embedded map and no picture from a map server: a link loads nothing until
 * it is followed, needs no script, and the site's content policy stays as it is. `geo:` opens the
 * phone's own maps app; OpenStreetMap works in any browser.
 */
export function MeetingPlace({ item }: { item: SiteItem }) {
  const { place, placeAt } = item.outing ?? {};
  const at = placeAt && { lat: degrees(placeAt.latitude), lon: degrees(placeAt.longitude) };
  const label = place ?? "The trailhead";
  const link = "font-medium text-pine-700 underline underline-offset-2 hover:text-pine-900";
  return (
    <section aria-labelledby="meeting-place" className="space-y-2 rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id="meeting-place" className="font-serif text-xl font-semibold text-pine-900">
        Where to meet
      </h2>
      {at ? (
        <>
          <p className="text-stone-900" data-testid="meeting-address">
            {label}
          </p>
          <ul className="space-y-1 text-sm">
            <li>
              <a href={`https://www.openstreetmap.org/?mlat=${at.lat}&mlon=${at.lon}#map=16/${at.lat}/${at.lon}`} rel="noopener noreferrer" className={link}>
                See it on OpenStreetMap
              </a>
            </li>
            <li>
              <a href={`geo:${at.lat},${at.lon}?q=${at.lat},${at.lon}(${encodeURIComponent(label)})`} className={link}>
                Open in your phone&apos;s maps app
              </a>
            </li>
          </ul>
        </>
      ) : (
        <p className="text-stone-700">The organiser has not put the meeting place on the map yet: it is the start of the trail named above.</p>
      )}
    </section>
  );
}
