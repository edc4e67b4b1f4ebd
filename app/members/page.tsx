import type { Metadata } from "next";
import Form from "next/form";
import Link from "next/link";
import { cache } from "react";
import { MemberAvatar } from "@/components/member-avatar";
import { notFoundMetadata, notFoundPage } from "@/components/not-found-page";
import { Pagination } from "@/components/pagination";
import { ResultsHeading } from "@/components/collection/results-focus";
import { directoryHref, parseDirectoryState } from "@/lib/search-params";
import { listPublicMembers, MEMBERS_PER_PAGE, type PublicMember } from "@/lib/wix/members";
import { focusRing } from "@/components/class-names";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** One read per request, shared by the page and its metadata. */
const directory = cache(listPublicMembers);

/** The directory's page an address asks for; null when it is malformed or past the last page of a search (the directory itself always has page 1). */
async function directoryPage(searchParams: Awaited<Props["searchParams"]>) {
  const state = parseDirectoryState(searchParams);
  if (state === null) return null;
  const found = await directory(state.query, state.page);
  return state.page > found.pageCount ? null : { state, ...found };
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  return (await directoryPage(await searchParams))
    ? { title: "Members", description: "The people who walk with the Ridgeline Hiking Club." }
    : notFoundMetadata;
}

const joinedFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

const inputClass =
  "w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-sm text-stone-900 " +
  "focus:border-pine-600 focus:outline-none focus:ring-2 focus:ring-pine-600/30";

function memberCount(count: number): string {
  return count === 1 ? "1 member" : `${count} members`;
}

/** The card's second line: the member's title; for one who chose no nickname, when they joined, which tells such cards apart. */
function subtitle(member: PublicMember): string | undefined {
  if (member.named || !member.joinedAt) return member.title || undefined;
  const joined = `Joined ${joinedFormat.format(new Date(member.joinedAt))}`;
  return member.title ? `${member.title} · ${joined}` : joined;
}

export default async function MembersPage({ searchParams }: Props) {
  const shown = await directoryPage(await searchParams);
  if (!shown) return notFoundPage();
  const { state, members, total, pageCount } = shown;
  const first = (state.page - 1) * MEMBERS_PER_PAGE + 1;
  const found = state.query ? `${memberCount(total)} named “${state.query}”` : memberCount(total);
  const status =
    total === 0
      ? state.query
        ? `No member's name contains “${state.query}”.`
        : "No public profiles yet."
      : pageCount > 1
        ? `${found}: showing ${first}–${first + members.length - 1}, page ${state.page} of ${pageCount}.`
        : `${found}.`;
  return (
    <>
      <header className="py-10">
        <h1 className="font-serif text-4xl font-semibold text-pine-900">Members</h1>
        <p className="mt-2 max-w-2xl text-stone-600">The people who walk with us. Members who keep their profile private are not listed.</p>
      </header>
      {/* A GET form: without JavaScript the browser loads /members?q=…; with it, Next.js navigates to the same URL. */}
      <Form
        action="/members"
        role="search"
        aria-label="Find a member"
        className="mb-8 flex flex-wrap items-end gap-3 rounded-xl border border-stone-200 bg-white p-5 shadow-sm"
      >
        <label className="block min-w-0 flex-1 basis-56 text-sm font-semibold text-stone-800">
          Name
          <input type="search" name="q" defaultValue={state.query} maxLength={100} autoComplete="off" className={`${inputClass} mt-2 font-normal`} />
        </label>
        <button type="submit" className={`rounded-lg bg-pine-700 px-4 py-2 text-sm font-medium text-white hover:bg-pine-600 ${focusRing}`}>
          Search
        </button>
        {state.query && (
          <Link href="/members" className="py-2 text-sm font-medium text-pine-700 underline underline-offset-2 hover:text-pine-900">
            Show all members
          </Link>
        )}
      </Form>
      <ResultsHeading status={status}>{state.query ? `Members named “${state.query}”` : "All members"}</ResultsHeading>
      {members.length > 0 && (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {members.map((member) => {
            const second = subtitle(member);
            return (
              <li key={member.id}>
                <Link
                  href={`/members/${member.slug}`}
                  className={`flex items-center gap-4 rounded-xl border border-stone-200 bg-white p-4 hover:border-pine-600 ${focusRing}`}
                >
                  <MemberAvatar name={member.name} photoUrl={member.photoUrl} size={48} />
                  <span className="min-w-0">
                    <span className={`block truncate font-medium ${member.named ? "text-stone-900" : "text-stone-700"}`}>{member.name}</span>
                    {second && <span className="block truncate text-sm text-stone-600">{second}</span>}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination page={state.page} pageCount={pageCount} hrefFor={(page) => directoryHref({ ...state, page })} />
    </>
  );
}
