import type { Metadata } from "next";
import Link from "next/link";
import { siteCollections } from "@/lib/site-config";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
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
