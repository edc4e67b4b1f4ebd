"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";
import { focusStaysOnControl } from "./list-form";

/**
 * The results heading: after a client-side navigation within the list (search, filter, page)
 * focus moves here, so keyboard and screen-reader users land on the new results, and the
 * status line below it is announced. A "load more" list counts its batches in `page` and
 * manages focus itself, so `ignorePage` leaves that parameter out.
 */
export function ResultsHeading({ children, status, ignorePage = false }: { children: React.ReactNode; status?: string; ignorePage?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const params = new URLSearchParams(useSearchParams());
  if (ignorePage) params.delete("page");
  const location = usePathname() + "?" + params.toString();
  const navigated = useRef(false);
  useEffect(() => {
    // The first render is a page load: focus stays where the browser put it. A filter that applied
    // as it changed keeps the focus too (the status line announces the results).
    if (navigated.current && !focusStaysOnControl()) heading.current?.focus();
    navigated.current = true;
  }, [location]);
  return (
    <div className="mb-4">
      <h2 ref={heading} tabIndex={-1} className="font-serif text-2xl font-semibold text-pine-900 focus:outline-none">
        {children}
      </h2>
      {status && (
        <p aria-live="polite" className="text-sm text-stone-600">
          {status}
        </p>
      )}
    </div>
  );
}
