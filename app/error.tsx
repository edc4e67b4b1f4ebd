"use client";

import { useRouter } from "next/navigation";
import { startTransition } from "react";

export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  const router = useRouter();
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
      <button type="button" onClick={retry} className="mt-6 rounded-lg bg-pine-700 px-4 py-2 text-white hover:bg-pine-600">
        Try again
      </button>
    </div>
  );
}
