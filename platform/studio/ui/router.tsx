import { useEffect, useState, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";

/** The Studio's own addresses: `/_local/studio/<area>/<rest…>`, moved between with the History API. */
export const STUDIO_BASE = "/_local/studio";

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Whether the person has moved inside the Studio since the page loaded: a loaded page keeps the browser's own focus at its start. */
let moved = false;
export const movedInStudio = () => moved;
window.addEventListener("popstate", () => (moved = true));

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", listener);
  };
}

const currentUrl = () => window.location.pathname + window.location.search;

/** The current address below the Studio's base: its path segments and its query. */
export function useLocation(): { segments: string[]; search: URLSearchParams } {
  const url = useSyncExternalStore(subscribe, currentUrl);
  const parsed = new URL(url, window.location.origin);
  const rest = parsed.pathname.startsWith(STUDIO_BASE) ? parsed.pathname.slice(STUDIO_BASE.length) : "";
  return { segments: rest.split("/").filter(Boolean).map(decodeURIComponent), search: parsed.searchParams };
}

/** A Studio address from path segments (each encoded) and an optional query. */
export function studioHref(segments: readonly string[], query?: Record<string, string | undefined>): string {
  const path = [STUDIO_BASE, ...segments.map(encodeURIComponent)].join("/");
  const search = new URLSearchParams(Object.entries(query ?? {}).filter((entry): entry is [string, string] => !!entry[1]));
  return search.size ? `${path}?${search}` : path;
}

export function navigate(href: string, options: { replace?: boolean } = {}) {
  if (href === currentUrl()) return;
  if (options.replace) window.history.replaceState(null, "", href);
  else {
    window.history.pushState(null, "", href);
    moved = true;
  }
  notify();
}

/** What to ask before a link leaves a page with changes not yet saved; null when there are none. */
let unsavedQuestion: string | null = null;

/**
 * While `question` is set (a form has changes not yet saved), a Studio link asks it before it
 * leaves, and the browser asks its own before a reload or closing the tab. The moves a page makes
 * itself after a save or a deletion are not asked about.
 */
export function useLeaveGuard(question: string | null) {
  useEffect(() => {
    if (!question) return;
    unsavedQuestion = question;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => {
      unsavedQuestion = null;
      window.removeEventListener("beforeunload", warn);
    };
  }, [question]);
}

/** A real link (it opens in a new tab, can be copied) that moves inside the Studio without a reload. */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  function follow(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (unsavedQuestion && !window.confirm(unsavedQuestion)) return;
    navigate(href);
  }
  return <a href={href} onClick={follow} {...rest} />;
}

/** A value that follows `value` after it has stopped changing for `ms` (for filter boxes). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
