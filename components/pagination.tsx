import Link from "next/link";

const linkClass = "rounded-md border border-stone-300 bg-white px-3 py-1.5 hover:border-pine-600";

/** Numbered pages with previous/next; `hrefFor` writes a page's URL, keeping the rest of the list's state. */
export function Pagination({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor: (page: number) => string }) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-10 flex flex-wrap items-center justify-center gap-2 text-sm">
      {page > 1 && (
        <Link href={hrefFor(page - 1)} className={linkClass}>
          Previous
        </Link>
      )}
      {Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
        <Link
          key={n}
          href={hrefFor(n)}
          aria-current={n === page ? "page" : undefined}
          aria-label={`Page ${n}`}
          className={n === page ? "rounded-md bg-pine-700 px-3 py-1.5 text-white" : linkClass}
        >
          {n}
        </Link>
      ))}
      {page < pageCount && (
        <Link href={hrefFor(page + 1)} className={linkClass}>
          Next
        </Link>
      )}
    </nav>
  );
}
