import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FRESH_TOKEN_SECONDS, RETRY_AFTER_FAILURE_MS, RenewalPausedError, renewSession } from "@/lib/auth/refresh";
import { isDueForRenewal } from "@/lib/auth/session";
import { SEEN_RESOLUTION_SECONDS, isSeenStale, memberSessionLapsed, sessionFromTokens, type Session } from "@/lib/auth/session";
import { GrantRejectedError, PlatformUnavailableError } from "@/lib/wix/errors";
import { renewAccessToken } from "@/lib/wix/oauth";
import { LOCAL_CLIENT_ID } from "@ridgeline/platform-contract";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

const now = 1_800_000_000;
const session = (overrides: Partial<Session> = {}): Session => ({
  accessToken: "at",
  refreshToken: "rt",
  expiresAt: now + 3600,
  renewAt: now + 3540,
  issuedAt: now - 60,
  startedAt: now - 600,
  seenAt: now - 60,
  role: "visitor",
  ...overrides,
});

describe("member session limits", () => {
  const limits = { idleSeconds: 3600, absoluteSeconds: 86_400 };
  const member = (startedAt: number, seenAt: number) => session({ role: "member", startedAt, seenAt });

  it("ends a member session idle for longer than the idle limit, or older than the absolute one", () => {
    expect(memberSessionLapsed(member(now - 7200, now - 3599), now, limits)).toBe(false);
    expect(memberSessionLapsed(member(now - 7200, now - 3601), now, limits)).toBe(true);
    expect(memberSessionLapsed(member(now - 86_401, now - 10), now, limits)).toBe(true);
  });

  it("never ends a visitor session, and dates a session from before these fields by its tokens", () => {
    expect(memberSessionLapsed(session({ startedAt: now - 10 ** 7, seenAt: 0 }), now, limits)).toBe(false);
    expect(memberSessionLapsed(session({ role: "member", startedAt: 0, seenAt: 0, issuedAt: now - 100 }), now, limits)).toBe(false);
    expect(memberSessionLapsed(session({ role: "member", startedAt: 0, seenAt: 0, issuedAt: now - 3700 }), now, limits)).toBe(true);
  });

  it("records a page view at most every few minutes", () => {
    expect(isSeenStale(member(now - 900, now - SEEN_RESOLUTION_SECONDS + 1), now)).toBe(false);
    expect(isSeenStale(member(now - 900, now - SEEN_RESOLUTION_SECONDS), now)).toBe(true);
    expect(isSeenStale(session({ seenAt: 0 }), now)).toBe(false);
  });

  it("keeps the start of the session across renewals", () => {
    const renewed = sessionFromTokens(
      { accessToken: "a2", refreshToken: "r2", role: "member", expiresAt: now + 3600 },
      now,
      undefined,
      member(now - 5000, now - 100),
    );
    expect(renewed).toMatchObject({ startedAt: now - 5000, seenAt: now, issuedAt: now });
    expect(sessionFromTokens({ accessToken: "a", refreshToken: "r", role: "member", expiresAt: now + 3600 }, now).startedAt).toBe(now);
  });
});

describe("the renewal decision", () => {
  it("keeps a valid session", () => expect(isDueForRenewal(session(), now)).toBe(false));
  it("renews once the renewal time has come, before the token expires", () => expect(isDueForRenewal(session({ renewAt: now - 1 }), now)).toBe(true));
  it("renews an expired session", () => expect(isDueForRenewal(session({ expiresAt: now - 10, renewAt: now - 70 }), now)).toBe(true));
  it("renews a minute early, or a quarter of a short lifetime early", () => {
    const pair = { accessToken: "a", refreshToken: "r", role: "visitor" as const };
    expect(sessionFromTokens({ ...pair, expiresAt: now + 14400 }, now).renewAt).toBe(now + 14340);
    expect(sessionFromTokens({ ...pair, expiresAt: now + 20 }, now).renewAt).toBe(now + 15);
  });
});

