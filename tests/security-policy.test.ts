import { sealData } from "iron-session";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "@/lib/security/policy";
import { refuseRequest } from "@/lib/security/request-guard";
import { middleware } from "@/middleware";
import { aMemberSession, jarWithSession } from "./support/cookie-jar";

const SITE = "http://localhost:3000";
const directives = (policy: string) => Object.fromEntries(policy.split("; ").map((part) => [part.split(" ")[0], part.split(" ").slice(1)]));

describe("the content security policy", () => {
  const production = directives(
    contentSecurityPolicy({ scripts: { nonce: "abc123" }, platformOrigins: ["http://127.0.0.1:4010"], https: true, development: false }),
  );

  it("runs only scripts with this request's nonce (and what they load), never eval in production", () => {
    expect(production["script-src"]).toEqual(expect.arrayContaining(["'nonce-abc123'", "'strict-dynamic'"]));
    expect(production["script-src"]).not.toContain("'unsafe-inline'");
    expect(production["script-src"]).not.toContain("'unsafe-eval'");
    expect(directives(contentSecurityPolicy({ scripts: { nonce: "n" }, platformOrigins: [], https: false, development: true }))["script-src"]).toContain(
      "'unsafe-eval'",
    );
  });

  it("keeps pages out of frames, plugins out, and forms on this site or the platform", () => {
    expect(production["frame-ancestors"]).toEqual(["'none'"]);
    expect(production["object-src"]).toEqual(["'none'"]);
    expect(production["base-uri"]).toEqual(["'self'"]);
    expect(production["form-action"]).toEqual(["'self'", "http://127.0.0.1:4010"]);
    expect(production).toHaveProperty("upgrade-insecure-requests");
  });

  it("allows the robot check's scripts and frames, and Wix media", () => {
    expect(production["script-src"]).toContain("https://www.google.com/recaptcha/");
    expect(production["frame-src"]).toContain("https://www.google.com/recaptcha/");
    // The session pre-warm loads the platform's page in a hidden frame; nothing else may be framed.
    expect(production["frame-src"]).toEqual([...["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"], "http://127.0.0.1:4010"]);
    expect(production["img-src"]).toContain("https://static.wixstatic.com");
  });

  it("adds HSTS only on https", () => {
    expect(securityHeaders({ https: true })["strict-transport-security"]).toMatch(/max-age=\d{8}/);
    expect(securityHeaders({ https: false })).not.toHaveProperty("strict-transport-security");
    expect(securityHeaders({ https: false })).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY" });
  });
});

describe("the request guard", () => {
  const headers = (values: Record<string, string> = {}) => new Headers(values);

  it("refuses methods the site does not serve with 405 and says which it does", () => {
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "CONNECT", "PROPFIND"]) {
      expect(refuseRequest(method, headers(), SITE)).toMatchObject({ status: 405, headers: { allow: "GET, HEAD, POST, OPTIONS" } });
    }
    expect(refuseRequest("GET", headers(), SITE)).toBeNull();
  });

  it("answers 400 for a router state header Next.js could not read", () => {
    // The last two: an array of another release's shape, and a state too large for Next.js to read.
    const tooLarge = encodeURIComponent(JSON.stringify(["", Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`s${i}`, ["", {}]]))]));
    for (const value of ["{", "%E0%A4%A", "not json", JSON.stringify({ a: 1 }), "x".repeat(20_000), encodeURIComponent('["",{},null,null,true]'), tooLarge]) {
      expect(refuseRequest("GET", headers({ "next-router-state-tree": value }), SITE)?.status).toBe(400);
    }
    expect(
      refuseRequest(
        "GET",
        headers({ "next-router-state-tree": encodeURIComponent(JSON.stringify(["", { children: ["__PAGE__", {}, null, null, 0] }, null, null, 16])) }),
        SITE,
      ),
    ).toBeNull();
  });

  it("takes POSTs only from the configured origin, whatever Host says", () => {
    expect(refuseRequest("POST", headers({ origin: "https://evil.example", host: "evil.example" }), SITE)?.status).toBe(403);
    expect(refuseRequest("POST", headers({ origin: SITE }), SITE)).toBeNull();
    expect(refuseRequest("POST", headers({ "next-action": "abc" }), SITE)?.status).toBe(403);
    expect(refuseRequest("POST", headers({ "sec-fetch-site": "cross-site" }), SITE)?.status).toBe(403);
    // A server-to-server call (a webhook) sends neither header.
    expect(refuseRequest("POST", headers(), SITE)).toBeNull();
  });
});

