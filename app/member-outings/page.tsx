import type { Metadata } from "next";
import Link from "next/link";
import { OutingFacts } from "@/components/outings/outing-facts";
import { PlacesLeft } from "@/components/outings/places-left";
import { PlatformUnavailable } from "@/components/platform-unavailable";
import { getSession, readAsMember } from "@/lib/auth/request-session";
import { loginPageHref, SITE_PAGES } from "@/lib/auth/routes";
import { memberOutings } from "@/lib/site-config";
import { memberItems, whenAvailable } from "@/lib/wix/collections";
import { placesLeft, takenPlaces } from "@/lib/wix/signups";
import { focusRing } from "@/components/class-names";

export const metadata: Metadata = {
  title: memberOutings.title,
  description: memberOutings.description,
};

const PAGE_PATH = `/${memberOutings.route}`;
const SHOWN = 24;

/** What a visitor is told they would get by joining. */
const PERKS = [
  "Small-group outings led by experienced members, most weekends",
  "Dawn summits, navigation practice and overnight trips",
  "Car-sharing from town and gear to borrow",
];

/**
 * Outings only members may see. Visitors learn what they would get and how to log in (and come
 * back here); members get the list, read with their own session because the collection is
 * readable by signed-in members only.
 */
export default async function MemberOutingsPage() {
  const session = await getSession();
  const intro = (
    <header className="max-w-2xl">
      <p className="text-sm font-medium uppercase tracking-wide text-pine-700">Members only</p>
      <h1 className="mt-1 font-serif text-4xl font-semibold text-pine-900">{memberOutings.title}</h1>
      <p className="mt-3 text-lg text-stone-700">{memberOutings.description}</p>
    </header>
  );

  if (session?.role !== "member") {
    return (
      <div className="space-y-8 py-10">
        {intro}
        <section aria-labelledby="join" className="max-w-2xl rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
          <h2 id="join" className="font-serif text-2xl font-semibold text-pine-900">
            For members of the club
          </h2>
          <ul className="mt-4 list-disc space-y-1 pl-5 text-stone-800">
            {PERKS.map((perk) => (
              <li key={perk}>{perk}</li>
            ))}
          </ul>
          <p className="mt-6 flex flex-wrap gap-3">
            <Link href={loginPageHref(PAGE_PATH)} className={`rounded-lg bg-pine-700 px-4 py-2 font-medium text-white hover:bg-pine-800 ${focusRing}`}>
              Log in to see members&apos; outings
            </Link>
            <Link href={SITE_PAGES.register} className="rounded-lg border border-pine-700 px-4 py-2 font-medium text-pine-800 hover:bg-pine-50">
              Join the club
            </Link>
          </p>
        </section>
      </div>
    );
  }

  const outings = await whenAvailable(() =>
    readAsMember(session, PAGE_PATH, async (client) => {
      const items = await memberItems(client, memberOutings, SHOWN);
      // Who joined a members' outing is for members only: its places are counted with the member's session.
      const taken = await takenPlaces(
        memberOutings,
        items.map((item) => item.id),
        client,
      );
      return { items, taken };
    }),
  );
  return (
    <div className="space-y-8 py-10">
      {intro}
      {!outings.reachable ? (
        <PlatformUnavailable retryHref={PAGE_PATH} />
      ) : outings.value.items.length === 0 ? (
        <p className="text-stone-700">No members&apos; outings are planned just now. New ones appear here first.</p>
      ) : (
        <ul className="grid gap-6 md:grid-cols-2" aria-label={memberOutings.title}>
          {outings.value.items.map((outing) => (
            <li key={outing.id}>
              <article
                aria-labelledby={`outing-${outing.id}`}
                className="h-full rounded-xl border border-stone-200 bg-white p-5 shadow-sm"
                data-testid="member-outing"
              >
                <h2 id={`outing-${outing.id}`} className="font-serif text-xl font-semibold text-pine-900">
                  {/* Only the title links, so the trail's link in the details stays usable. */}
                  <Link href={outing.href} className={`underline-offset-2 hover:underline ${focusRing}`}>
                    {outing.title}
                  </Link>
                </h2>
                <div className="mt-3">
                  <OutingFacts collection={memberOutings} item={outing} />
                </div>
                <PlacesLeft
                  left={placesLeft(outing, outings.value.taken[outing.id] ?? 0)}
                  capacity={outing.outing?.capacity}
                  className="mt-2 text-sm font-medium text-pine-800"
                />
                {outing.summary && <p className="mt-3 leading-relaxed text-stone-800">{outing.summary}</p>}
              </article>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
