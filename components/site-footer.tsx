import Link from "next/link";
import { memberOutings, siteCollections, siteName } from "@/lib/site-config";

export function SiteFooter() {
  return (
    <footer className="border-t border-stone-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-stone-700 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>{siteName} · Leave only footprints.</p>
        <nav aria-label="Site sections">
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {[...siteCollections, memberOutings].map((collection) => (
              <li key={collection.route}>
                <Link href={`/${collection.route}`} className="text-pine-700 underline-offset-2 hover:underline">
                  {collection.title}
                </Link>
              </li>
            ))}
            <li>
              <Link href="/members" className="text-pine-700 underline-offset-2 hover:underline">
                Members
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
