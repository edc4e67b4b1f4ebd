"use client";

import { unstable_isUnrecognizedActionError as isActionOfAnotherBuild, useRouter } from "next/navigation";
import { startTransition } from "react";

const buttonClass = "mt-6 rounded-lg bg-pine-700 px-4 py-2 text-white hover:bg-pine-600";

export default function ErrorPage({ error, reset }: { error: Error; reset: () => void }) {
  const router = useRouter();
  // A form of a page loaded before the site was updated: its action is gone from this build, and
  // only a fresh load of the page brings the new one (as the no-JavaScript post's 409 page says).
  if (isActionOfAnotherBuild(error)) {
    return (
      <div className="py-24 text-center" role="alert">
        <h1 className="font-serif text-3xl font-semibold text-pine-900">This page was updated</h1>
        <p className="mt-2 text-stone-700">The site changed after you opened the page, so nothing was done. Reload it and send the form once more.</p>
        <button type="button" onClick={() => window.location.reload()} className={buttonClass}>
          Reload the page
        </button>
      </div>
    );
  }
  // Refetches the server components too, so a retry after the platform is back succeeds.
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  return (
    <div className="py-24 text-center" role="alert">
      <h1 className="font-serif text-3xl font-semibold text-pine-900">Something went wrong</h1>
      <p className="mt-2 text-stone-700">We could not load this page. The club&apos;s data service may be unavailable for a moment.</p>
      <button type="button" onClick={retry} className={buttonClass}>
        Try again
      </button>
    </div>
  );
}
