import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { carriesSiteState } from "@/lib/auth/cookie-names";
import { MEMBER_LOGGED_IN_PARAM } from "@/lib/auth/routes";
import { directoryHref, listHref, parseDirectoryState, parseListState, parseReportsPage, reportsPageHref, searchParamsOf } from "@/lib/search-params";
import { siteCollections } from "@/lib/site-config";

/**
 * Which requests the page cache answers, and under which key. Pure: tested on its own
 * (tests/page-cache-key.test.ts).
 *
 * Only a visitor's GET or HEAD of a public page is cached. Its key is the page's canonical URL
 * (the query the page understands, parsed as the page parses it and written back in one order)
 * and, for the RSC requests of client-side navigations, the headers Next.js varies its answer
 * on. A query that is not canonical is redirected to the canonical one, so random parameters
 * cost a redirect, never a render or an entry.
 */

/** Next.js's client sends these on RSC requests (navigations, prefetches); its answer varies on them. */
export const RSC_VARY_HEADERS = ["next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-url"] as const;
/** The cache-busting parameter Next.js's client adds to RSC requests, a hash of the headers above. */
export const RSC_PARAM = "_rsc";

export type PageKind = "document" | "rsc";

/** What the page cache renders for a key: always a visitor's GET of the canonical URL. */
export type PageTarget = {
  key: string;
  kind: PageKind;
  /** Path and canonical query, for logs and for the render. */
  url: string;
  /** The request headers the render needs (the RSC headers); never a cookie. */
  headers: Record<string, string>;
  /** A member's view, rendered for the template member and filled in for each (member-template.ts). */
  member?: true;
  /** One member's own page, rendered with their Cookie header and kept for it only, in this instance's memory. */
  personal?: { memberId: string; cookie: string };
};

export type CacheDecision =
  | { action: "cache"; target: PageTarget }
  | { action: "redirect"; location: string }
  | { action: "bypass"; reason: "method" | "site-cookie" | "not-public" | "invalid-query" | "login-return" | "personal" };

/**
 * Who the page is for: a visitor, or a member the server has found may be answered from a
 * template (lib/auth/session-decision.ts); their pages have keys of their own.
 */
export type Viewer = "visitor" | "member";

/** The canonical query of a public page ("" for none), "invalid" when the page would answer 404, or null for any other path. */
export function canonicalQuery(pathname: string, params: URLSearchParams): string | "invalid" | null {
  if (pathname === "/" || pathname === "/sitemap.xml" || pathname === "/robots.txt") return "";
  const segments = pathname.split("/").slice(1);
  if (segments.some((segment) => segment === "")) return null;
  if (segments[0] === "members") {
    if (segments.length === 2) return reportsQuery(params);
    if (segments.length !== 1) return null;
    const state = parseDirectoryState(searchParamsOf(params));
    if (!state) return "invalid";
    const href = directoryHref(state);
    return href.includes("?") ? href.slice(href.indexOf("?") + 1) : "";
  }
  const collection = siteCollections.find((candidate) => candidate.route === segments[0]);
  if (!collection || segments.length > 2) return null;
  if (segments.length === 2) return collection.memberReports ? reportsQuery(params) : "";
  const state = parseListState(collection, searchParamsOf(params));
  if (!state) return "invalid";
  const href = listHref(collection, state);
  return href.includes("?") ? href.slice(href.indexOf("?") + 1) : "";
}

