import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleCallback } from "@/lib/auth/callback";
import { readSession } from "@/lib/auth/session-store";
import { NextResponse } from "next/server";
import { beginLogin, handleLogin } from "@/lib/auth/login";
import { handleRenew } from "@/lib/auth/renew";
import { AUTH_ROUTES } from "@/lib/auth/routes";
import { TestBrowser } from "@/platform/identity/test-browser";
import { DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";
import { CookieJar, jarWithPlatformSession, jarWithSession } from "./support/cookie-jar";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const site = (path: string) => `http://localhost:3000${path}`;
const problemOf = (response: Response) => {
  const location = new URL(response.headers.get("location")!);
  return location.pathname === AUTH_ROUTES.problem ? location.searchParams.get("reason") : null;
};
const sessionOf = (jar: CookieJar) => readSession(jar.request(site("/")).cookies);
const dana = (id: string) => ({ id, name: "Dana" });

/** Replaces the global fetch while `run` runs; `route` answers a request or passes it on. */
async function withFetch(route: (url: URL, pass: () => Promise<Response>, signal?: AbortSignal | null) => Promise<Response>, run: () => Promise<void>) {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return route(url, () => original(input, init), init?.signal);
  };
  try {
    await run();
  } finally {
    globalThis.fetch = original;
  }
}

/** Starts a login from the site and signs in on the hosted page: the callback URL the platform sends back. */
async function hostedLogin(jar: CookieJar, returnTo = "/account") {
  const login = await handleLogin(jar.request(site(`${AUTH_ROUTES.login}?returnTo=${encodeURIComponent(returnTo)}`)));
  jar.apply(login);
  const submitted = await new TestBrowser().submitForm(login.headers.get("location")!, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
  expect(submitted.location).toMatch(new RegExp(`^${site(AUTH_ROUTES.callback)}\\?`));
  return submitted.location!;
}

describe("GET /api/auth/login", () => {
  it("answers prefetches with an empty 204", async () => {
    const response = await handleLogin(new CookieJar().request(site(AUTH_ROUTES.login), { headers: { "next-router-prefetch": "1" } }));
    expect(response.status).toBe(204);
  });

  it("sends a visitor to the hosted page with a transaction for the callback; an unsafe returnTo becomes /", async () => {
    const jar = new CookieJar();
    const callbackUrl = await hostedLogin(jar, "//evil.example/x");
    expect([...jar.cookies.keys()]).toEqual([expect.stringMatching(/^wms_txn_/)]);
    const response = await handleCallback(jar.request(callbackUrl));
    expect(response.headers.get("location")).toBe(site("/"));
  });

  it("sends a member whose platform session stands straight back", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-live", { member: dana("member-live") });
    const response = await handleLogin(jar.request(site(`${AUTH_ROUTES.login}?returnTo=%2Faccount`)));
    expect(response.headers.get("location")).toBe(site("/account"));
  });

  it("lets a cookie that says member but holds dead tokens log in again", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-dead", { revoked: true, member: dana("member-dead") });
    const response = await handleLogin(jar.request(site(`${AUTH_ROUTES.login}?returnTo=%2Faccount`)));
    expect(new URL(response.headers.get("location")!).origin).toBe(platform.url);
    expect(response.headers.get("set-cookie")).toMatch(/wms_session=;.*Max-Age=0/i);
  });

  it("explains that sign-in is unavailable when the platform is down", async () => {
    await withFetch(
      () => Promise.reject(new TypeError("fetch failed")),
      async () => {
        expect(problemOf(await handleLogin(new CookieJar().request(site(AUTH_ROUTES.login))))).toBe("unavailable");
      },
    );
  });
});

