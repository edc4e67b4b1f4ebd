import type { Metadata } from "next";
import { Suspense, type ReactNode } from "react";
import { EarlyPending } from "@/components/forms/early-pending";
import { SiteFooter } from "@/components/site-footer";
import { NavigationProgress } from "@/components/nav/navigation-progress";
import { SiteHeader } from "@/components/site-header";
import { getConfig } from "@/lib/config";
import { siteName } from "@/lib/site-config";
import "./globals.css";

export function generateMetadata(): Metadata {
  return {
    // Open Graph and canonical URLs are absolute on the site's own address.
    metadataBase: getConfig().siteUrl,
    title: { default: siteName, template: `%s · ${siteName}` },
    description: "Trails, outings and stories from the Ridgeline Hiking Club.",
    openGraph: { siteName, type: "website" },
  };
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      {/* A column as tall as the screen, so the footer stays at the bottom of short pages. */}
      <body className="flex min-h-screen flex-col font-sans text-stone-800 antialiased">
        <EarlyPending />
        {/* A thin bar at the top while a link's page loads, so a slow phone shows that the tap was taken. */}
        <Suspense>
          <NavigationProgress />
        </Suspense>
        <a href="#main" className="sr-only rounded-md bg-pine-900 px-4 py-2 text-white focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50">
          Skip to content
        </a>
        <SiteHeader />
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 pb-16 focus:outline-none sm:px-6">
          {children}
        </main>
        <SiteFooter />
      </body>
    </html>
  );
}
