"use client";

export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="py-24 text-center" role="alert">
      <h1 className="font-serif text-3xl font-semibold text-pine-900">Something went wrong</h1>
      <p className="mt-2 text-stone-600">We could not load this page. The site&apos;s data service may be unavailable.</p>
      <button type="button" onClick={reset} className="mt-6 rounded-lg bg-pine-700 px-4 py-2 text-white hover:bg-pine-600">
        Try again
      </button>
    </div>
  );
}
