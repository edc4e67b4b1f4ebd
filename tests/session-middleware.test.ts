import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { withSession } from "@/lib/auth/middleware";
import { recheckSessionsOf } from "@/lib/auth/session-check";
import { announceRemoteRevalidation, onRevalidation } from "@/lib/cache/page-cache-signals";
import { ROUTER_PREFETCH_HEADER } from "@/lib/auth/prefetch";
import { CACHE_RENDER_HEADER } from "@/lib/security/policy";
import { readSession } from "@/lib/auth/session-store";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";
import { CookieJar, jarWithPlatformSession, jarWithSession } from "./support/cookie-jar";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const site = (path: string) => `http://localhost:3000${path}`;
const tokenCalls = async () => (await platform.stats()).requests["POST /oauth2/token"] ?? 0;
const checks = async () => (await platform.stats()).requests["POST /oauth2/token-info"] ?? 0;
const sessionIn = (response: Response) => readSession(new CookieJar().apply(response).request(site("/")).cookies);
const dana = (id: string) => ({ id, name: "Dana" });

describe("middleware session handling", () => {
  it("creates no session and makes no token call for a request without a cookie", async () => {
    const before = await tokenCalls();
    for (const method of ["GET", "POST"]) {
      const response = await withSession(new NextRequest(site("/trails"), { method }));
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect(await tokenCalls()).toBe(before);
  });

  it("leaves a valid session alone, with no token call", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-valid", { member: dana("member-valid") });
    const before = await tokenCalls();
    const response = await withSession(jar.request(site("/trails")));
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await tokenCalls()).toBe(before);
  });

  it("asks at a member's first page view, not again within the interval; news of the member has the next view ask, which ends an ended session", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-blocked", { member: dana("member-blocked"), issuedSecondsAgo: 60 });
    const before = await checks();
    expect((await withSession(jar.request(site("/trails")))).headers.get("set-cookie")).toBeNull();
    expect(await checks()).toBe(before + 1);
    // Within the interval (SESSION_CHECK_INTERVAL, 30 s by default) the confirmation stands: no call.
    expect((await withSession(jar.request(site("/journal")))).headers.get("set-cookie")).toBeNull();
    expect(await checks()).toBe(before + 1);

    platform.ctx.tokens.revokeSubject("member-blocked");
    // A POST, a prefetch or a subresource is no page view: nothing is asked, and nothing changes.
    for (const request of [
      jar.request(site("/trails"), { method: "POST" }),
      jar.request(site("/trails"), { headers: { "next-router-prefetch": "1" } }),
      jar.request(site("/trails"), { headers: { [ROUTER_PREFETCH_HEADER]: "1", "sec-fetch-dest": "empty" } }),
      // The page cache's own render of a members' template, whose tokens no platform issued.
      jar.request(site("/trails"), { headers: { [CACHE_RENDER_HEADER]: "1" } }),
      jar.request(site("/icon.svg"), { headers: { "sec-fetch-dest": "image" } }),
    ]) {
      expect((await withSession(request)).headers.get("set-cookie")).toBeNull();
    }
    expect(await checks()).toBe(before + 1);
    // The member event of the block (lib/revalidate-webhook.ts), or another instance passing it on, has the next view ask.
    const announced: string[][] = [];
    const stop = onRevalidation((tags) => announced.push(tags));
    recheckSessionsOf("member-blocked");
    stop();
    // To every instance: their sessions are asked about again, and the pages kept for them go.
    expect(announced).toEqual([["member-sessions:member-blocked", "member:member-blocked"]]);
    const ended = await withSession(jar.request(site("/trails")));
    expect(await checks()).toBe(before + 2);
    expect(ended.headers.get("set-cookie")).toMatch(/wms_session=;.*Max-Age=0/i);
    expect(ended.headers.get("x-middleware-request-x-wms-notice")).toBe("session-ended");

    // Found by the App Router's fetch (or a prefetch: middleware cannot tell): no payload, so the router loads the page as a
    // document, and nothing ends before that document's own request does it.
    const routed = await withSession(jar.request(site("/account"), { headers: { "sec-fetch-dest": "empty" } }));
    expect(routed.status).toBe(204);
    expect(routed.headers.get("set-cookie")).toBeNull();
  });

  it("ends a session the platform ended without news (Sign out everywhere in the Studio) at the first page view after the interval", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-elsewhere", { member: dana("member-elsewhere"), issuedSecondsAgo: 60 });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      const before = await checks();
      await withSession(jar.request(site("/trails")));
      platform.ctx.tokens.revokeSubject("member-elsewhere");
      vi.advanceTimersByTime(29_000);
      expect((await withSession(jar.request(site("/trails")))).headers.get("set-cookie")).toBeNull();
      expect(await checks()).toBe(before + 1);
      vi.advanceTimersByTime(1_000);
      const ended = await withSession(jar.request(site("/trails")));
      expect(await checks()).toBe(before + 2);
      expect(ended.headers.get("x-middleware-request-x-wms-notice")).toBe("session-ended");
    } finally {
      vi.useRealTimers();
    }
  });

  it("asks again after another instance tells of a change to the member's sessions, or after news may have been missed", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-remote", { member: dana("member-remote"), issuedSecondsAgo: 60 });
    const before = await checks();
    await withSession(jar.request(site("/trails")));
    announceRemoteRevalidation({ tags: ["wix:members", "member-sessions:someone-else"], everything: false });
    await withSession(jar.request(site("/trails")));
    expect(await checks()).toBe(before + 1);
    announceRemoteRevalidation({ tags: ["member-sessions:member-remote"], everything: false });
    await withSession(jar.request(site("/trails")));
    expect(await checks()).toBe(before + 2);
    announceRemoteRevalidation({ tags: [], everything: true });
    await withSession(jar.request(site("/trails")));
    expect(await checks()).toBe(before + 3);
    await withSession(jar.request(site("/trails")));
    expect(await checks()).toBe(before + 3);
  });

  it("takes tokens it has just renewed as standing: the renewed session's next page view does not ask", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-renewed", { expiresIn: -5, member: dana("member-renewed") });
    const renewed = new CookieJar().apply(await withSession(jar.request(site("/"))));
    const before = await checks();
    await withSession(renewed.request(site("/trails")));
    expect(await checks()).toBe(before);
  });

  it("renews a due access token with the refresh token, for this request and the browser", async () => {
    const { tokens, jar } = await jarWithPlatformSession(platform, "member", "member-due", { expiresIn: -5, member: dana("member-due") });
    const response = await withSession(jar.request(site("/")));
    const renewed = await sessionIn(response);
    expect(renewed?.refreshToken).toBe(tokens.refreshToken);
    expect(renewed?.accessToken).not.toBe(tokens.accessToken);
    expect(renewed?.member).toEqual(dana("member-due"));
    // Next.js passes these request overrides to the server components rendering this request.
    expect(response.headers.get("x-middleware-request-cookie")).toContain(`wms_session=${new CookieJar().apply(response).get("wms_session")}`);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("ends a member session idle past its limit with the notice, and records page views only every few minutes", async () => {
    const { session } = await jarWithPlatformSession(platform, "member", "member-idle", { member: dana("member-idle") });
    const now = Math.floor(Date.now() / 1000);
    const idle = await jarWithSession({ ...session, seenAt: now - 8 * 24 * 3600, startedAt: now - 9 * 24 * 3600 });
    const ended = await withSession(idle.request(site("/account")));
    expect(ended.headers.get("set-cookie")).toMatch(/wms_session=;.*Max-Age=0/i);
    expect(ended.headers.get("x-middleware-request-x-wms-notice")).toBe("session-ended");

    const stale = await jarWithSession({ ...session, seenAt: now - 400 });
    const seen = await sessionIn(await withSession(stale.request(site("/trails"))));
    expect(seen?.seenAt).toBeGreaterThanOrEqual(now);
    expect(seen?.startedAt).toBe(session.startedAt);
    const fresh = await jarWithSession({ ...session, seenAt: now - 30 });
    expect((await withSession(fresh.request(site("/trails")))).headers.get("set-cookie")).toBeNull();
  });

  it("drops an unreadable cookie on a navigation, and never on a POST that may come from another site", async () => {
    const tampered = { headers: { cookie: "wms_session=Fe26.2**garbage" } };
    const get = await withSession(new NextRequest(site("/"), tampered));
    expect(get.headers.get("set-cookie")).toMatch(/wms_session=;.*Max-Age=0/i);
    const post = await withSession(new NextRequest(site("/"), { ...tampered, method: "POST" }));
    expect(post.headers.get("set-cookie")).toBeNull();
  });

  it("keeps the session as it is when the platform is down", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-down", { expiresIn: -5, member: dana("member-down") });
    const original = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new TypeError("fetch failed"));
    // A minute ago, so the pause in renewals that follows the failure is over for the next tests.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 60_000 });
    try {
      const response = await withSession(jar.request(site("/account")));
      expect(response.status).toBe(200);
      expect(response.headers.get("set-cookie")).toBeNull();
    } finally {
      vi.useRealTimers();
      globalThis.fetch = original;
    }
  });
});

