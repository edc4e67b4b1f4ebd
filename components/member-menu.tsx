import Link from "next/link";
import { AUTH_ROUTES } from "@/lib/auth/routes";
import { headerMenuItem } from "@/components/class-names";
import { HeaderMenu } from "./nav/header-menu";

/** The signed-in member's menu. Logging out is a plain form post, so it works before the page has JavaScript. */
export function MemberMenu({ name, initial, links }: { name: string; initial: string; links: ReadonlyArray<{ href: string; label: string }> }) {
  return (
    <HeaderMenu
      summary={
        <>
          <span aria-hidden className="flex h-7 w-7 items-center justify-center rounded-full bg-pine-700 text-xs font-semibold uppercase text-white">
            {initial}
          </span>
          {/* The name, as shown, is part of the accessible name ("Account menu for Dana"). On the
              narrowest phones the initial stands for it on screen; long names are cut short. */}
          <span className="sr-only">Account menu for </span>
          <span data-testid="member-name" className="sr-only max-w-28 truncate min-[360px]:not-sr-only min-[360px]:inline-block">
            {name}
          </span>
          <span aria-hidden className="text-stone-500">
            ▾
          </span>
        </>
      }
      summaryClassName="flex items-center gap-2 rounded-full py-1 pl-1 pr-3"
      panelClassName="w-44"
    >
      <li>
        <Link href="/account" className={headerMenuItem}>
          Account
        </Link>
      </li>
      <li>
        <Link href="/account/profile" prefetch={false} className={headerMenuItem}>
          View my profile
        </Link>
      </li>
      {links.map((link) => (
        <li key={link.href}>
          <Link href={link.href} className={headerMenuItem}>
            {link.label}
          </Link>
        </li>
      ))}
      <li>
        <form method="post" action={AUTH_ROUTES.logout}>
          <button type="submit" className={headerMenuItem}>
            Log out
          </button>
        </form>
      </li>
    </HeaderMenu>
  );
}
