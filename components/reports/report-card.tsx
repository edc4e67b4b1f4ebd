import Link from "next/link";
import type { Report } from "@/lib/wix/reports";
import { Stars } from "./stars";

const dayFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** One report as anyone sees it; its text is plain text, never markup. */
export function ReportCard({ report, about, children }: { report: Report; about?: { title: string; href: string }; children?: React.ReactNode }) {
  return (
    <article aria-labelledby={`report-${report.id}`} className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
      <h3 id={`report-${report.id}`} className="font-serif text-lg font-semibold text-pine-900">
        {report.title}
      </h3>
      <p className="mt-1 flex flex-wrap gap-x-2 text-sm text-stone-700">
        <Stars filled={report.rating} label={`Rated ${report.rating} of 5`} />
        {report.hikedOn && <span>· Walked {dayFormat.format(new Date(`${report.hikedOn}T00:00:00Z`))}</span>}
        {about ? (
          <span>
            · on{" "}
            <Link href={about.href} className="font-medium text-pine-700 underline underline-offset-2">
              {about.title}
            </Link>
          </span>
        ) : (
          <span>
            · by{" "}
            {report.author ? (
              <Link href={`/members/${report.author.slug}`} className="font-medium text-pine-700 underline underline-offset-2">
                {report.author.name}
              </Link>
            ) : (
              "a member"
            )}
          </span>
        )}
      </p>
      <p className="mt-3 whitespace-pre-line break-words leading-relaxed text-stone-800">{report.body}</p>
      {children}
    </article>
  );
}
