import "@/lib/zod-csp";
import { z } from "zod";

/**
 * The trail-report forms: fields, rules and messages. The client checks with these before
 * submitting and the server action checks again; the text is stored and shown as plain text.
 */

/**
 * What a muted member is told, on the report form they send and on their account page: what
 * muting stops, what it leaves them, and that their earlier reports stay (docs/member-experience.md).
 */
export const MUTED_WORDS =
  "The club has muted your account, so you cannot publish or change trail reports for now. Your earlier reports stay on the site, and you can " +
  "still read everything, join outings and delete your own reports. If you think this is a mistake, contact a club organiser.";

/** The longest title and body the form takes; reports read back are cut to the same (lib/wix/reports.ts). */
export const REPORT_LIMITS = { title: 120, body: 4000 } as const;

const id = (what: string) =>
  z
    .string({ error: `This form lost its ${what}. Reload the page and try again.` })
    .trim()
    .min(1)
    .max(200);

/** "YYYY-MM-DD", a real day and not in the future (a report is about a walk that happened). */
const hikedOn = z
  .string({ error: "Enter the day you walked it." })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the day as YYYY-MM-DD.")
  .pipe(z.iso.date("That day does not exist."))
  .refine((value) => value <= new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10), "That day is still to come.");

const content = {
  title: z
    .string({ error: "Give your report a title." })
    .trim()
    .min(1, "Give your report a title.")
    .max(REPORT_LIMITS.title, "Keep the title to 120 characters."),
  body: z
    .string({ error: "Tell other walkers what you found." })
    .trim()
    .min(1, "Tell other walkers what you found.")
    .max(REPORT_LIMITS.body, "Keep the report to 4,000 characters."),
  rating: z.coerce
    .number({ error: "Rate the walk from 1 to 5." })
    .int("Rate the walk with a whole number from 1 to 5.")
    .min(1, "Rate the walk from 1 to 5.")
    .max(5, "Rate the walk from 1 to 5."),
  hikedOn,
};

export const newReportSchema = z.object({ trailId: id("trail"), ...content });
export const editReportSchema = z.object({ reportId: id("report"), ...content });
export const deleteReportSchema = z.object({ reportId: id("report") });

export type ReportContent = Pick<z.infer<typeof newReportSchema>, keyof typeof content>;
