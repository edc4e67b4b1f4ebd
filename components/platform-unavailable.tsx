/** Said instead of a list or item when the club's data service does not answer. */
export function PlatformUnavailable({ retryHref }: { retryHref: string }) {
  return (
    <div role="alert" className="my-10 rounded-xl border border-amber-300 bg-amber-50 p-6 text-amber-950">
      <h2 className="font-serif text-xl font-semibold">We can&apos;t reach the club&apos;s data right now</h2>
      <p className="mt-2">This is usually brief. Please try again in a moment.</p>
      {/* A full reload, so the retry asks the platform again. */}
      <a href={retryHref} className="mt-4 inline-block rounded-lg bg-pine-700 px-4 py-2 font-medium text-white hover:bg-pine-600">
        Try again
      </a>
    </div>
  );
}
