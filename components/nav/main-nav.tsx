"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { headerMenuItem } from "@/components/class-names";
import { HeaderMenu } from "./header-menu";

export type NavLink = { href: string; label: string };

/** A section is current on its list and on its items' pages. */
function isCurrent(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** The site's sections: a row of links on wide screens, a disclosure menu on narrow ones. The current section is marked. */
export function MainNav({ links }: { links: NavLink[] }) {
  const pathname = usePathname();
  return (
    <>
      <ul className="hidden items-center gap-5 md:flex">
        {links.map((link) => {
          const current = isCurrent(pathname, link.href);
          return (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={current ? "page" : undefined}
                className={`border-b-2 py-1 ${current ? "border-pine-700 text-pine-900" : "border-transparent text-stone-700 hover:text-pine-700"}`}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
      <HeaderMenu
        className="md:hidden"
        summary={
          <>
            <span aria-hidden>☰</span> Menu
          </>
        }
        summaryClassName="flex items-center gap-1.5 rounded-lg px-3 py-1.5"
        panelClassName="w-48"
      >
        {links.map((link) => (
          <li key={link.href}>
            <Link
              href={link.href}
              aria-current={isCurrent(pathname, link.href) ? "page" : undefined}
              className={`${headerMenuItem} aria-[current=page]:font-semibold aria-[current=page]:text-pine-900`}
            >
              {link.label}
            </Link>
          </li>
        ))}
      </HeaderMenu>
    </>
  );
}
