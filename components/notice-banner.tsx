"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/**
 * The one-time notice under the header (a login, a logout, a deleted account...). It is new on
 * the page that shows it, so it takes the focus, and a screen reader reads it out, and brings the
 * top of the page into view: after a server action's redirect the browser may still be scrolled
 * where the member pressed the button. A page opened at an anchor (`#write-report`) keeps the
 * place it was opened at; the notice is still announced as a status.
 */
export function NoticeBanner({ text, tone }: { text: string; tone: "done" | "warning" }) {
  const region = useRef<HTMLDivElement>(null);
  // The header is part of the layout, which stays as the member moves on within the site: the
  // notice belongs to the page it came with.
  const pathname = usePathname();
  const [shownOn] = useState(pathname);
  useEffect(() => {
    // `#top` is the top of the page (an address a form's redirect gave a fragment of its own: form-reply.ts).
    if (window.location.hash && window.location.hash !== "#top") return;
    // After Next.js has finished its own scrolling and focusing for the navigation.
    const frame = requestAnimationFrame(() => {
      window.scrollTo({ top: 0 });
      region.current?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [text]);
  if (pathname !== shownOn) return null;
  const colours = tone === "done" ? "border-pine-100 bg-pine-50 text-pine-900" : "border-amber-200 bg-amber-50 text-amber-900";
  return (
    // No frame when it takes the focus: it is a message, not a control, and a ring round the whole
    // width of the page read as a rendering fault. Its own colour and border mark it.
    <div ref={region} role="status" tabIndex={-1} data-testid="site-notice" className={`border-b outline-none ${colours}`}>
      <p className="mx-auto max-w-6xl px-4 py-3 text-sm sm:px-6">{text}</p>
    </div>
  );
}
