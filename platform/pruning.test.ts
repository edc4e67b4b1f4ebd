import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LOCAL_CLIENT_ID } from "./config";
import { LoginSessionStore } from "./identity/login-sessions";
import { RecoveryTokenStore } from "./identity/recovery-tokens";
import { VerificationStore } from "./identity/verifications";
import { AuthCodeStore } from "./oauth/codes";
import { TokenStore, hashToken } from "./oauth/store";
import { RedirectSessionStore } from "./redirects/store";
import { DEMO_MEMBER } from "./seed/seed";
import { startTestPlatform, type TestPlatform } from "./testing";

/**
 * The platform's periodic sweep (docs/platform/operations.md §2): rows that can no longer be used
 * go away on their own, rows still in use stay. Stores built with a clock eight days back make rows
 * that are already expired by the real clock the platform sweeps with.
 */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ tokenTtlSeconds: 1, pruneIntervalSeconds: 1 });
});
afterAll(() => platform.close());

/** Longer ago than anything lives (login sessions: a week). */
const LONG_AGO = () => Date.now() - 8 * 24 * 60 * 60 * 1000;
const count = (table: string, where = "1 = 1", ...values: unknown[]) =>
  (platform.ctx.db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get(...values) as { n: number }).n;

describe("the sweep", () => {
  it("deletes expired and revoked tokens, spent app tokens, expired codes and redirect sessions, ended sessions, and keeps live ones", async () => {
    const { ctx } = platform;
    const memberId = ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;

    // Live rows first: creating a row sweeps its table with the real clock.
    const kept = ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: LOCAL_CLIENT_ID });
    const revoked = ctx.tokens.issuePair({ role: "visitor", subjectId: "revoked-visitor", clientId: LOCAL_CLIENT_ID });
    // An app's token comes without a refresh token: its pair goes with its expired access token.
    ctx.tokens.issueApp("some-app");
    const liveSession = ctx.loginSessions.start(memberId).session;
    const endedSession = ctx.loginSessions.start(memberId).session;
    const liveReset = ctx.recoveries.start(memberId, null);
    const grant = { clientId: LOCAL_CLIENT_ID, redirectUri: null, codeChallenge: "c".repeat(43), memberId, loginSessionId: liveSession.id };
    const liveCode = ctx.codes.issue(grant);
    const liveRedirect = ctx.redirects.create({ intent: "login", returnUrl: null });

    new LoginSessionStore(ctx.db, LONG_AGO).start(memberId);
    new VerificationStore(ctx.db, LONG_AGO).start(memberId);
    new RecoveryTokenStore(ctx.db, LONG_AGO).start(memberId, null);
    new AuthCodeStore(ctx.db, 60, LONG_AGO).issue(grant);
    const pastRedirect = new RedirectSessionStore(ctx.db, LONG_AGO).create({ intent: "login", returnUrl: null });

    ctx.tokens.revokeSubject("revoked-visitor");
    ctx.loginSessions.end(endedSession.id);
    const before = ["oauth_refresh_tokens", "login_sessions", "oauth_codes", "redirect_sessions", "verification_states", "recovery_tokens"].map((table) =>
      count(table),
    );
    expect(before).toEqual([3, 3, 2, 2, 1, 2]);

    // Within a few sweeps of one second, after the 1-second access tokens have expired.
    await vi.waitFor(
      () => {
        expect(count("oauth_access_tokens")).toBe(0);
        expect(count("oauth_refresh_tokens")).toBe(1);
        expect(count("login_sessions")).toBe(1);
        expect(count("oauth_codes")).toBe(1);
        expect(count("redirect_sessions")).toBe(1);
        expect(count("verification_states")).toBe(0);
        expect(count("recovery_tokens")).toBe(1);
      },
      { timeout: 6000, interval: 200 },
    );

    // What stayed is what is still usable.
    expect(ctx.tokens.refresh(kept.refreshToken, LOCAL_CLIENT_ID)).not.toBeNull();
    expect(ctx.tokens.refresh(revoked.refreshToken, LOCAL_CLIENT_ID)).toBeNull();
    expect(ctx.loginSessions.byId(liveSession.id)).not.toBeNull();
    expect(ctx.recoveries.peek(liveReset)).not.toBeNull();
    expect(count("oauth_codes", "code_hash = ?", hashToken(liveCode))).toBe(1);
    expect(ctx.redirects.get(liveRedirect)).not.toBeNull();
    expect(ctx.redirects.get(pastRedirect)).toBeNull();
  });

  it("deletes visitors' token pairs no one has refreshed for the idle time; members' pairs and visitors still around stay", async () => {
    const { ctx } = platform;
    const idleMs = ctx.config.visitorTokenIdleSeconds * 1000;
    const beyondIdle = () => Date.now() - idleMs - 60_000;
    const longAgo = new TokenStore(ctx.db, 60, beyondIdle);
    const forgotten = longAgo.issuePair({ role: "visitor", subjectId: "forgotten-visitor", clientId: LOCAL_CLIENT_ID });
    const returning = longAgo.issuePair({ role: "visitor", subjectId: "returning-visitor", clientId: LOCAL_CLIENT_ID });
    const member = longAgo.issuePair({ role: "member", subjectId: "quiet-member", clientId: LOCAL_CLIENT_ID });
    // Refreshed today: no longer idle, however old the pair.
    expect(ctx.tokens.refresh(returning.refreshToken, LOCAL_CLIENT_ID)).not.toBeNull();
    const stored = (token: string) => count("oauth_refresh_tokens", "token_hash = ?", hashToken(token));

    await vi.waitFor(() => expect(stored(forgotten.refreshToken)).toBe(0), { timeout: 6000, interval: 200 });
    expect(stored(returning.refreshToken)).toBe(1);
    expect(stored(member.refreshToken)).toBe(1);
    expect(ctx.tokens.refresh(forgotten.refreshToken, LOCAL_CLIENT_ID)).toBeNull();
  });
});
