import Link from "next/link";
import { MemberAvatar } from "@/components/member-avatar";
import type { Goers } from "@/lib/wix/signups";

const members = (count: number) => `${count} ${count === 1 ? "member" : "members"}`;

/**
 * Who is going, for members: each member whose profile they may see, with their photo or
 * initial and a link to their profile, in the order they joined; members with private profiles
 * are only counted. The outing's organiser also sees those members by the name on the roster,
 * marked private and not linked (their profile is not shown to them). Visitors get the count
 * alone (`goers` absent), which is the same for every visitor, so their cached page holds no name.
 */
export function WhoIsGoing({ taken, goers }: { taken: number; goers?: Goers }) {
  const heading = (
    <h3 id="who-is-going" className="font-semibold text-stone-900">
      Who is going
    </h3>
  );
  if (!goers || taken === 0)
    return (
      <div aria-labelledby="who-is-going" role="group" className="space-y-1">
        {heading}
        <p className="text-sm text-stone-700" data-testid="going-count">
          {taken === 0 ? "Nobody has joined yet." : `${members(taken)} going.`}
          {!goers && taken > 0 && " Log in to see who."}
        </p>
      </div>
    );
  const privateGoers = goers.privateGoers ?? [];
  return (
    <div aria-labelledby="who-is-going" role="group" className="space-y-2">
      {heading}
      <p className="text-sm text-stone-700" data-testid="going-count">
        {members(goers.named.length + privateGoers.length + goers.unnamed)} going.
      </p>
      {goers.named.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Members going">
          {goers.named.map((member) => (
            <li key={member.id}>
              <Link
                href={`/members/${member.slug}`}
                className="flex items-center gap-2 rounded-full border border-stone-200 py-1 pl-1 pr-3 text-sm font-medium text-pine-800 hover:border-pine-600"
              >
                <MemberAvatar name={member.name} photoUrl={member.photoUrl} size={28} />
                {member.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {privateGoers.length > 0 && (
        <>
          <p className="text-sm text-stone-700">As the organiser, you also see the members with private profiles:</p>
          <ul className="flex flex-wrap gap-2" aria-label="Members going with private profiles">
            {privateGoers.map((goer) => (
              <li key={goer.id} className="flex items-center gap-2 rounded-full border border-dashed border-stone-300 py-1 pl-1 pr-3 text-sm text-stone-800">
                <MemberAvatar name={goer.name} size={28} />
                <span>
                  {goer.name} <span className="text-stone-600">(private profile)</span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {goers.unnamed > 0 && (
        <p className="text-sm text-stone-700" data-testid="going-private">
          {goers.named.length + privateGoers.length > 0 ? "And " : ""}
          {members(goers.unnamed)} with {goers.unnamed === 1 ? "a private profile" : "private profiles"}.
        </p>
      )}
    </div>
  );
}
