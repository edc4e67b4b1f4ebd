import Link from "next/link";

export function SiteHeader() {
  return (
    <header className="border-b border-stone-200 bg-white/80 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-4 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-serif text-xl font-semibold text-pine-900">
          <span aria-hidden className="inline-block h-6 w-6 rounded-sm bg-pine-600 [clip-path:polygon(50%_0,100%_100%,0_100%)]" />
          Ridgeline
        </Link>
        <nav aria-label="Main" className="flex items-center gap-6 text-sm font-medium">
          <Link href="/trails" className="text-stone-700 hover:text-pine-700">
            Trails
          </Link>
        </nav>
      </div>
    </header>
  );
}
