import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideTokenAction, renewSession } from "@/lib/auth/refresh";
import { sessionFromTokens, type Session } from "@/lib/auth/session";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

const now = 1_800_000_000;
const session = (overrides: Partial<Session> = {}): Session => ({
  accessToken: "at",
  refreshToken: "rt",
  expiresAt: now + 3600,
  renewAt: now + 3540,
  role: "visitor",
  ...overrides,
});

describe("the refresh decision", () => {
  it("keeps a valid session", () => expect(decideTokenAction(session(), now)).toBe("keep"));
  it("refreshes once the renewal time has come, before the token expires", () =>
    expect(decideTokenAction(session({ renewAt: now - 1 }), now)).toBe("refresh"));
  it("refreshes an expired session", () => expect(decideTokenAction(session({ expiresAt: now - 10, renewAt: now - 70 }), now)).toBe("refresh"));
  it("starts a visitor session when there is none", () => expect(decideTokenAction(null, now)).toBe("anonymous"));
  it("renews a minute early, or a quarter of a short lifetime early", () => {
    const pair = { accessToken: "a", refreshToken: "r", role: "visitor" as const };
    expect(sessionFromTokens({ ...pair, expiresAt: now + 14400 }, now).renewAt).toBe(now + 14340);
    expect(sessionFromTokens({ ...pair, expiresAt: now + 20 }, now).renewAt).toBe(now + 15);
  });
});

describe("renewing against the local platform", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());
  const clock = () => Math.floor(Date.now() / 1000);

  it("grants a visitor pair when there is no session", async () => {
    const { session: fresh, memberSessionEnded } = await renewSession(null, clock());
    expect(fresh.role).toBe("visitor");
    expect(fresh.expiresAt).toBeGreaterThan(clock() + 14000);
    expect(memberSessionEnded).toBe(false);
    expect(platform.ctx.tokens.resolveAccess(fresh.accessToken)?.role).toBe("visitor");
  });

  it("refreshes with the refresh token, keeping it and the member", async () => {
    const pair = platform.ctx.tokens.issuePair({ role: "member", subjectId: "member-1", clientId: LOCAL_CLIENT_ID });
    const member = { id: "member-1", name: "Dana" };
    const expired = session({ accessToken: pair.accessToken, refreshToken: pair.refreshToken, role: "member", member, renewAt: clock() - 1 });
    const { session: renewed, memberSessionEnded } = await renewSession(expired, clock());
    expect(memberSessionEnded).toBe(false);
    expect(renewed.member).toEqual(member);
    expect(renewed.refreshToken).toBe(pair.refreshToken);
    expect(renewed.accessToken).not.toBe(pair.accessToken);
    expect(platform.ctx.tokens.resolveAccess(renewed.accessToken)).toMatchObject({ role: "member", subjectId: "member-1" });
  });

  it("shares one refresh between parallel requests with the same cookie", async () => {
    const pair = platform.ctx.tokens.issuePair({ role: "visitor", subjectId: "visitor-9", clientId: LOCAL_CLIENT_ID });
    const expired = session({ accessToken: pair.accessToken, refreshToken: pair.refreshToken, renewAt: clock() - 1 });
    const before = (await platform.stats()).requests["POST /oauth2/token"] ?? 0;
    const results = await Promise.all([renewSession(expired, clock()), renewSession(expired, clock()), renewSession(expired, clock())]);
    expect(new Set(results.map((r) => r.session.accessToken)).size).toBe(1);
    expect((await platform.stats()).requests["POST /oauth2/token"]).toBe(before + 1);
  });

  it("turns a member whose refresh token was revoked into a visitor, and says so", async () => {
    const pair = platform.ctx.tokens.issuePair({ role: "member", subjectId: "member-2", clientId: LOCAL_CLIENT_ID });
    platform.ctx.tokens.revokeSubject("member-2");
    const expired = session({ accessToken: pair.accessToken, refreshToken: pair.refreshToken, role: "member", member: { id: "member-2", name: "Sam" }, renewAt: clock() - 1 });
    const { session: downgraded, memberSessionEnded } = await renewSession(expired, clock());
    expect(memberSessionEnded).toBe(true);
    expect(downgraded.role).toBe("visitor");
    expect(downgraded.member).toBeUndefined();
    expect(downgraded.refreshToken).not.toBe(pair.refreshToken);
  });

  it("keeps the session when the platform cannot be reached, instead of logging the member out", async () => {
    const unreachable = session({ refreshToken: "ORT.whatever", role: "member", renewAt: clock() - 1 });
    const original = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new TypeError("fetch failed"));
    try {
      await expect(renewSession(unreachable, clock())).rejects.toThrow("fetch failed");
    } finally {
      globalThis.fetch = original;
    }
  });
});
