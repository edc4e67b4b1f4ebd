import Link from "next/link";
import { reportsPageHref } from "@/lib/search-params";

const linkClass = "rounded-md border border-stone-300 bg-white px-3 py-1.5 font-medium text-pine-700 hover:border-pine-600";

/**
 * Newer and older pages of a report list: plain links (`?reports=N`), so they work without
 * script, and only two of them, so the page stays small however many reports there are.
 * `section` is the list's heading id: a link lands on the list, not the top of the page.
 */
export function ReportPages({ path, section, page, pageCount, label }: { path: string; section: string; page: number; pageCount: number; label: string }) {
  if (pageCount <= 1) return null;
  const href = (target: number) => `${reportsPageHref(path, target)}#${section}`;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3 text-sm">
      {page > 1 ? (
        <Link href={href(page - 1)} className={linkClass}>
          Newer reports
        </Link>
      ) : (
        <span />
      )}
      <span className="text-stone-700">
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link href={href(page + 1)} className={linkClass}>
          Older reports
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
