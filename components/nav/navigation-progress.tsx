"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/** Asks for the bar from code that navigates without a link (the list's form). */
export function startNavigationProgress(): void {
  window.dispatchEvent(new Event(NAVIGATION_STARTED));
}
const NAVIGATION_STARTED = "ridgeline:navigation-started";

/** Hidden until a navigation starts, then growing slowly towards the end while the page loads. */
const barClass =
  "pointer-events-none fixed inset-x-0 top-0 z-[60] h-[3px] origin-left scale-x-0 bg-ember-500 " +
  "data-loading:scale-x-90 data-loading:transition-transform data-loading:duration-[3000ms] data-loading:ease-out";

/** A navigation that never lands (an error the router swallows) must not leave the bar up. */
const GIVE_UP_MS = 15_000;

/** Whether a click on this element leaves for another page of the site, in this tab. */
function leavesForAnotherPage(event: MouseEvent): boolean {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[href]") : null;
  if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return false;
  const to = new URL(link.href, window.location.href);
  return to.origin === window.location.origin && (to.pathname !== window.location.pathname || to.search !== window.location.search);
}

/**
 * A thin bar at the top of the page from a click on a link until the next page is shown, so a
 * tap on a slow phone visibly took. Our own few lines rather than a progress-bar package: public
 * pages have a JavaScript budget (docs/performance.md), and this is all the site needs.
 */
export function NavigationProgress() {
  // The page a navigation left from: the bar shows until another page is shown.
  const [leaving, setLeaving] = useState<string | null>(null);
  const location = `${usePathname()}?${useSearchParams().toString()}`;
  const loading = leaving === location;
  const here = useRef(location);
  useEffect(() => {
    here.current = location;
  }, [location]);

  useEffect(() => {
    if (!loading) return;
    const giveUp = setTimeout(() => setLeaving(null), GIVE_UP_MS);
    return () => clearTimeout(giveUp);
  }, [loading]);

  useEffect(() => {
    const leave = () => setLeaving(here.current);
    const onClick = (event: MouseEvent) => {
      if (leavesForAnotherPage(event)) leave();
    };
    const onStart = leave;
    document.addEventListener("click", onClick);
    window.addEventListener(NAVIGATION_STARTED, onStart);
    return () => {
      document.removeEventListener("click", onClick);
      window.removeEventListener(NAVIGATION_STARTED, onStart);
    };
  }, []);

  return <div aria-hidden data-loading={loading || undefined} className={barClass} />;
}
