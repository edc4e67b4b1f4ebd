"use client";

import type { ComponentProps } from "react";
import { lazyInPage } from "@/components/lazy-in-page";
import type * as ReportForms from "./report-forms";

/**
 * The report forms load only where a member sees them: visitors, most of an item page's
 * readers, never download the form kit (conform and zod) with the page. On the server they are
 * part of the page's HTML, so they work before the script arrives and without it.
 *
 * React's `lazy`, not `next/dynamic`: for a server-rendered dynamic component Next.js adds
 * `<link rel="preload" as="script">` tags for its chunks without the page's nonce, and under
 * the nonce-based policy ('strict-dynamic') the browser refuses each of them (e2e/csp.spec.ts).
 */
const reportForms = lazyInPage<typeof ReportForms>(
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the server renders them at once (lazyInPage)
  typeof window === "undefined" ? require("./report-forms") : () => import("./report-forms"),
);
const LazyNewReportForm = reportForms((module) => module.NewReportForm);
const LazyOwnReportControls = reportForms((module) => module.OwnReportControls);

// Components of their own, not the lazy objects: what the server's page names must be a function.
export function NewReportForm(props: ComponentProps<typeof ReportForms.NewReportForm>) {
  return <LazyNewReportForm {...props} />;
}

export function OwnReportControls(props: ComponentProps<typeof ReportForms.OwnReportControls>) {
  return <LazyOwnReportControls {...props} />;
}
