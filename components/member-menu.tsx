"use client";

import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import Link from "next/link";
import { useRef } from "react";
import { AUTH_ROUTES } from "@/lib/auth/routes";
import { headerMenuButton } from "@/components/class-names";

/**
 * The signed-in member's menu (Headless UI: arrows, Escape, outside click). Its items are
 * anchored in a layer above the page, so no page content can cover them.
 */
export function MemberMenu({ name, links }: { name: string; links: ReadonlyArray<{ href: string; label: string }> }) {
  // The menu's items unmount as it closes, which would cancel a submit from inside them.
  const logout = useRef<HTMLFormElement>(null);
  return (
    <Menu>
      <form ref={logout} action={AUTH_ROUTES.logout} method="post" hidden />
      <MenuButton aria-label={`Account menu for ${name}`} className={`flex items-center gap-2 rounded-full py-1 pl-1 pr-3 ${headerMenuButton}`}>
        <span aria-hidden className="flex h-7 w-7 items-center justify-center rounded-full bg-pine-700 text-xs font-semibold uppercase text-white">
          {name.slice(0, 1)}
        </span>
        {/* On the narrowest phones the initial stands for the name (the button's label still says it); long names are cut short. */}
        <span data-testid="member-name" className="hidden max-w-28 truncate min-[360px]:inline-block">
          {name}
        </span>
        <span aria-hidden className="text-stone-500">
          ▾
        </span>
      </MenuButton>
      <MenuItems anchor="bottom end" className="z-50 mt-2 w-44 rounded-lg border border-stone-200 bg-white py-1 shadow-lg focus:outline-none">
        <MenuItem>
          <Link href="/account" className="block px-4 py-2 text-sm text-stone-800 data-focus:bg-sand-100">
            Account
          </Link>
        </MenuItem>
        <MenuItem>
          <Link href="/account/profile" prefetch={false} className="block px-4 py-2 text-sm text-stone-800 data-focus:bg-sand-100">
            View my profile
          </Link>
        </MenuItem>
        {links.map((link) => (
          <MenuItem key={link.href}>
            <Link href={link.href} className="block px-4 py-2 text-sm text-stone-800 data-focus:bg-sand-100">
              {link.label}
            </Link>
          </MenuItem>
        ))}
        <MenuItem>
          <button
            type="button"
            onClick={() => logout.current?.requestSubmit()}
            className="block w-full px-4 py-2 text-left text-sm text-stone-800 data-focus:bg-sand-100"
          >
            Log out
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}
