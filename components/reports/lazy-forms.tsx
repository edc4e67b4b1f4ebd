"use client";

import { lazy, Suspense, type ComponentProps } from "react";
import type * as ReportForms from "./report-forms";

/**
 * The report forms load only where a member sees them: visitors, most of an item page's
 * readers, never download the form kit (conform and zod) with the page.
 *
 * React's `lazy`, not `next/dynamic`: for a server-rendered dynamic component Next.js adds
 * `<link rel="preload" as="script">` tags for its chunks without the page's nonce, and under
 * the nonce-based policy ('strict-dynamic') the browser refuses each of them (e2e/csp.spec.ts).
 * The chunk then comes from webpack's own loader, which carries the nonce.
 */
const reportForms = () => import("./report-forms");
const LazyNewReportForm = lazy(() => reportForms().then((module) => ({ default: module.NewReportForm })));
const LazyOwnReportControls = lazy(() => reportForms().then((module) => ({ default: module.OwnReportControls })));

export function NewReportForm(props: ComponentProps<typeof ReportForms.NewReportForm>) {
  return (
    <Suspense>
      <LazyNewReportForm {...props} />
    </Suspense>
  );
}

export function OwnReportControls(props: ComponentProps<typeof ReportForms.OwnReportControls>) {
  return (
    <Suspense>
      <LazyOwnReportControls {...props} />
    </Suspense>
  );
}