describe("GET /api/auth/callback", () => {
  it("exchanges the code, starts the member's session, drops every other pending login and returns", async () => {
    const jar = new CookieJar();
    await handleLogin(jar.request(site(`${AUTH_ROUTES.login}?returnTo=%2Ftrails`))).then((r) => jar.apply(r));
    const callbackUrl = await hostedLogin(jar, "/account");
    const response = await handleCallback(jar.request(callbackUrl));
    jar.apply(response);
    expect(response.headers.get("location")).toBe(site("/account"));
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const session = await sessionOf(jar);
    expect(session).toMatchObject({ role: "member", member: { name: "Dana" } });
    // Only this login's, finished: the other tab's pending login is gone.
    expect([...jar.cookies.keys()].filter((name) => name.startsWith("wms_txn_"))).toHaveLength(1);
    // The page it returns to confirms the login.
    expect(jar.get("wms_notice")).toBe("logged-in");

    // Back to the callback URL after the login: the spent code is not exchanged again, and the
    // page steps over this history entry (without script, on to where the login was going), the session as it was.
    const replay = await handleCallback(jar.request(callbackUrl));
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain(`<meta http-equiv="refresh" content="0;url=${site("/account")}">`);
    expect(jar.apply(replay).get("wms_notice")).toBe("logged-in");
    expect(await sessionOf(jar)).toMatchObject({ role: "member", member: { name: "Dana" } });
  });

  it("takes the browser's Back button from the page after a hosted login past the login, or without script to where it started, not home", async () => {
    const jar = new CookieJar();
    const login = await handleLogin(jar.request(site(`${AUTH_ROUTES.login}?returnTo=${encodeURIComponent("/trails/summit-loop")}`)));
    jar.apply(login);
    const browser = new TestBrowser();
    const authUrl = login.headers.get("location")!;
    const submitted = await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    jar.apply(await handleCallback(jar.request(submitted.location!)));
    // Back: the hosted page, finished, sends the browser to the callback again.
    const back = await browser.get(authUrl);
    expect(back.status).toBe(303);
    const response = await handleCallback(jar.request(back.location!));
    const page = await response.text();
    // With script it steps on over the entry in the way the browser was going (e2e/hosted-pages.spec.ts); without, on to the trail.
    expect(page).toContain("history.back()");
    expect(page).toContain(`<meta http-equiv="refresh" content="0;url=${site("/trails/summit-loop")}">`);
    expect(await sessionOf(jar.apply(response))).toMatchObject({ role: "member" });
  });

  it("welcomes a new member when the login was started by a sign-up", async () => {
    const jar = new CookieJar();
    const started = new NextResponse(null);
    const authUrl = await beginLogin(jar.request(site("/register")).cookies, started.cookies, { returnTo: "/trails", mode: "hosted", signUp: true });
    jar.apply(started);
    const submitted = await new TestBrowser().submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    const response = await handleCallback(jar.request(submitted.location!));
    expect(response.headers.get("location")).toBe(site("/trails"));
    expect(jar.apply(response).get("wms_notice")).toBe("signed-up");
  });

  it("refuses an unknown or used state, a missing code and a provider error, each with its own reason", async () => {
    const jar = new CookieJar();
    expect(problemOf(await handleCallback(jar.request(site(`${AUTH_ROUTES.callback}?code=forged&state=never-issued-state`))))).toBe("state");
    expect(problemOf(await handleCallback(jar.request(site(AUTH_ROUTES.callback))))).toBe("missing");
    expect(problemOf(await handleCallback(jar.request(site(`${AUTH_ROUTES.callback}?error=server_error`))))).toBe("denied");
  });

  it("returns quietly to where the login started when the person goes back to the site from the hosted page", async () => {
    const jar = new CookieJar();
    const login = await handleLogin(jar.request(site(`${AUTH_ROUTES.login}?returnTo=${encodeURIComponent("/trails/summit-loop?tab=reports")}`)));
    jar.apply(login);
    const hosted = await new TestBrowser().get(login.headers.get("location")!);
    const back = /<a href="([^"]*)">Back to Ridgeline Hiking Club<\/a>/.exec(hosted.text)![1].replaceAll("&#38;", "&");
    expect(back.startsWith(site(AUTH_ROUTES.callback))).toBe(true);
    const response = await handleCallback(jar.request(back));
    jar.apply(response);
    expect(response.headers.get("location")).toBe(site("/trails/summit-loop?tab=reports"));
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    // A cancelled login is no failure: no problem page, no notice, still a visitor, and the pending login is gone.
    expect(jar.get("wms_notice")).toBeUndefined();
    expect(await sessionOf(jar)).toBeNull();
    expect([...jar.cookies.keys()].filter((name) => name.startsWith("wms_txn_"))).toEqual([]);
    // The same link once the pending login is gone (expired, or used in another tab): home, quietly.
    expect((await handleCallback(jar.request(back))).headers.get("location")).toBe(site("/"));
  });

  it("leaves a visitor quietly when a silent login finds no platform session", async () => {
    const jar = new CookieJar();
    const login = await handleLogin(jar.request(site(`${AUTH_ROUTES.login}?returnTo=%2Ftrails&prompt=none`)));
    jar.apply(login);
    const hosted = await new TestBrowser().get(login.headers.get("location")!);
    expect(hosted.location).toContain("error=");
    const response = await handleCallback(jar.request(hosted.location!));
    expect(response.headers.get("location")).toBe(site("/trails"));
  });

  it("tells a refused code apart from an unreachable platform", async () => {
    const jar = new CookieJar();
    const callbackUrl = new URL(await hostedLogin(jar));
    const forged = new URL(callbackUrl);
    forged.searchParams.set("code", "forged-code");
    expect(problemOf(await handleCallback(jar.request(forged.href)))).toBe("exchange");

    const second = new CookieJar();
    const url = await hostedLogin(second);
    await withFetch(
      (target, pass) => (target.pathname === "/oauth2/token" ? Promise.reject(new TypeError("fetch failed")) : pass()),
      async () => {
        expect(problemOf(await handleCallback(second.request(url)))).toBe("unavailable");
      },
    );
  });

  it.each([
    // A members service that never answers: only the caller's deadline ends the wait, as with a real socket.
    ["slow", (signal?: AbortSignal | null) => new Promise<Response>((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason)))],
    ["failing", () => Promise.resolve(Response.json({ message: "down" }, { status: 500 }))],
  ])("logs the member in when the members service is %s, and fills in the name later", async (_kind, members) => {
    const jar = new CookieJar();
    const url = await hostedLogin(jar);
    const started = Date.now();
    await withFetch(
      (target, pass, signal) => (target.pathname.startsWith("/members/") ? members(signal) : pass()),
      async () => {
        const response = await handleCallback(jar.request(url));
        jar.apply(response);
        expect(response.headers.get("location")).toBe(site("/account"));
      },
    );
    expect(Date.now() - started).toBeLessThan(4_500);
    const session = await sessionOf(jar);
    expect(session?.role).toBe("member");
    expect(session?.member).toBeUndefined();
  });
});

