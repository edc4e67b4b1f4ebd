import { NextResponse } from "next/server";
import { getConfig } from "@/lib/config";

/** Responses that set or clear auth cookies are never stored by any cache (pitfall P10). */
export function noStoreRedirect(location: string | URL): NextResponse {
  const response = NextResponse.redirect(location, 303);
  response.headers.set("cache-control", "private, no-store");
  response.headers.set("referrer-policy", "no-referrer");
  return response;
}

export type SignInProblem = "missing" | "state" | "denied" | "exchange" | "unavailable";

/** The friendly page that explains a failed sign-in and offers to try again. */
export function signInProblem(reason: SignInProblem, returnTo = "/"): NextResponse {
  const url = new URL("/auth/error", getConfig().siteUrl);
  url.searchParams.set("reason", reason);
  url.searchParams.set("returnTo", returnTo);
  return noStoreRedirect(url);
}

export function siteUrl(path: string): URL {
  return new URL(path, getConfig().siteUrl);
}
