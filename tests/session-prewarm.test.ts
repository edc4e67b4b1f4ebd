import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handlePrewarm } from "@/lib/auth/prewarm";
import { PREWARM_INTERVAL_MS, prewarmDue } from "@/lib/auth/prewarm-schedule";
import { DEMO_MEMBER } from "@/platform/seed/seed";
import { TestBrowser } from "@/platform/identity/test-browser";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";
import { CookieJar, jarWithPlatformSession } from "./support/cookie-jar";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const demoId = () => platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
const prewarmRequest = (jar: CookieJar) => new NextRequest(jar.request("http://localhost:3000/api/auth/prewarm", { method: "POST" }));

describe("when a browser pre-warms", () => {
  it("runs when it never did, or 7 days or more ago; not within the 7 days", () => {
    const now = 1_800_000_000_000;
    expect(prewarmDue(null, now)).toBe(true);
    expect(prewarmDue("not a time", now)).toBe(true);
    expect(prewarmDue(String(now - PREWARM_INTERVAL_MS), now)).toBe(true);
    expect(prewarmDue(String(now - PREWARM_INTERVAL_MS + 1), now)).toBe(false);
    expect(prewarmDue(String(now - 60_000), now)).toBe(false);
  });
});

describe("POST /api/auth/prewarm", () => {
  it("gives a member's browser a URL that signs it in on the platform's pages", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", demoId());
    const response = await handlePrewarm(prewarmRequest(jar));
    expect(response.headers.get("cache-control")).toContain("no-store");
    const { url } = (await response.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^${platform.url}/hosted/login\\?rs=`));
    const browser = new TestBrowser();
    expect((await browser.get(url)).status).toBe(200);
    expect(platform.ctx.loginSessions.byToken(browser.cookies.get("lp_session"))?.memberId).toBe(demoId());
  });

  it("ends a member's session the platform ended elsewhere: 401, no URL, the cookie cleared, and the notice for the next page", async () => {
    const { jar } = await jarWithPlatformSession(platform, "member", demoId(), { revoked: true });
    const response = await handlePrewarm(prewarmRequest(jar));
    expect([response.status, await response.json()]).toEqual([401, { url: null }]);
    jar.apply(response);
    expect(jar.get("wms_session")).toBeUndefined();
    expect(jar.get("wms_notice")).toBe("session-ended");
  });

  it("gives a visitor no URL, and a failing platform only a logged 503 with no URL", async () => {
    expect(await (await handlePrewarm(prewarmRequest(new CookieJar()))).json()).toEqual({ url: null });
    const { jar } = await jarWithPlatformSession(platform, "member", demoId());
    platform.ctx.faults.replace([{ pathPrefix: "/_api/redirects-api/", latencyMs: 0, errorRate: 1, errorStatus: 500, dropRate: 0, garbageRate: 0 }]);
    try {
      const response = await handlePrewarm(prewarmRequest(jar));
      expect([response.status, await response.json()]).toEqual([503, { url: null }]);
    } finally {
      platform.ctx.faults.replace([]);
    }
  });
});
