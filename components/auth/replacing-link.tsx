"use client";

import type { MouseEvent, ReactNode } from "react";

/**
 * A plain link that, once script runs, takes the place of this page in the browser's history:
 * the site's login page is a step on the way to the hosted one, and Back from the page a login
 * returned to should not land on it (docs/auth-pitfalls.md). A click that opens a new tab or
 * window is left to the browser.
 */
export function ReplacingLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  const replace = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    window.location.replace(href);
  };
  return (
    <a href={href} className={className} onClick={replace}>
      {children}
    </a>
  );
}
