"use client";

import dynamic from "next/dynamic";

/**
 * The report forms load only where a member sees them: visitors, most of an item page's
 * readers, never download the form kit (conform and zod) with the page.
 */
export const NewReportForm = dynamic(() => import("./report-forms").then((module) => module.NewReportForm));
export const OwnReportControls = dynamic(() => import("./report-forms").then((module) => module.OwnReportControls));
