"use client";

import { useEffect } from "react";

/**
 * Brings its anchor into view when the page was opened at it (`#write-report` after "Log in to
 * write a report"). A server action's redirect lands on the page through a client navigation,
 * which does not always scroll to the fragment, and content loaded later above can move it.
 */
export function AnchorInView({ id }: { id: string }) {
  useEffect(() => {
    if (window.location.hash !== `#${id}`) return;
    // After Next.js has finished its own scrolling and focusing for the navigation.
    const frame = requestAnimationFrame(() => document.getElementById(id)?.scrollIntoView({ block: "start" }));
    return () => cancelAnimationFrame(frame);
  }, [id]);
  return null;
}
