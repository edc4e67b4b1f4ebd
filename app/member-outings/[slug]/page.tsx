import type { Metadata } from "next";
import Link from "next/link";
import { cache } from "react";
import { notFoundMetadata, notFoundPage } from "@/components/not-found-page";
import { OutingFacts } from "@/components/outings/outing-facts";
import { MeetingPlace } from "@/components/outings/meeting-place";
import { OutingRsvp } from "@/components/outings/outing-rsvp";
import { PlatformUnavailable } from "@/components/platform-unavailable";
import { readAsMember, requireMember } from "@/lib/auth/request-session";
import { decodedSegment } from "@/lib/search-params";
import { memberOutings } from "@/lib/site-config";
import { outingBySlug } from "@/lib/wix/signups";
import { whenAvailable } from "@/lib/wix/collections";

type Props = { params: Promise<{ slug: string }> };

const pathOf = (slug: string) => `/${memberOutings.route}/${slug}`;

/**
 * For signed-in members only (visitors are sent to log in and come back), read with the member's
 * own session, never cached or shared: once per request, for the page and its metadata.
 */
const outingAt = cache(async (slug: string) => {
  const session = await requireMember(pathOf(slug));
  return whenAvailable(() => readAsMember(session, pathOf(slug), (client) => outingBySlug(client, memberOutings, decodedSegment(slug))));
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const read = await outingAt((await params).slug);
  return read.reachable && !read.value ? notFoundMetadata : { title: memberOutings.singular };
}

/** One members' outing. */
export default async function MemberOutingPage({ params }: Props) {
  const { slug } = await params;
  const read = await outingAt(slug);
  if (!read.reachable) return <PlatformUnavailable retryHref={pathOf(slug)} />;
  const item = read.value;
  if (!item) return notFoundPage();
  return (
    <article className="space-y-6 py-8">
      <nav aria-label="Breadcrumb" className="text-sm text-stone-600">
        <Link href={`/${memberOutings.route}`} className="text-pine-700 underline underline-offset-2">
          {memberOutings.title}
        </Link>
        <span aria-hidden> / </span>
        <span aria-current="page">{item.title}</span>
      </nav>
      <h1 className="font-serif text-4xl font-semibold text-pine-900">{item.title}</h1>
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="space-y-4">
          <OutingFacts collection={memberOutings} item={item} />
          {item.summary && <p className="leading-relaxed text-stone-800">{item.summary}</p>}
        </div>
        <div className="space-y-6">
          <OutingRsvp collection={memberOutings} item={item} />
          <MeetingPlace item={item} />
        </div>
      </div>
    </article>
  );
}
