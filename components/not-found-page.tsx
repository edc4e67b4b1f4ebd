import type { Metadata } from "next";
import Link from "next/link";
import type { ReactElement } from "react";
import { noteNotFound } from "@/lib/observability/request-context";
import { siteCollections } from "@/lib/site-config";

/** The metadata of every "not found" answer: search engines keep none of them. */
export const notFoundMetadata: Metadata = { title: "Page not found", robots: { index: false } };

/** What a person sees at an address with nothing behind it: what happened, and ways on. */
export function NotFoundContent() {
  return (
    <div className="py-24 text-center">
      <h1 className="font-serif text-3xl font-semibold text-pine-900">Page not found</h1>
      <p className="mt-2 text-stone-700">That page does not exist, or the link is malformed. Perhaps one of these?</p>
      <ul className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2">
        <li>
          <Link href="/" className="text-pine-700 underline">
            Home
          </Link>
        </li>
        {siteCollections.map((collection) => (
          <li key={collection.route}>
            <Link href={`/${collection.route}`} className="text-pine-700 underline">
              {collection.title}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What a page returns in place of next/navigation's `notFound()` when what its address names does
 * not exist. Next.js 16.4 answers a `notFound()` thrown by a page (or its metadata) with an empty
 * error shell and draws the not-found page only once its script has run (vercel/next.js#62228):
 * blank without JavaScript, late on a slow phone. This answer is the page's own, inside the root
 * layout, in the HTML; the server entry (server/serve.ts) sends it with 404.
 */
export function notFoundPage(): ReactElement {
  noteNotFound();
  return <NotFoundContent />;
}
