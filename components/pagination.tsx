import Link from "next/link";

export function Pagination({ page, pageCount, basePath }: { page: number; pageCount: number; basePath: string }) {
  if (pageCount <= 1) return null;
  const href = (n: number) => (n === 1 ? basePath : `${basePath}?page=${n}`);
  return (
    <nav aria-label="Pagination" className="mt-10 flex items-center justify-center gap-2 text-sm">
      {page > 1 && (
        <Link href={href(page - 1)} className="rounded-md border border-stone-300 px-3 py-1.5 hover:bg-white">
          Previous
        </Link>
      )}
      {Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
        <Link
          key={n}
          href={href(n)}
          aria-current={n === page ? "page" : undefined}
          className={`rounded-md px-3 py-1.5 ${n === page ? "bg-pine-700 text-white" : "border border-stone-300 hover:bg-white"}`}
        >
          {n}
        </Link>
      ))}
      {page < pageCount && (
        <Link href={href(page + 1)} className="rounded-md border border-stone-300 px-3 py-1.5 hover:bg-white">
          Next
        </Link>
      )}
    </nav>
  );
}