describe("GET /api/auth/renew", () => {
  it("renews a session whose access token was refused and goes back", async () => {
    const { jar, tokens } = await jarWithPlatformSession(platform, "member", "member-refused", { member: dana("member-refused") });
    const response = await handleRenew(jar.request(site(`${AUTH_ROUTES.renew}?returnTo=%2Faccount&ifEnded=%2F`)));
    jar.apply(response);
    expect(response.headers.get("location")).toBe(site("/account"));
    const renewed = await sessionOf(jar);
    expect(renewed?.accessToken).not.toBe(tokens.accessToken);
    expect(renewed?.member).toEqual(dana("member-refused"));
  });

  it("ends a session the platform no longer honours: a visitor on the fallback page, with the notice", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-gone", { revoked: true, member: dana("member-gone") });
    const response = await handleRenew(jar.request(site(`${AUTH_ROUTES.renew}?returnTo=%2Faccount&ifEnded=%2F`)));
    jar.apply(response);
    expect(response.headers.get("location")).toBe(site("/"));
    expect(await sessionOf(jar)).toBeNull();
    expect(jar.get("wms_notice")).toBe("session-ended");
  });

  it("answers the App Router's fetch with no payload and renews nothing: the router loads the URL as a document", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-fetched", { revoked: true, member: dana("member-fetched") });
    const before = (await platform.stats()).requests["POST /oauth2/token"] ?? 0;
    const response = await handleRenew(jar.request(site(`${AUTH_ROUTES.renew}?returnTo=%2Faccount&ifEnded=%2F`), { headers: { "sec-fetch-dest": "empty" } }));
    expect(response.status).toBe(204);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("set-cookie")).toBeNull();
    expect((await platform.stats()).requests["POST /oauth2/token"] ?? 0).toBe(before);
  });

  it("does not loop: a token refused right after it was issued ends the session", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", "member-loop", { member: dana("member-loop"), issuedSecondsAgo: 1 });
    const response = await handleRenew(jar.request(site(`${AUTH_ROUTES.renew}?returnTo=%2Faccount`)));
    expect(response.headers.get("location")).toBe(site("/account"));
    expect(response.headers.get("set-cookie")).toMatch(/wms_session=;.*Max-Age=0/i);
  });

  it("keeps only paths on this site", async () => {
    const jar = await jarWithSession({ accessToken: "a", refreshToken: "r", role: "visitor", expiresAt: 0, renewAt: 0, issuedAt: 0, startedAt: 0, seenAt: 0 });
    const response = await handleRenew(jar.request(site(`${AUTH_ROUTES.renew}?returnTo=https%3A%2F%2Fevil.example&ifEnded=%2F%2Fevil.example`)));
    expect(new URL(response.headers.get("location")!).origin).toBe("http://localhost:3000");
  });
});
