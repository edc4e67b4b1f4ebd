import type { NextRequest } from "next/server";
import { withSession } from "@/lib/auth/middleware";

export function middleware(request: NextRequest) {
  return withSession(request);
}

export const config = {
  runtime: "nodejs",
  // Static assets, images and metadata files need no session.
  matcher: ["/((?!_next/static|_next/image|media/|favicon.ico|robots.txt|sitemap.xml).*)"],
};
