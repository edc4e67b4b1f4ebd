import { describe, expect, it } from "vitest";
import { canonicalQuery, decide, type CacheDecision } from "@/server/page-cache/request-key";

const visitor = (url: string, headers: Record<string, string> = {}, method = "GET") => decide(method, url, headers);
const targetOf = (decision: CacheDecision) => {
  if (decision.action !== "cache") throw new Error(`expected a cached page, got ${JSON.stringify(decision)}`);
  return decision.target;
};
const rsc = (extra: Record<string, string> = {}) => ({
  rsc: "1",
  "next-router-state-tree": encodeURIComponent('["",{"children":["__PAGE__",{},null,null,0]},null,null,16]'),
  ...extra,
});

describe("which requests the page cache answers", () => {
  it("a visitor's GET or HEAD of home, lists, items, profiles, the sitemap and robots.txt", () => {
    for (const url of ["/", "/trails", "/trails/arch-spur", "/journal", "/regions/high-desert", "/members", "/members/dana", "/sitemap.xml", "/robots.txt"]) {
      expect(visitor(url).action, url).toBe("cache");
    }
    expect(targetOf(visitor("/trails", {}, "HEAD")).key).toBe(targetOf(visitor("/trails")).key);
  });

  it("a member's view (the server has found them fit for a template) under keys of its own; never an outing's page or a members' page", () => {
    const member = (url: string, headers: Record<string, string> = {}) => decide("GET", url, { cookie: "wms_session=sealed", ...headers }, "member");
    for (const url of ["/", "/trails", "/trails/arch-spur", "/outings", "/journal/a-season-on-the-coast", "/members", "/members/dana"]) {
      expect(targetOf(member(url))).toMatchObject({ member: true, url });
      expect(targetOf(member(url)).key, url).not.toBe(targetOf(visitor(url)).key);
    }
    expect(targetOf(member("/trails", rsc())).key).not.toBe(targetOf(member("/trails")).key);
    expect(member("/outings/family-creek-walk")).toEqual({ action: "bypass", reason: "personal" });
    for (const url of ["/account", "/member-outings", "/member-outings/goat-pass-shuttle-trip", "/account/profile"]) {
      expect(member(url), url).toEqual({ action: "bypass", reason: "not-public" });
    }
  });

  it("never a member's, a server action, a POST, or a page that reads the session", () => {
    expect(visitor("/trails", { cookie: "wms_session=sealed" })).toEqual({ action: "bypass", reason: "site-cookie" });
    expect(visitor("/trails", { cookie: "theme=dark; wms_notice=session-ended" })).toEqual({ action: "bypass", reason: "site-cookie" });
    expect(visitor("/trails", { cookie: "wms_verify=pending" })).toEqual({ action: "bypass", reason: "site-cookie" });
    expect(visitor("/trails", {}, "POST")).toEqual({ action: "bypass", reason: "method" });
    expect(visitor("/trails", { "next-action": "abc" })).toEqual({ action: "bypass", reason: "method" });
    for (const url of [
      "/account",
      "/login",
      "/register",
      "/verify",
      "/member-outings",
      "/api/auth/login",
      "/api/webhooks/wix",
      "/auth/error",
      "/_next/static/x.js",
      "/members/a/b",
      "/trails/a/b",
      "/trails/",
      "/no-such-section",
    ]) {
      expect(visitor(url), url).toEqual({ action: "bypass", reason: "not-public" });
    }
  });

  it("other sites' cookies do not make a visitor a member", () => {
    expect(visitor("/trails", { cookie: "_ga=GA1.1; wms_sessionx=1; xwms_session=2" }).action).toBe("cache");
  });

  it("leaves the return from a Wix-hosted login or logout to middleware", () => {
    expect(visitor("/trails?wixMemberLoggedIn=true")).toEqual({ action: "bypass", reason: "login-return" });
  });

  it("leaves a page the page itself answers with 404 to Next.js, uncached", () => {
    expect(visitor("/trails?page=abc")).toEqual({ action: "bypass", reason: "invalid-query" });
    expect(visitor("/members?page=0")).toEqual({ action: "bypass", reason: "invalid-query" });
    for (const url of [
      "/trails/arch-spur?reports=0",
      "/trails/arch-spur?reports=abc",
      "/trails/arch-spur?reports=2&reports=3",
      "/members/dana?reports=-1",
      "/members/dana?reports=1234567",
    ]) {
      expect(visitor(url), url).toEqual({ action: "bypass", reason: "invalid-query" });
    }
  });
});

