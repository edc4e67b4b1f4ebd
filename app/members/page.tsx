import type { Metadata } from "next";
import Link from "next/link";
import { MemberAvatar } from "@/components/member-avatar";
import { notFoundPage } from "@/components/not-found-page";
import { Pagination } from "@/components/pagination";
import { parsePageParam } from "@/lib/search-params";
import { listPublicMembers } from "@/lib/wix/members";
import { focusRing } from "@/components/class-names";

export const metadata: Metadata = { title: "Members", description: "The people who walk with the Ridgeline Hiking Club." };

export default async function MembersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const page = parsePageParam((await searchParams).page);
  if (page === null) return notFoundPage();
  const { members, pageCount } = await listPublicMembers(page);
  if (page > pageCount) return notFoundPage();
  return (
    <>
      <header className="py-10">
        <h1 className="font-serif text-4xl font-semibold text-pine-900">Members</h1>
        <p className="mt-2 max-w-2xl text-stone-600">The people who walk with us. Members who keep their profile private are not listed.</p>
      </header>
      {members.length === 0 ? (
        <p className="text-stone-700">No public profiles yet.</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {members.map((member) => (
            <li key={member.id}>
              <Link
                href={`/members/${member.slug}`}
                className={`flex items-center gap-4 rounded-xl border border-stone-200 bg-white p-4 hover:border-pine-600 ${focusRing}`}
              >
                <MemberAvatar name={member.name} photoUrl={member.photoUrl} size={48} />
                <span className="min-w-0">
                  <span className="block truncate font-medium text-stone-900">{member.name}</span>
                  {member.title && <span className="block truncate text-sm text-stone-600">{member.title}</span>}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} hrefFor={(target) => (target === 1 ? "/members" : `/members?page=${target}`)} />
    </>
  );
}
