"use client";

import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { headerMenuButton } from "@/components/class-names";

export type NavLink = { href: string; label: string };

/** A section is current on its list and on its items' pages. */
function isCurrent(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * The site's sections: a row of links on wide screens, a Headless UI menu (keyboard,
 * type-ahead, press-and-release) on narrow ones. The current section is marked.
 */
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
      <Menu as="div" className="md:hidden">
        <MenuButton className={`flex items-center gap-1.5 rounded-lg px-3 py-1.5 ${headerMenuButton}`}>
          <span aria-hidden>☰</span> Menu
        </MenuButton>
        <MenuItems anchor="bottom start" className="z-50 mt-2 w-48 rounded-lg border border-stone-200 bg-white py-1 shadow-lg focus:outline-none">
          {links.map((link) => (
            <MenuItem key={link.href}>
              <Link
                href={link.href}
                aria-current={isCurrent(pathname, link.href) ? "page" : undefined}
                className="block px-4 py-2 text-sm text-stone-800 data-focus:bg-sand-100 aria-[current=page]:font-semibold aria-[current=page]:text-pine-900"
              >
                {link.label}
              </Link>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
    </>
  );
}
