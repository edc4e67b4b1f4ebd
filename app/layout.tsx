import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Ridgeline Hiking Club", template: "%s · Ridgeline Hiking Club" },
  description: "Trails, outings and stories from the Ridgeline Hiking Club.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans text-stone-800 antialiased">
        <SiteHeader />
        <main className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">{children}</main>
        <footer className="border-t border-stone-200 py-8 text-center text-sm text-stone-500">
          Ridgeline Hiking Club · Leave only footprints.
        </footer>
      </body>
    </html>
  );
}