describe("the middleware", () => {
  it("gives every page a fresh nonce, in the response and in the request the page renders from", async () => {
    const first = await middleware(new NextRequest(`${SITE}/trails`));
    const second = await middleware(new NextRequest(`${SITE}/trails`));
    const policy = first.headers.get("content-security-policy")!;
    expect(policy).toMatch(/'nonce-[A-Za-z0-9+/=]{20,}'/);
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(second.headers.get("content-security-policy")).not.toBe(policy);
    expect(first.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a PUT and a cross-site server action before anything runs", async () => {
    expect((await middleware(new NextRequest(`${SITE}/`, { method: "PUT" }))).status).toBe(405);
    const action = await middleware(new NextRequest(`${SITE}/account`, { method: "POST", headers: { origin: "https://evil.example", "next-action": "x" } }));
    expect(action.status).toBe(403);
  });
});

describe("the middleware with a session cookie it cannot read", () => {
  const session = aMemberSession();

  async function unreadableCookies(): Promise<Record<string, string>> {
    const sealed = (await jarWithSession(session)).get("wms_session")!;
    return {
      tampered: `${sealed.slice(0, 40)}${sealed[40] === "A" ? "B" : "A"}${sealed.slice(41)}`,
      truncated: sealed.slice(0, Math.floor(sealed.length * 0.7)),
      oversized: `Fe26.2**${"A".repeat(10 * 1024)}`,
      // Sealed with a secret that has been rotated out of SESSION_SECRET.
      "old secret": await sealData(session, { password: { 1: "a-retired-session-secret-0123456789abcdef" }, ttl: 3600 }),
      "not sealed": "plain-text{}",
    };
  }

  it("serves the page as a visitor's and clears the cookie, never an error", async () => {
    for (const [kind, value] of Object.entries(await unreadableCookies())) {
      const response = await middleware(new NextRequest(`${SITE}/account`, { headers: { cookie: `wms_session=${value}` } }));
      expect(response.status, kind).toBe(200);
      expect(response.headers.get("x-middleware-next"), kind).toBe("1");
      expect(
        response.headers.getSetCookie().find((cookie) => cookie.startsWith("wms_session=")),
        kind,
      ).toMatch(/^wms_session=;.*Max-Age=0/i);
      expect(response.headers.get("cache-control"), kind).toBe("private, no-store");
      // The page renders without the cookie: what it reads is a visitor.
      expect(response.headers.get("x-middleware-request-cookie") ?? "", kind).not.toContain("wms_session=Fe26");
    }
    // A value that is not even valid percent-encoding is no cookie at all to Next.js: a visitor's page, no error.
    const malformed = await middleware(new NextRequest(`${SITE}/account`, { headers: { cookie: "wms_session=%E0%A4%A" } }));
    expect(malformed.status).toBe(200);
  });

  it("builds its redirects on SITE_URL, whatever Host or X-Forwarded-Host say", async () => {
    const forged = { headers: { host: "evil.example", "x-forwarded-host": "evil.example" } };
    for (const path of ["/trails?page=2&wixMemberLoggedIn=true", "/trails?wixMemberLoggedIn=false"]) {
      const response = await middleware(new NextRequest(`http://evil.example${path}`, forged));
      expect(response.status).toBe(303);
      expect(response.headers.get("location")!.startsWith(`${SITE}/`)).toBe(true);
    }
  });
});
