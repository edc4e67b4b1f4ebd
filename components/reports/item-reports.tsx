import Link from "next/link";
import { AnchorInView } from "@/components/anchor-in-view";
import { deleteReportAction, editReportAction, writeReportAction } from "./actions";
import { getSession } from "@/lib/auth/request-session";
import { noteRenderOwners } from "@/lib/cache/page-cache-signals";
import { loginPageHref } from "@/lib/auth/routes";
import type { CollectionConfig } from "@/lib/site-config";
import { reportsAbout } from "@/lib/wix/reports";
import { NewReportForm, OwnReportControls } from "./lazy-forms";
import { ReportCard } from "./report-card";
import { ReportPages } from "./report-pages";
import { ReportsFeedback } from "./reports-feedback";

/** Where "Log in to write a report" comes back to: the form, not the top of the page. */
export const WRITE_REPORT_ANCHOR = "write-report";
/** The reports' section, which the count at the top of the page links to. */
export const REPORTS_ANCHOR = "member-reports";

/**
 * Members' reports on an item's page. The list is the same for everyone (read from the shared
 * cache); who is asking only decides which controls show, and the platform refuses a change
 * to someone else's report whatever the page shows. `page` is the page of reports shown
 * (`?reports=`); the item page has checked it exists.
 */
export async function ItemReports({ collection, item, page }: { collection: CollectionConfig; item: { id: string; href: string }; page: number }) {
  const config = collection.memberReports;
  if (!config) return null;
  const [{ reports, pageCount }, session] = await Promise.all([reportsAbout({ ...collection, memberReports: config }, item.id, page), getSession()]);
  const memberId = session?.role === "member" ? session.member?.id : undefined;
  // Their authors see their own controls on this page: the page cache sends them to Next.js.
  noteRenderOwners(reports.map((report) => report.authorId));
  return (
    <section aria-labelledby={REPORTS_ANCHOR} className="mt-12 space-y-5">
      <h2 id={REPORTS_ANCHOR} className="font-serif text-2xl font-semibold text-pine-900">
        {config.title}
      </h2>
      <ReportsFeedback actions={{ write: writeReportAction, edit: editReportAction, remove: deleteReportAction }}>
        {reports.length === 0 ? (
          <p className="text-stone-700">No reports yet. Walked it lately? Tell the others how it was.</p>
        ) : (
          <div className="space-y-4">
            {reports.map((report) => (
              <ReportCard key={report.id} report={report}>
                {memberId && report.authorId === memberId && <OwnReportControls route={collection.route} report={report} />}
              </ReportCard>
            ))}
          </div>
        )}
        <ReportPages path={item.href} section={REPORTS_ANCHOR} page={page} pageCount={pageCount} label={`Pages of ${config.title.toLowerCase()}`} />
        {session?.role === "member" ? (
          <div id={WRITE_REPORT_ANCHOR} className="scroll-mt-4 rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
            <AnchorInView id={WRITE_REPORT_ANCHOR} />
            <h3 className="mb-4 font-serif text-lg font-semibold text-pine-900">Write a report</h3>
            <NewReportForm route={collection.route} itemId={item.id} />
          </div>
        ) : (
          <p className="text-stone-700">
            <Link href={loginPageHref(`${item.href}#${WRITE_REPORT_ANCHOR}`)} className="font-medium text-pine-700 underline underline-offset-2">
              Log in to write a report
            </Link>{" "}
            about this {collection.singular.toLowerCase()}.
          </p>
        )}
      </ReportsFeedback>
    </section>
  );
}