describe("the sealed member session", () => {
  it("stays under 3.5 KB with real platform tokens and a long name", async () => {
    const id = "2f1c8a9e-4b7d-4c1e-9a3f-8d6e5b4c3a21";
    const { jar } = await jarWithPlatformSession(platform, "member", id, { member: { id, name: "Bartholomew Maximilian Featherstonehaugh-Cholmondeley" } });
    expect(jar.header().length).toBeLessThan(3500);
  });
});

describe("returning from Wix-hosted pages", () => {
  it("starts a silent login for a visitor after a login on a hosted page", async () => {
    const response = await withSession(new NextRequest(site("/trails?page=2&wixMemberLoggedIn=true")));
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(location.pathname).toBe("/api/auth/login");
    expect(location.searchParams.get("returnTo")).toBe("/trails?page=2");
    expect(location.searchParams.get("prompt")).toBe("none");
  });

  it("leaves the silent login to the document when the App Router fetches the URL: its fetch must not follow the redirects to the platform", async () => {
    const response = await withSession(new NextRequest(site("/trails?wixMemberLoggedIn=true"), { headers: { "sec-fetch-dest": "empty" } }));
    expect(response.status).toBe(204);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("does not sign out a member whose platform session stands: anyone can link to ?wixMemberLoggedIn=false", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-linked", { member: dana("member-linked") });
    const response = await withSession(jar.request(site("/account?wixMemberLoggedIn=false")));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(site("/account"));
    expect((await sessionIn(response))?.role).toBe("member");
  });

  it("signs a member out after a logout on a hosted page ended the platform session", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-out", { member: dana("member-out") });
    platform.ctx.tokens.revokeSubject("member-out");
    const response = await withSession(jar.request(site("/account?wixMemberLoggedIn=false")));
    expect(response.headers.get("location")).toBe(site("/account"));
    expect(response.headers.get("set-cookie")).toMatch(/wms_session=;.*Max-Age=0/i);
  });

  it("only cleans the URL when the state already agrees", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-agrees", { member: dana("member-agrees") });
    const response = await withSession(jar.request(site("/?wixMemberLoggedIn=true")));
    expect(response.headers.get("location")).toBe(site("/"));
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("ignores the parameter on prefetches and on POSTs", async () => {
    for (const init of [{ headers: { "next-router-prefetch": "1" } }, { method: "POST" }]) {
      expect((await withSession(new NextRequest(site("/?wixMemberLoggedIn=true"), init))).headers.get("location")).toBeNull();
    }
  });
});

describe("the session-ended notice", () => {
  it("comes with the end of a member's session, on that request only; a cookie the browser brings goes with the next navigation, not a prefetch", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-notice", { expiresIn: -1, revoked: true, member: dana("member-notice") });
    const ended = await withSession(jar.request(site("/")));
    expect(ended.headers.get("x-middleware-request-x-wms-notice")).toBe("session-ended");
    expect(ended.headers.get("set-cookie")).toMatch(/wms_session=;.*Max-Age=0/i);
    expect(ended.headers.get("set-cookie")).not.toContain("wms_notice");

    const brought = { cookie: "wms_notice=session-ended" };
    const prefetch = await withSession(new NextRequest(site("/trails"), { headers: { ...brought, "next-router-prefetch": "1" } }));
    expect(prefetch.headers.get("set-cookie")).toBeNull();
    // The favicon, fetched while the redirect that set the notice is under way, leaves it for the page.
    const icon = await withSession(new NextRequest(site("/icon.svg"), { headers: { ...brought, "sec-fetch-dest": "image" } }));
    expect(icon.headers.get("set-cookie")).toBeNull();
    const next = await withSession(new NextRequest(site("/trails"), { headers: brought }));
    expect(next.headers.get("set-cookie")).toMatch(/wms_notice=;.*Max-Age=0/i);
    expect(next.headers.get("x-middleware-request-x-wms-notice")).toBe("session-ended");
  });
});
