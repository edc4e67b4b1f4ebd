import { NextResponse, type NextRequest } from "next/server";
import { withSession } from "@/lib/auth/middleware";
import { getConfig } from "@/lib/config";
import { contentSecurityPolicy } from "@/lib/security/policy";
import { refuseRequest } from "@/lib/security/request-guard";

/** The platform's pages a form may lead to (the logout redirect): Wix's, or the local platform. */
function platformOrigins(): string[] {
  const { localPlatformUrl } = getConfig();
  return localPlatformUrl ? [new URL(localPlatformUrl).origin] : ["https://www.wixapis.com", "https://users.wix.com"];
}

export async function middleware(request: NextRequest) {
  const { siteUrl } = getConfig();
  const refused = refuseRequest(request.method, request.headers, siteUrl.origin);
  if (refused) return new NextResponse(refused.message, { status: refused.status, headers: { "content-type": "text/plain; charset=utf-8", ...refused.headers } });

  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy({ nonce, platformOrigins: platformOrigins(), https: siteUrl.protocol === "https:", development: process.env.NODE_ENV === "development" });
  // Next.js finds the nonce in the request's policy and puts it on the scripts it renders.
  const response = await withSession(request, { "content-security-policy": policy });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  runtime: "nodejs",
  // Static assets, images and metadata files need no session and carry no script; health checks need nothing.
  matcher: ["/((?!_next/static|_next/image|media/|favicon.ico|robots.txt|sitemap.xml|api/health).*)"],
};
