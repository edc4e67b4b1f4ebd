import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform } from "../testing";
import { CSRF_HEADER, STUDIO_SESSION_COOKIE } from "./access";

type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;

const csrfOf = (html: string) => /<meta name="studio-csrf" content="([^"]+)">/.exec(html)?.[1];

describe("the Studio with the default key: this machine only", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  it("serves its page under a strict CSP to a loopback browser, and refuses other machines", async () => {
    const page = await platform.app.inject({ url: "/_local/studio/members" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["content-security-policy"]).not.toContain("unsafe");
    expect(csrfOf(page.body)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const remote = await platform.app.inject({ url: "/_local/studio", remoteAddress: "10.1.2.3" });
    expect(remote.statusCode).toBe(403);
    const rebound = await platform.app.inject({ url: "/_local/studio/api/mailbox", headers: { host: "attacker.example" } });
    expect(rebound.statusCode).toBe(403);
  });

  it("answers its API to the page, and takes changes only with the page's CSRF token", async () => {
    const csrf = csrfOf((await platform.app.inject({ url: "/_local/studio" })).body)!;
    expect((await platform.app.inject({ url: "/_local/studio/api/mailbox" })).json()).toEqual({ messages: [] });
    const withoutToken = await platform.app.inject({ method: "POST", url: "/_local/studio/sign-out", payload: {} });
    expect(withoutToken.statusCode).toBe(403);
    expect(withoutToken.json().details.applicationError.code).toBe("CSRF_TOKEN_INVALID");
    expect(csrf).toBeTruthy();
  });

  it("refuses calls made by pages of other origins", async () => {
    const call = await platform.app.inject({ url: "/_local/studio/api/mailbox", headers: { origin: "https://evil.example" } });
    expect(call.statusCode).toBe(403);
  });

  it("forbids framing its page and sniffing its API's answers, refusals included", async () => {
    const page = await platform.app.inject({ url: "/_local/studio/members" });
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(page.headers["x-frame-options"]).toBe("DENY");
    const answered = await platform.app.inject({ url: "/_local/studio/api/mailbox" });
    expect(answered.statusCode).toBe(200);
    expect(answered.headers["x-content-type-options"]).toBe("nosniff");
    const refused = await platform.app.inject({ url: "/_local/studio/api/mailbox", headers: { origin: "https://evil.example" } });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers["x-content-type-options"]).toBe("nosniff");
    const missing = await platform.app.inject({ url: "/_local/studio/api/no-such-area" });
    expect(missing.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("sends the mailbox's old address to its new one", async () => {
    const old = await platform.app.inject({ url: "/_local/mailbox" });
    expect(old.statusCode).toBe(308);
    expect(old.headers.location).toBe("/_local/studio/mailbox");
  });
});

describe("the Studio with a key of the owner's own: a sign-in", () => {
  let platform: TestPlatform;
  const apiKey = "studio-test-key-0123456789";
  beforeAll(async () => {
    platform = await startTestPlatform({ apiKey });
  });
  afterAll(() => platform.close());

  const signIn = (key: string, remoteAddress = "127.0.0.1") =>
    platform.app.inject({
      method: "POST",
      url: "/_local/studio/sign-in",
      remoteAddress,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ key, next: "/_local/studio/members" }).toString(),
    });

  it("shows the sign-in form instead of the Studio, and refuses the API, until the key is given", async () => {
    const page = await platform.app.inject({ url: "/_local/studio" });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="key"');
    expect(page.body).not.toContain("studio-csrf");
    expect((await platform.app.inject({ url: "/_local/studio/api/mailbox" })).statusCode).toBe(403);
  });

  it("turns a wrong key away with a redirect to the form, which says so", async () => {
    const wrong = await signIn("not-the-key");
    expect(wrong.statusCode).toBe(303);
    expect(wrong.headers["set-cookie"]).toBeUndefined();
    const again = await platform.app.inject({ url: wrong.headers.location as string });
    expect(again.statusCode).toBe(401);
    expect(again.body).toContain("That is not the platform's API key.");
  });

  it("opens a strict, HttpOnly session for the right key, from any machine, and ends it on sign-out", async () => {
    const right = await signIn(apiKey, "10.1.2.3");
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe("/_local/studio/members");
    const setCookie = String(right.headers["set-cookie"]);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/_local\/studio/);
    const cookie = setCookie.split(";")[0];
    expect(cookie.startsWith(`${STUDIO_SESSION_COOKIE}=`)).toBe(true);

    const page = await platform.app.inject({ url: "/_local/studio/members", remoteAddress: "10.1.2.3", headers: { cookie } });
    const csrf = csrfOf(page.body)!;
    expect(csrf).toBeTruthy();
    expect((await platform.app.inject({ url: "/_local/studio/api/mailbox", remoteAddress: "10.1.2.3", headers: { cookie } })).statusCode).toBe(200);

    const out = await platform.app.inject({
      method: "POST",
      url: "/_local/studio/sign-out",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", [CSRF_HEADER]: "ignored-here" },
      payload: new URLSearchParams({ csrf }).toString(),
    });
    expect(out.statusCode).toBe(303);
    expect(String(out.headers["set-cookie"])).toMatch(/Max-Age=0/);
    expect((await platform.app.inject({ url: "/_local/studio/api/mailbox", headers: { cookie } })).statusCode).toBe(403);
  });
});
