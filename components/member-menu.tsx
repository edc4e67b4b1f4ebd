import Link from "next/link";
import { AUTH_ROUTES } from "@/lib/auth/routes";

/** The signed-in member's menu; a native disclosure, so it needs no client JavaScript. */
export function MemberMenu({ name }: { name: string }) {
  return (
    <details className="group relative">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-full border border-stone-300 bg-white py-1 pl-1 pr-3 text-sm font-medium text-stone-800 hover:border-pine-600 [&::-webkit-details-marker]:hidden">
        <span aria-hidden className="flex h-7 w-7 items-center justify-center rounded-full bg-pine-700 text-xs font-semibold uppercase text-white">
          {name.slice(0, 1)}
        </span>
        <span data-testid="member-name">{name}</span>
        <span aria-hidden className="text-stone-400 transition group-open:rotate-180">▾</span>
      </summary>
      <div className="absolute right-0 z-10 mt-2 w-44 overflow-hidden rounded-lg border border-stone-200 bg-white py-1 shadow-lg">
        <Link href="/account" className="block px-4 py-2 text-sm text-stone-700 hover:bg-sand-100">
          Account
        </Link>
        <form action={AUTH_ROUTES.logout} method="post">
          <button type="submit" className="block w-full px-4 py-2 text-left text-sm text-stone-700 hover:bg-sand-100">
            Log out
          </button>
        </form>
      </div>
    </details>
  );
}
