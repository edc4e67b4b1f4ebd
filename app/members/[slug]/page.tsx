import type { Metadata } from "next";
import Link from "next/link";
import { cache } from "react";
import { MemberAvatar } from "@/components/member-avatar";
import { notFoundMetadata, notFoundPage } from "@/components/not-found-page";
import { ReportCard } from "@/components/reports/report-card";
import { ReportPages } from "@/components/reports/report-pages";
import { slugSchema } from "@/lib/account/forms";
import { decodedSegment, parseReportsPage, type SearchParams } from "@/lib/search-params";
import { reportedCollections } from "@/lib/site-config";
import { PROFILE_WORDS } from "@/lib/account/profile-words";
import { getSession, readAsMember } from "@/lib/auth/request-session";
import { currentProfile, publicMemberBySlug, type Profile } from "@/lib/wix/members";
import { reportsBy } from "@/lib/wix/reports";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<SearchParams> };

const slugOf = (segment: string) => {
  const parsed = slugSchema.shape.slug.safeParse(decodedSegment(segment));
  return parsed.success ? parsed.data : null;
};

/** A malformed slug finds nobody. */
async function memberFor(segment: string) {
  const slug = slugOf(segment);
  return slug ? publicMemberBySlug(slug) : null;
}

/**
 * The signed-in member's own profile when it is private and at this address: its owner is told
 * why nobody else sees it, where anyone else gets the same 404 as for no member at all.
 */
async function ownPrivateProfile(segment: string) {
  const slug = slugOf(segment);
  const session = await getSession();
  if (!slug || session?.role !== "member") return null;
  const profile = await readAsMember(session, `/members/${slug}`, currentProfile);
  return profile.isPrivate && profile.slug === slug ? profile : null;
}

/**
 * What the address shows, read once per request for the page and its metadata: a member's profile
 * with one page (`?reports=`) of their reports, the owner's own private profile, or null for a 404.
 */
const profileAt = cache(async (segment: string, page: number | null) => {
  if (page === null) return null;
  const member = await memberFor(segment);
  if (!member) {
    const own = await ownPrivateProfile(segment);
    return own ? { own, member: null } : null;
  }
  const lists = await Promise.all(reportedCollections.map(async (collection) => ({ collection, ...(await reportsBy(collection, member.id, page)) })));
  // One `?reports=` pages every list of the profile; a page past the last of all of them is a 404.
  return page > Math.max(...lists.map((list) => list.pageCount)) ? null : { member, page, lists };
});

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const shown = await profileAt((await params).slug, parseReportsPage(await searchParams));
  if (!shown) return notFoundMetadata;
  if (!shown.member) return { title: "Your private profile" };
  const { member } = shown;
  return { title: `${member.name}, member`, description: member.title || `${member.name} walks with the Ridgeline Hiking Club.` };
}

export default async function MemberPage({ params, searchParams }: Props) {
  const shown = await profileAt((await params).slug, parseReportsPage(await searchParams));
  if (!shown) return notFoundPage();
  if (!shown.member) return <PrivateProfile profile={shown.own} />;
  const { member, page, lists } = shown;
  const path = `/members/${encodeURIComponent(member.slug)}`;
  return (
    <article className="mx-auto max-w-2xl py-12">
      <header className="flex flex-wrap items-center gap-5">
        <MemberAvatar name={member.name} photoUrl={member.photoUrl} size={96} />
        <div className="min-w-0">
          <p className="text-sm font-medium uppercase tracking-wide text-pine-700">Member</p>
          <h1 className="break-words font-serif text-4xl font-semibold text-pine-900">{member.name}</h1>
          {member.title && <p className="mt-1 text-stone-700">{member.title}</p>}
        </div>
      </header>
      {lists.map(({ collection, reports, pageCount }) => (
        <section key={collection.route} aria-labelledby={`reports-${collection.route}`} className="mt-10 space-y-4">
          <h2 id={`reports-${collection.route}`} className="font-serif text-2xl font-semibold text-pine-900">
            {collection.memberReports.title} by {member.name}
          </h2>
          {reports.length === 0 ? (
            <p className="text-stone-700">{page === 1 ? "None yet." : "No older ones."}</p>
          ) : (
            reports.map((report) => <ReportCard key={report.id} report={report} about={report.about} />)
          )}
          <ReportPages
            path={path}
            section={`reports-${collection.route}`}
            page={Math.min(page, pageCount)}
            pageCount={pageCount}
            label={`Pages of ${collection.memberReports.title.toLowerCase()} by ${member.name}`}
          />
        </section>
      ))}
      <p className="mt-10">
        <Link href="/members" className="font-medium text-pine-700 underline underline-offset-2">
          All members
        </Link>
      </p>
    </article>
  );
}

/** What the owner of a private profile sees at its address. */
function PrivateProfile({ profile }: { profile: Profile }) {
  return (
    <article className="mx-auto max-w-2xl py-12">
      <header className="flex flex-wrap items-center gap-5">
        <MemberAvatar name={profile.name} photoUrl={profile.photoUrl} size={96} />
        <div className="min-w-0">
          <p className="text-sm font-medium uppercase tracking-wide text-pine-700">Your private profile</p>
          <h1 className="break-words font-serif text-4xl font-semibold text-pine-900">{profile.name}</h1>
          {profile.title && <p className="mt-1 text-stone-700">{profile.title}</p>}
        </div>
      </header>
      <div className="mt-8 space-y-3 rounded-xl border border-amber-200 bg-amber-50 p-5 text-amber-950">
        <p>{PROFILE_WORDS.privateExplained}</p>
        <p>
          <Link href="/account#profile" className="font-medium text-pine-800 underline underline-offset-2">
            Make your profile public on your account page
          </Link>
        </p>
      </div>
    </article>
  );
}