/** An item's or a member's page understands only `?reports=`, the page of reports it shows. */
function reportsQuery(params: URLSearchParams): string | "invalid" {
  const page = parseReportsPage(searchParamsOf(params));
  if (page === null) return "invalid";
  return reportsPageHref("", page).replace(/^\?/, "");
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function keyOf(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url");
}

/**
 * Public pages that are personal for every member: an outing's page shows whether the member
 * joined it. (Pages only for members, /account and /member-outings, are not public pages at all.)
 */
function personalForMembers(pathname: string): boolean {
  const segments = pathname.split("/").slice(1);
  return segments.length === 2 && siteCollections.some((collection) => collection.route === segments[0] && collection.outing);
}

/** Pages only for members that the page cache keeps for each member (the rest, the recovery codes shown once among them, go to Next.js). */
const KEPT_MEMBER_PAGES = new Set(["/account"]);

/**
 * A member's own page that may be kept for them (their account, an outing's page with their
 * sign-up), or null. Its key holds the whole Cookie header, so a kept page answers only the
 * browser whose cookies rendered it; the caller adds whose it is, so their changes drop it.
 */
export function personalTarget(method: string | undefined, rawUrl: string, headers: IncomingHttpHeaders): Omit<PageTarget, "personal"> | null {
  if ((method !== "GET" && method !== "HEAD") || headers["next-action"] !== undefined) return null;
  const url = new URL(rawUrl, "http://site.invalid");
  const kind: PageKind = headers.rsc === "1" ? "rsc" : "document";
  const rscParam = kind === "rsc" ? url.searchParams.get(RSC_PARAM) : null;
  if (rscParam !== null) url.searchParams.delete(RSC_PARAM);
  if (url.searchParams.size > 0 || !(KEPT_MEMBER_PAGES.has(url.pathname) || personalForMembers(url.pathname))) return null;
  const varied = variedHeaders(kind, headers);
  const renderUrl = rscParam === null ? url.pathname : `${url.pathname}?${RSC_PARAM}=${encodeURIComponent(rscParam)}`;
  return { key: keyOf(["personal", kind, url.pathname, varied, headerValue(headers, "cookie") ?? ""]), kind, url: renderUrl, headers: varied };
}

/** The RSC headers Next.js varies a navigation's answer on, as the request has them; none for a document. */
function variedHeaders(kind: PageKind, headers: IncomingHttpHeaders): Record<string, string> {
  const varied: Record<string, string> = {};
  if (kind === "document") return varied;
  varied.rsc = "1";
  for (const name of RSC_VARY_HEADERS) {
    const value = headerValue(headers, name);
    if (value !== undefined) varied[name] = value;
  }
  return varied;
}

export function decide(method: string | undefined, rawUrl: string, headers: IncomingHttpHeaders, viewer: Viewer = "visitor"): CacheDecision {
  if (method !== "GET" && method !== "HEAD") return { action: "bypass", reason: "method" };
  if (headers["next-action"] !== undefined) return { action: "bypass", reason: "method" };
  if (viewer === "visitor" && carriesSiteState(headerValue(headers, "cookie"))) return { action: "bypass", reason: "site-cookie" };
  const url = new URL(rawUrl, "http://site.invalid");
  const params = url.searchParams;
  if (params.has(MEMBER_LOGGED_IN_PARAM)) return { action: "bypass", reason: "login-return" };
  const kind: PageKind = headers.rsc === "1" ? "rsc" : "document";
  const rscParam = kind === "rsc" ? params.get(RSC_PARAM) : null;
  if (kind === "rsc") params.delete(RSC_PARAM);

  const query = canonicalQuery(url.pathname, params);
  if (query === null) return { action: "bypass", reason: "not-public" };
  if (query === "invalid") return { action: "bypass", reason: "invalid-query" };
  if (viewer === "member" && personalForMembers(url.pathname)) return { action: "bypass", reason: "personal" };
  const canonical = `${url.pathname}${query ? `?${query}` : ""}`;
  if (params.toString() !== query) {
    const location = new URL(canonical, "http://site.invalid");
    if (rscParam !== null) location.searchParams.set(RSC_PARAM, rscParam);
    return { action: "redirect", location: `${location.pathname}${location.search}` };
  }

  const varied = variedHeaders(kind, headers);
  // The `_rsc` value is the client's hash of the varied headers: it goes to the render (Next.js
  // may check it) but not into the key, where any string would otherwise make an entry.
  const renderUrl = rscParam === null ? canonical : `${canonical}${query ? "&" : "?"}${RSC_PARAM}=${encodeURIComponent(rscParam)}`;
  if (viewer === "member")
    return { action: "cache", target: { key: keyOf(["member", kind, canonical, varied]), kind, url: renderUrl, headers: varied, member: true } };
  return { action: "cache", target: { key: keyOf([kind, canonical, varied]), kind, url: renderUrl, headers: varied } };
}