/** A token endpoint that answers every grant with a fixed reply and an empty reason phrase, as HTTP/2 does. */
async function withTokenEndpoint(status: number, body: string, contentType: string, run: () => Promise<void>) {
  const server = http.createServer((_request, response) => {
    response.writeHead(status, "", { "content-type": contentType });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => original(`http://127.0.0.1:${port}/oauth2/token`, init);
  try {
    await run();
  } finally {
    globalThis.fetch = original;
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("typed token-endpoint failures, from status and body with an empty status text", () => {
  it("a 400 with an OAuth error body is a rejection", () =>
    withTokenEndpoint(400, '{"error":"invalid_grant"}', "application/json", async () => {
      const failure = await renewAccessToken({ refreshToken: "r", role: "member" }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(GrantRejectedError);
      expect(failure).toMatchObject({ status: 400, oauthError: "invalid_grant" });
    }));

  it("a 403 HTML page from a proxy is not a rejection: the platform is unavailable", () =>
    withTokenEndpoint(403, "<html>Forbidden</html>", "text/html", async () => {
      await expect(renewAccessToken({ refreshToken: "r", role: "member" })).rejects.toBeInstanceOf(PlatformUnavailableError);
    }));

  it.each([
    [503, '{"error":"overloaded"}'],
    [429, '{"error":"slow_down"}'],
    [200, '{"unexpected":true}'],
  ])("%i %s is unavailable, never a rejection", (status, body) =>
    withTokenEndpoint(status, body, "application/json", async () => {
      await expect(renewAccessToken({ refreshToken: "r", role: "member" })).rejects.toBeInstanceOf(PlatformUnavailableError);
    }),
  );
});

describe("renewing against the local platform", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());
  const clock = () => Math.floor(Date.now() / 1000);
  const issued = (role: "visitor" | "member", subjectId: string) => platform.ctx.tokens.issuePair({ role, subjectId, clientId: LOCAL_CLIENT_ID });
  const tokenCalls = async () => (await platform.stats()).requests["POST /oauth2/token"] ?? 0;

  it("refreshes with the refresh token, keeping it and the member", async () => {
    const pair = issued("member", "member-1");
    const member = { id: "member-1", name: "Dana" };
    const due = session({ accessToken: pair.accessToken, refreshToken: pair.refreshToken, role: "member", member, renewAt: clock() - 1 });
    const { session: renewed, memberSessionEnded } = await renewSession(due, clock());
    expect(memberSessionEnded).toBe(false);
    expect(renewed?.member).toEqual(member);
    expect(renewed?.refreshToken).toBe(pair.refreshToken);
    expect(renewed?.accessToken).not.toBe(pair.accessToken);
    expect(renewed?.issuedAt).toBeGreaterThanOrEqual(clock() - 1);
    expect(platform.ctx.tokens.resolveAccess(renewed!.accessToken)).toMatchObject({ role: "member", subjectId: "member-1" });
  });

  it("shares one refresh between parallel requests with the same cookie", async () => {
    const pair = issued("visitor", "visitor-9");
    const due = session({ accessToken: pair.accessToken, refreshToken: pair.refreshToken, renewAt: clock() - 1 });
    const before = await tokenCalls();
    const results = await Promise.all([renewSession(due, clock()), renewSession(due, clock()), renewSession(due, clock())]);
    expect(new Set(results.map((r) => r.session?.accessToken)).size).toBe(1);
    expect(await tokenCalls()).toBe(before + 1);
  });

  it("ends a member's session whose refresh token was revoked, and says so", async () => {
    const pair = issued("member", "member-2");
    platform.ctx.tokens.revokeSubject("member-2");
    const due = session({
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      role: "member",
      member: { id: "member-2", name: "Sam" },
      renewAt: clock() - 1,
    });
    expect(await renewSession(due, clock())).toEqual({ session: null, memberSessionEnded: true });
  });

  it("asks the platform again for a check, instead of reusing a renewal that settled moments ago", async () => {
    const pair = issued("member", "member-3");
    const due = session({
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      role: "member",
      member: { id: "member-3", name: "Kim" },
      renewAt: clock() - 1,
    });
    expect((await renewSession(due, clock())).session).not.toBeNull();
    platform.ctx.tokens.revokeSubject("member-3");
    expect((await renewSession(due, clock())).session).not.toBeNull();
    expect(await renewSession(due, clock(), "check")).toEqual({ session: null, memberSessionEnded: true });
  });

  it("treats a token refused right after it was issued as dead, without another grant", async () => {
    const pair = issued("member", "member-4");
    const fresh = session({ accessToken: pair.accessToken, refreshToken: pair.refreshToken, role: "member", issuedAt: clock() - FRESH_TOKEN_SECONDS + 2 });
    const before = await tokenCalls();
    expect(await renewSession(fresh, clock(), "refused")).toEqual({ session: null, memberSessionEnded: true });
    expect(await tokenCalls()).toBe(before);
  });

  it("fills in a member's missing display name at renewal", async () => {
    const member = platform.ctx.identities.findForLogin("demo@ridgeline.example")?.identity;
    const pair = issued("member", member!.id);
    const due = session({ accessToken: pair.accessToken, refreshToken: pair.refreshToken, role: "member", renewAt: clock() - 1 });
    const { session: renewed } = await renewSession(due, clock());
    expect(renewed?.member).toEqual({ id: member!.id, name: "Dana" });
  });

  it("keeps the session when the platform cannot be reached, and asks again only after a pause", async () => {
    const unreachable = (id: string) => session({ refreshToken: `ORT.unreachable-${id}`, role: "member", renewAt: clock() - 1 });
    const original = globalThis.fetch;
    let attempts = 0;
    globalThis.fetch = () => (attempts++, Promise.reject(new TypeError("fetch failed")));
    // A minute ago, so the pause is over for the tests that follow.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 60_000 });
    try {
      await expect(renewSession(unreachable("a"), clock())).rejects.toBeInstanceOf(PlatformUnavailableError);
      const afterFirst = attempts;
      expect(afterFirst).toBeGreaterThan(0);
      // Other sessions due meanwhile fail at once, without a call.
      await expect(renewSession(unreachable("b"), clock())).rejects.toBeInstanceOf(RenewalPausedError);
      vi.advanceTimersByTime(RETRY_AFTER_FAILURE_MS - 1000);
      await expect(renewSession(unreachable("c"), clock())).rejects.toBeInstanceOf(PlatformUnavailableError);
      expect(attempts).toBe(afterFirst);
      // Once the pause is over the platform is asked again.
      vi.advanceTimersByTime(1000);
      globalThis.fetch = original;
      const pair = issued("member", "member-5");
      const due = session({
        accessToken: pair.accessToken,
        refreshToken: pair.refreshToken,
        role: "member",
        member: { id: "member-5", name: "Lou" },
        renewAt: clock() - 1,
      });
      expect((await renewSession(due, clock())).session).not.toBeNull();
    } finally {
      vi.useRealTimers();
      globalThis.fetch = original;
    }
  });
});
