"use client";

import { lazy, Suspense } from "react";

/**
 * The members' session pre-warm, loaded only by members' pages: every page loads the header, and
 * public pages have a JavaScript budget (docs/performance.md). (The one-time notice is not loaded
 * this way: it takes the focus, and a late one would take it from whatever the reader has begun.)
 */
const LazySessionPrewarm = lazy(() => import("./session-prewarm").then((module) => ({ default: module.SessionPrewarm })));

export function SessionPrewarm() {
  return (
    <Suspense>
      <LazySessionPrewarm />
    </Suspense>
  );
}
