import Link from "next/link";
import { getSession } from "@/lib/auth/request-session";
import { loginPageHref } from "@/lib/auth/routes";
import type { CollectionWithReports } from "@/lib/site-config";
import { whenAvailable } from "@/lib/wix/collections";
import { reportSummary } from "@/lib/wix/reports";
import { REPORTS_ANCHOR, WRITE_REPORT_ANCHOR } from "./item-reports";
import { Stars } from "./stars";

const linkClass = "font-medium text-pine-700 underline underline-offset-2 hover:text-pine-900";

/**
 * The top of a trail's page: its members' average rating, how many reports there are (a link down
 * to them) and "Write a report". The figures are the same for everyone (a cached aggregation);
 * only where "Write a report" goes depends on who asks: a member's form further down, or for a
 * visitor the login, which comes back to that form. Nothing shows when the reports cannot be read.
 */
export async function ReportSummary({ collection, item }: { collection: CollectionWithReports; item: { id: string; href: string } }) {
  const [read, session] = await Promise.all([whenAvailable(() => reportSummary(collection, item.id)), getSession()]);
  if (!read.reachable) return null;
  const { count, averageRating } = read.value;
  const writeHref = session?.role === "member" ? `#${WRITE_REPORT_ANCHOR}` : loginPageHref(`${item.href}#${WRITE_REPORT_ANCHOR}`);
  const average = averageRating?.toFixed(1);
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-stone-800" data-testid="report-summary">
      {average && (
        <span className="flex items-center gap-1.5">
          <Stars filled={Number(average)} label={`Average rating ${average} of 5`} />
          <span aria-hidden className="font-semibold">
            {average}
          </span>
        </span>
      )}
      <a href={`#${REPORTS_ANCHOR}`} className={linkClass}>
        {count === 0 ? "No reports yet" : `${count} ${count === 1 ? "report" : "reports"}`}
      </a>
      <span aria-hidden className="text-stone-400">
        ·
      </span>
      <Link href={writeHref} className={linkClass}>
        Write a report
      </Link>
    </p>
  );
}
