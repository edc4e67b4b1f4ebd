import type { Metadata } from "next";
import { headers } from "next/headers";
import { refererPath } from "@/lib/auth/return-to";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Page updated", robots: { index: false } };

/**
 * What a form sent without JavaScript from a page loaded before the site was updated gets: its
 * action is gone from this build, so nothing was done (server/serve.ts answers the POST with this
 * page and a 409). The link leads back to the page the form was on, which now loads anew.
 */
export default async function PageUpdatedPage() {
  const back = refererPath((await headers()).get("referer"), getConfig().siteUrl.origin);
  return (
    <section className="mx-auto max-w-lg py-20 text-center">
      <h1 className="font-serif text-3xl font-semibold text-pine-900">This page was updated</h1>
      <p className="mt-3 text-stone-600">
        The site changed after you opened the page, so the form you sent could not be taken and nothing was done. Open the page again and send it once more.
      </p>
      <div className="mt-8 flex justify-center">
        {/* A plain link: the page loads anew, with this build's forms. */}
        <a href={back} className="rounded-lg bg-pine-700 px-5 py-2.5 font-medium text-white hover:bg-pine-600">
          Back to the page
        </a>
      </div>
    </section>
  );
}
