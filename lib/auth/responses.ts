import { NextResponse } from "next/server";
import { getConfig } from "@/lib/config";
import { problemHref, type SignInProblem } from "./routes";

/** Responses that set or clear auth cookies are never stored by any cache (docs/auth-pitfalls.md P10). */
export function noStoreRedirect(location: string | URL): NextResponse {
  const response = NextResponse.redirect(location, 303);
  response.headers.set("cache-control", "private, no-store");
  response.headers.set("referrer-policy", "no-referrer");
  return response;
}

/** The friendly page that explains a failed sign-in and offers to try again. */
export function signInProblem(reason: SignInProblem, returnTo = "/"): NextResponse {
  return noStoreRedirect(siteUrl(problemHref(reason, returnTo)));
}

/** Too many sign-ins from this address: the problem page says how long to wait. */
export function tooManyAttempts(retryAfterSeconds: number, returnTo = "/"): NextResponse {
  const response = noStoreRedirect(siteUrl(problemHref("too-many", returnTo, retryAfterSeconds)));
  response.headers.set("retry-after", String(retryAfterSeconds));
  return response;
}

export function siteUrl(path: string): URL {
  return new URL(path, getConfig().siteUrl);
}

/** Prefetches of auth routes get an empty answer: they must never start or end anything. */
export function prefetchAnswer(): NextResponse {
  return new NextResponse(null, { status: 204, headers: { "cache-control": "private, no-store" } });
}
