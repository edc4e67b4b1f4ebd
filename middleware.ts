import { NextResponse, type NextRequest } from "next/server";
import { withSession } from "@/lib/auth/middleware";
import { getConfig } from "@/lib/config";
import { CACHE_RENDER_HEADER, contentSecurityPolicy, platformPageOrigins } from "@/lib/security/policy";
import { refuseRequest } from "@/lib/security/request-guard";

export async function middleware(request: NextRequest) {
  const { siteUrl, localPlatformUrl } = getConfig();
  const refused = refuseRequest(request.method, request.headers, siteUrl.origin);
  if (refused)
    return new NextResponse(refused.message, { status: refused.status, headers: { "content-type": "text/plain; charset=utf-8", ...refused.headers } });

  const context = {
    platformOrigins: platformPageOrigins(localPlatformUrl),
    https: siteUrl.protocol === "https:",
    development: process.env.NODE_ENV === "development",
  };
  // A render for the page cache gets no nonce: the server sends its policy with the hashes of the
  // page's scripts (server/page-cache). Only the server sets this header (it drops any a client
  // sends); should one get through elsewhere, its policy allows no inline script at all.
  if (request.headers.get(CACHE_RENDER_HEADER) === "1") {
    const response = await withSession(request);
    response.headers.set("content-security-policy", contentSecurityPolicy({ ...context, scripts: { hashes: [] } }));
    return response;
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = contentSecurityPolicy({ ...context, scripts: { nonce } });
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
