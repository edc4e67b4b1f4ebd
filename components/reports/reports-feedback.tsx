"use client";

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";

const Announce = createContext<((message: string) => void) | null>(null);

/**
 * One place for what the report forms confirm (published, updated, deleted), above the list of
 * reports. A form's own message would go with it: a deleted report's card, and its form, are gone
 * from the refreshed list, and the editor closes once saved. The newest message replaces the last
 * one and takes the focus, so the member hears it and goes on from the top of the list.
 */
export function ReportsFeedback({ children }: { children: ReactNode }) {
  const [news, setNews] = useState<{ message: string; serial: number } | null>(null);
  const region = useRef<HTMLParagraphElement>(null);
  const announce = useCallback((message: string) => setNews((previous) => ({ message, serial: (previous?.serial ?? 0) + 1 })), []);
  useEffect(() => {
    if (!news) return;
    // After the form's own reply handling, which would otherwise keep the focus.
    const frame = requestAnimationFrame(() => region.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [news]);
  return (
    <Announce value={announce}>
      {news && (
        <p
          key={news.serial}
          ref={region}
          role="status"
          tabIndex={-1}
          className="rounded-lg border border-pine-100 bg-pine-50 px-4 py-3 text-sm text-pine-900 outline-none focus-visible:ring-4 focus-visible:ring-pine-100"
        >
          {news.message}
        </p>
      )}
      {children}
    </Announce>
  );
}

/** Where a report form sends its confirmation; null outside a ReportsFeedback. */
export function useReportsAnnounce(): ((message: string) => void) | null {
  return useContext(Announce);
}
