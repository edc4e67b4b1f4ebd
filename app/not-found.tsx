import Link from "next/link";

export default function NotFound() {
  return (
    <div className="py-24 text-center">
      <h1 className="font-serif text-3xl font-semibold text-pine-900">Page not found</h1>
      <p className="mt-2 text-stone-600">That page does not exist, or the link is malformed.</p>
      <Link href="/" className="mt-6 inline-block text-pine-700 hover:underline">
        Back to the home page
      </Link>
    </div>
  );
}