describe("the canonical URL", () => {
  it("is the query the page understands, written in one order", () => {
    expect(canonicalQuery("/trails", new URLSearchParams("page=2&q=lake"))).toBe("q=lake&page=2");
    expect(canonicalQuery("/trails", new URLSearchParams("sort=nonsense&size=5000&difficulty=Impossible"))).toBe("");
    expect(canonicalQuery("/trails/arch-spur", new URLSearchParams("q=x"))).toBe("");
    expect(canonicalQuery("/members", new URLSearchParams("page=3"))).toBe("page=3");
    expect(canonicalQuery("/members", new URLSearchParams("page=1"))).toBe("");
    // The directory's search: trimmed, spaces folded, before the page; anything else dropped.
    expect(canonicalQuery("/members", new URLSearchParams("page=2&q=%20%20ana%20%20lee%20&utm_source=x"))).toBe("q=ana+lee&page=2");
    expect(canonicalQuery("/members", new URLSearchParams("q="))).toBe("");
    expect(visitor("/members?q=+dana+")).toEqual({ action: "redirect", location: "/members?q=dana" });
  });

  it("of an item or a member's profile is the page of reports it shows, parsed as the page parses it", () => {
    expect(canonicalQuery("/trails/arch-spur", new URLSearchParams("reports=2"))).toBe("reports=2");
    expect(canonicalQuery("/trails/arch-spur", new URLSearchParams("reports=1"))).toBe("");
    expect(canonicalQuery("/members/dana", new URLSearchParams("reports=3&page=2"))).toBe("reports=3");
    // Only trails have reports: elsewhere the parameter means nothing and is dropped.
    expect(canonicalQuery("/regions/high-desert", new URLSearchParams("reports=2"))).toBe("");
    expect(visitor("/trails/arch-spur?reports=2&utm_source=x")).toEqual({ action: "redirect", location: "/trails/arch-spur?reports=2" });
    expect(visitor("/trails/arch-spur?reports=1")).toEqual({ action: "redirect", location: "/trails/arch-spur" });
    expect(targetOf(visitor("/trails/arch-spur?reports=2")).key).not.toBe(targetOf(visitor("/trails/arch-spur")).key);
    expect(targetOf(visitor("/members/dana?reports=2")).url).toBe("/members/dana?reports=2");
  });

  it("redirects any other query there: random parameters cost a redirect, never a render or an entry", () => {
    expect(visitor("/trails?utm_source=newsletter")).toEqual({ action: "redirect", location: "/trails" });
    expect(visitor("/trails?page=2&q=lake&bogus=1")).toEqual({ action: "redirect", location: "/trails?q=lake&page=2" });
    expect(visitor("/trails?q=lake&distanceKm.from=&distanceKm.to=&dogFriendly=")).toEqual({ action: "redirect", location: "/trails?q=lake" });
    expect(visitor("/?x=1")).toEqual({ action: "redirect", location: "/" });
    expect(visitor("/trails/arch-spur?ref=forum")).toEqual({ action: "redirect", location: "/trails/arch-spur" });
    // A document request has no use for the RSC parameter.
    expect(visitor("/trails?_rsc=abc")).toEqual({ action: "redirect", location: "/trails" });
  });

  it("keeps the RSC parameter on a navigation's redirect, so Next.js's client can follow it", () => {
    expect(visitor("/trails?q=lake&dogFriendly=&_rsc=1x2y3", rsc())).toEqual({ action: "redirect", location: "/trails?q=lake&_rsc=1x2y3" });
  });

  it("is the key: the same page whatever the parameters' order", () => {
    expect(targetOf(visitor("/trails?q=lake&page=2")).key).not.toBe(targetOf(visitor("/trails?q=lake")).key);
    expect(targetOf(visitor("/trails?q=lake")).url).toBe("/trails?q=lake");
  });
});

describe("documents and RSC answers", () => {
  it("never share a key: an RSC answer is never served to a document request or the reverse", () => {
    const document = targetOf(visitor("/trails"));
    const navigation = targetOf(visitor("/trails?_rsc=abc", rsc()));
    expect(document.kind).toBe("document");
    expect(navigation.kind).toBe("rsc");
    expect(navigation.key).not.toBe(document.key);
    expect(document.headers).toEqual({});
  });

  it("key RSC answers on every header Next.js varies on, but not on the client's hash of them", () => {
    const base = targetOf(visitor("/trails?_rsc=abc", rsc()));
    expect(targetOf(visitor("/trails?_rsc=other", rsc())).key).toBe(base.key);
    expect(targetOf(visitor("/trails?_rsc=abc", rsc({ "next-router-prefetch": "1" }))).key).not.toBe(base.key);
    expect(targetOf(visitor("/trails?_rsc=abc", rsc({ "next-router-segment-prefetch": "/_tree" }))).key).not.toBe(base.key);
    expect(targetOf(visitor("/trails?_rsc=abc", rsc({ "next-url": "/journal" }))).key).not.toBe(base.key);
    expect(targetOf(visitor("/trails?_rsc=abc", rsc({ "next-router-state-tree": encodeURIComponent('["",{"children":["journal",{}]}]') }))).key).not.toBe(
      base.key,
    );
  });

  it("render the canonical URL with the client's RSC parameter and the varied headers, never a cookie", () => {
    const target = targetOf(visitor("/trails?q=lake&_rsc=abc", { ...rsc(), cookie: "_ga=1", "user-agent": "x" }));
    expect(target.url).toBe("/trails?q=lake&_rsc=abc");
    expect(target.headers).toEqual(rsc());
  });
});
