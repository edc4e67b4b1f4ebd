import type { Metadata } from "next";
import { NotFoundContent } from "@/components/not-found-page";

// Addresses no route matches: Next.js renders this inside the root layout, with 404, in the HTML.
export const metadata: Metadata = { title: "Page not found" };

export default NotFoundContent;
