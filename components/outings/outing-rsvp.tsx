import Link from "next/link";
import { focusRing } from "@/components/class-names";
import { getSession, readAsMember } from "@/lib/auth/request-session";
import { loginPageHref } from "@/lib/auth/routes";
import type { CollectionWithOutings } from "@/lib/site-config";
import { organiserView } from "@/lib/wix/rosters";
import { hasJoined, memberIdOf, placesLeft, takenPlaces, whoIsGoing } from "@/lib/wix/signups";
import type { SiteItem } from "@/lib/wix/site-item";
import { PlacesLeft } from "./places-left";
import { RsvpButton, RsvpFeedback } from "./rsvp-button";
import { WhoIsGoing } from "./who-is-going";

/** The .ics file of an outing, beside its page. */
const calendarHref = (item: SiteItem) => `${item.href}/calendar.ics`;

/**
 * Places left, the member's join or cancel button, and "Add to calendar". The places left of a
 * public outing are the same for everyone (a cached read); whether the reader has joined is read
 * with their own session, and only when there is one: a visitor's page, which the page cache
 * keeps, never depends on who asked, and shows "Log in to join". A members' outing (members only
 * reach its page) counts its places with the member's session too. Who is going is read with the
 * member's session as well (whose profiles they may see is theirs to know, and the outing's
 * organiser may read its roster); visitors get the count.
 */
export async function OutingRsvp({ collection, item }: { collection: CollectionWithOutings; item: SiteItem }) {
  const session = await getSession();
  const member = session?.role === "member" ? session : undefined;
  const taken =
    member && collection.outing.membersOnlySignups
      ? await readAsMember(member, item.href, (client) => takenPlaces(collection, [item.id], client))
      : await takenPlaces(collection, [item.id]);
  const left = placesLeft(item, taken[item.id] ?? 0);
  const [joined, goers] = member
    ? await Promise.all([
        readAsMember(member, item.href, async (client) => hasJoined(client, collection, item.id, await memberIdOf(client, member.member?.id))),
        readAsMember(member, item.href, async (client) =>
          organiserView(client, collection, item, await memberIdOf(client, member.member?.id), await whoIsGoing(client, collection, item.id)),
        ),
      ])
    : [false, undefined];
  const intent = joined ? "cancel" : left === 0 ? "full" : "join";
  return (
    <section aria-labelledby="rsvp" className="space-y-3 rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id="rsvp" className="font-serif text-xl font-semibold text-pine-900">
        {joined ? "You're going" : "Join this outing"}
      </h2>
      <PlacesLeft left={left} capacity={item.outing?.capacity} className="text-stone-800" />
      <WhoIsGoing taken={taken[item.id] ?? 0} goers={goers} />
      {member && !joined && item.outing?.organiserId && item.outing.organiserId !== member.member?.id && (
        <p className="text-sm text-stone-600">The organiser sees the name of everyone going, private profiles included.</p>
      )}
      {member ? (
        <RsvpFeedback>
          <RsvpButton intent={intent} route={collection.route} outingId={item.id} />
        </RsvpFeedback>
      ) : (
        <p>
          <Link
            href={loginPageHref(item.href)}
            className={`inline-block rounded-lg bg-pine-700 px-4 py-2 font-medium text-white hover:bg-pine-800 ${focusRing}`}
          >
            Log in to join
          </Link>
        </p>
      )}
      <p>
        {/* A download, not a page: prefetching it would be wasted. */}
        <a href={calendarHref(item)} download className="text-sm font-medium text-pine-700 underline underline-offset-2 hover:text-pine-900">
          Add to calendar (.ics)
        </a>
      </p>
    </section>
  );
}
