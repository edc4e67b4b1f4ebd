import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withSession } from "@/lib/auth/middleware";
import { SESSION_COOKIE, sealSession, unsealSession, type SessionMember } from "@/lib/auth/session";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const sealedCookieOf = (response: Response) => {
  const header = response.headers.get("set-cookie") ?? "";
  return { header, value: /wms_session=([^;]+)/.exec(header)?.[1] };
};

/** A sealed session holding a real platform token pair; `expiresIn` below 60 makes it due for renewal. */
async function sealedSessionFor(role: "visitor" | "member", subjectId: string, options: { expiresIn?: number; member?: SessionMember; revoked?: boolean } = {}) {
  const tokens = platform.ctx.tokens.issuePair({ role, subjectId, clientId: LOCAL_CLIENT_ID });
  if (options.revoked) platform.ctx.tokens.revokeSubject(subjectId);
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = now + (options.expiresIn ?? 3600);
  const sealed = await sealSession({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt, renewAt: expiresAt - 60, role, ...(options.member && { member: options.member }) });
  return { tokens, sealed, cookie: `${SESSION_COOKIE}=${sealed}` };
}

describe("middleware session handling", () => {
  it("gives a new visitor a sealed, HttpOnly, SameSite=Lax cookie, visible to the same request", async () => {
    const response = await withSession(new NextRequest("http://localhost:3000/trails"));
    const { header, value } = sealedCookieOf(response);
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=lax/i);
    expect(header).not.toMatch(/Secure/i);
    const session = await unsealSession(value);
    expect(session?.role).toBe("visitor");
    expect(value).not.toContain(session!.accessToken);
    // Next.js passes these request overrides to server components rendering this request.
    expect(response.headers.get("x-middleware-override-headers")).toContain("cookie");
    expect(response.headers.get("x-middleware-request-cookie")).toContain(`${SESSION_COOKIE}=${value}`);
  });

  it("leaves a valid session alone, with no token call", async () => {
    const first = await withSession(new NextRequest("http://localhost:3000/"));
    const value = sealedCookieOf(first).value!;
    const before = (await platform.stats()).requests["POST /oauth2/token"];
    const request = new NextRequest("http://localhost:3000/trails", { headers: { cookie: `${SESSION_COOKIE}=${value}` } });
    const second = await withSession(request);
    expect(second.headers.get("set-cookie")).toBeNull();
    expect((await platform.stats()).requests["POST /oauth2/token"]).toBe(before);
  });

  it("replaces a tampered cookie with a fresh visitor session", async () => {
    const request = new NextRequest("http://localhost:3000/", { headers: { cookie: `${SESSION_COOKIE}=Fe26.2**garbage` } });
    const { value } = sealedCookieOf(await withSession(request));
    expect((await unsealSession(value))?.role).toBe("visitor");
  });

  it("renews an expired access token with the refresh token", async () => {
    const { tokens, cookie } = await sealedSessionFor("visitor", "visitor-expired", { expiresIn: -5 });
    const now = Math.floor(Date.now() / 1000);
    const request = new NextRequest("http://localhost:3000/", { headers: { cookie } });
    const renewed = await unsealSession(sealedCookieOf(await withSession(request)).value);
    expect(renewed?.refreshToken).toBe(tokens.refreshToken);
    expect(renewed?.accessToken).not.toBe(tokens.accessToken);
    expect(renewed!.expiresAt).toBeGreaterThan(now);
  });
});

describe("the sealed member session", () => {
  it("stays under 3.5 KB with real platform tokens and a long name", async () => {
    const id = "2f1c8a9e-4b7d-4c1e-9a3f-8d6e5b4c3a21";
    const { cookie } = await sealedSessionFor("member", id, { member: { id, name: "Bartholomew Maximilian Featherstonehaugh-Cholmondeley" } });
    expect(cookie.length).toBeLessThan(3500);
  });
});

describe("returning from Wix-hosted pages", () => {
  const cookieFor = async (role: "visitor" | "member") =>
    (await sealedSessionFor(role, `${role}-returning`, role === "member" ? { member: { id: "member-returning", name: "Dana" } } : {})).cookie;

  it("starts a silent login for a visitor after a login on a hosted page", async () => {
    const request = new NextRequest("http://localhost:3000/trails?page=2&wixMemberLoggedIn=true", { headers: { cookie: await cookieFor("visitor") } });
    const response = await withSession(request);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get("location")!);
    expect(location.pathname).toBe("/api/auth/login");
    expect(location.searchParams.get("returnTo")).toBe("/trails?page=2");
    expect(location.searchParams.get("prompt")).toBe("none");
  });

  it("signs a member out after a logout on a hosted page, and cleans the URL", async () => {
    const request = new NextRequest("http://localhost:3000/account?wixMemberLoggedIn=false", { headers: { cookie: await cookieFor("member") } });
    const response = await withSession(request);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://localhost:3000/account");
    expect(response.headers.get("set-cookie")).toMatch(/wms_session=;.*Max-Age=0/i);
  });

  it("only cleans the URL when the state already agrees", async () => {
    const request = new NextRequest("http://localhost:3000/?wixMemberLoggedIn=true", { headers: { cookie: await cookieFor("member") } });
    const response = await withSession(request);
    expect(response.headers.get("location")).toBe("http://localhost:3000/");
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("ignores the parameter on prefetches", async () => {
    const request = new NextRequest("http://localhost:3000/?wixMemberLoggedIn=true", { headers: { cookie: await cookieFor("visitor"), "next-router-prefetch": "1" } });
    expect((await withSession(request)).headers.get("location")).toBeNull();
  });
});

describe("the session-ended notice", () => {
  it("is set with the downgrade, visible to the same request, and consumed by the next navigation only", async () => {
    const stale = await sealedSessionFor("member", "member-notice", { expiresIn: -1, revoked: true, member: { id: "member-notice", name: "Dana" } });
    const first = await withSession(new NextRequest("http://localhost:3000/", { headers: { cookie: stale.cookie } }));
    expect(first.headers.get("x-middleware-request-cookie")).toContain("wms_notice=session-ended");
    const renewed = /wms_session=([^;]+)/.exec(first.headers.get("set-cookie")!)![1];
    expect((await unsealSession(renewed))?.role).toBe("visitor");

    const cookie = `${SESSION_COOKIE}=${renewed}; wms_notice=session-ended`;
    const prefetch = await withSession(new NextRequest("http://localhost:3000/trails", { headers: { cookie, "next-router-prefetch": "1" } }));
    expect(prefetch.headers.get("set-cookie")).toBeNull();
    const next = await withSession(new NextRequest("http://localhost:3000/trails", { headers: { cookie } }));
    expect(next.headers.get("set-cookie")).toMatch(/wms_notice=;.*Max-Age=0/i);
    expect(next.headers.get("x-middleware-request-cookie")).not.toContain("wms_notice");
  });
});
