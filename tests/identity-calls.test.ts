import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
import { FAILURE_MESSAGES } from "@/lib/auth/forms";
import { PlatformUnavailableError } from "@/lib/wix/errors";
import { sessionClient } from "@/lib/wix/client";
import {
  beginPasskeyRegistration,
  forgetRememberedDevices,
  myPasskeys,
  myRememberedDevices,
  registerPasskey,
  removePasskey,
  turnOnSecondFactor,
} from "@/lib/wix/factors";
import { logIn, loginRefusalOutcome, recheckPassword, register, resendVerificationCode, verifySecondFactor } from "@/lib/wix/identity";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { MAILS_PER_HOUR, MAX_FAILURES, PROOFS_PER_SESSION } from "@/platform/identity/throttle";
import { openSignUp, startTestPlatform, type TestPlatform } from "@/platform/testing";

// The site's side of the identity calls, against the real platform: "Resend code", and what a
// member is told when the platform refuses or fails (docs/auth-pitfalls.md, "Identity errors").

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());
beforeEach(() => {
  openSignUp(platform);
  platform.ctx.faults.replace([]);
});

let counter = 0;
const freshEmail = () => `site-${Date.now()}-${++counter}@ridgeline.example`;
const PASSWORD = "Granite-ridge-walk-42";
const codes = (to: string) => platform.ctx.outbox.list(to).filter((mail) => mail.kind === "verification");

describe("resending a verification code", () => {
  it("mails a new code for the pending verification, up to the platform's hourly limit", async () => {
    platform.ctx.settings.update({ requireEmailVerification: true });
    const email = freshEmail();
    const outcome = await register({ email, password: PASSWORD, publicProfile: true });
    if (outcome.kind !== "verify-email") throw new Error(`expected a verification, got ${outcome.kind}`);
    for (let sent = 1; sent < MAILS_PER_HOUR; sent++) expect(await resendVerificationCode(outcome.stateToken)).toEqual({ kind: "sent" });
    expect(codes(email)).toHaveLength(MAILS_PER_HOUR);
    // The platform says how long until the first of the hour's codes is forgotten.
    const refused = await resendVerificationCode(outcome.stateToken);
    expect(refused).toEqual({ kind: "tooManyAttempts", retryAfterSeconds: expect.any(Number) });
    expect(refused.kind === "tooManyAttempts" && refused.retryAfterSeconds).toBeGreaterThan(59 * 60);
    expect(await resendVerificationCode("VST-gone")).toEqual({ kind: "expired" });
  });
});

describe("what the forms are told", () => {
  it("a platform that fails is 'something went wrong', never a wrong password or its raw text", async () => {
    platform.ctx.faults.replace([
      { pathPrefix: "/_api/iam/authentication/v2/login", latencyMs: 0, errorRate: 1, errorStatus: 500, dropRate: 0, garbageRate: 0 },
    ]);
    // The site sends loginV2 itself (for the second-factor challenge): a 5xx is the platform not
    // answering, which the login form reports as UNAVAILABLE_MESSAGE.
    await expect(logIn({ email: "demo@ridgeline.example", password: "whatever-it-is" })).rejects.toBeInstanceOf(PlatformUnavailableError);
    // A refusal with a code the SDK does not name is not a wrong e-mail address either.
    for (const code of ["INTERNAL_ERROR", "FAULT_INJECTED", undefined]) {
      expect(loginRefusalOutcome({ code, violations: [] })).toEqual({ kind: "failed", reason: "unknown", fields: {} });
    }
    expect(FAILURE_MESSAGES.unknown).toBe("Something went wrong on our side. Please try again in a moment.");
  });

  it("a login sends the invisible check's answer under its own key; one the platform does not trust is an invalid captcha", async () => {
    platform.ctx.settings.update({ requireCaptcha: true });
    const demo = { email: "demo@ridgeline.example", password: "ridgeline-demo" };
    expect(await logIn(demo)).toMatchObject({ kind: "failed", reason: "missingCaptchaToken" });
    expect(await logIn({ ...demo, captcha: { token: LOCAL_CAPTCHA_TOKEN, invisible: true } })).toMatchObject({ kind: "signed-in" });
    platform.ctx.settings.update({ rejectInvisibleCaptcha: true });
    expect(await logIn({ ...demo, captcha: { token: LOCAL_CAPTCHA_TOKEN, invisible: true } })).toMatchObject({ kind: "failed", reason: "invalidCaptchaToken" });
    expect(await logIn({ ...demo, captcha: { token: LOCAL_CAPTCHA_TOKEN, invisible: false } })).toMatchObject({ kind: "signed-in" });
  });

  it("a blocked member is told so after the right password; a wrong one reads as for anyone", async () => {
    const email = freshEmail();
    await register({ email, password: PASSWORD, publicProfile: false });
    platform.ctx.db.prepare("UPDATE identities SET status = 'BLOCKED' WHERE login_email = ?").run(email);
    expect(await logIn({ email, password: PASSWORD })).toMatchObject({ kind: "failed", reason: "blocked" });
    expect(await logIn({ email, password: "Not-the-password-1" })).toMatchObject({ kind: "failed", reason: "invalidPassword" });
  });

  it("the account page's check of the current password needs no robot check and mails no login code, whoever failed logins before", async () => {
    const email = freshEmail();
    await register({ email, password: PASSWORD, publicProfile: false });
    const memberId = platform.ctx.identities.findForLogin(email)!.identity.id;
    platform.ctx.factors.enroll(memberId, "EMAIL");
    for (let failure = 0; failure < MAX_FAILURES; failure++) await logIn({ email, password: "Not-the-password-1" });
    const mails = platform.ctx.outbox.list(email).length;
    const client = sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: LOCAL_CLIENT_ID }).accessToken);
    expect(await recheckPassword(client, email, "Not-the-password-2")).toMatchObject({ kind: "failed", reason: "invalidPassword" });
    expect(await recheckPassword(client, email, PASSWORD)).toEqual({ ok: true });
    expect(platform.ctx.outbox.list(email)).toHaveLength(mails);
  }, 30_000);

  it("a refused field is named with the platform's description of it", async () => {
    const outcome = await register({ email: freshEmail(), password: "password", publicProfile: true });
    expect(outcome).toEqual({ kind: "failed", reason: "invalidField", fields: { password: expect.stringMatching(/common/i) } });
  });
});

describe("two-step sign-in, the site's calls", () => {
  /** A new member with e-mail codes on, and an access token of theirs. */
  async function memberWithEmailCodes() {
    const email = freshEmail();
    const outcome = await register({ email, password: PASSWORD, publicProfile: true });
    if (outcome.kind !== "signed-in") throw new Error(`expected a session, got ${outcome.kind}`);
    const session = platform.ctx.loginSessions.byToken(outcome.sessionToken)!;
    const { accessToken } = platform.ctx.tokens.issuePair({
      role: "member",
      subjectId: session.memberId,
      clientId: LOCAL_CLIENT_ID,
      loginSessionId: session.id,
    });
    expect(await turnOnSecondFactor(accessToken, { type: "EMAIL" }, PASSWORD)).toBeUndefined();
    return { email, accessToken };
  }
  const loginCode = (email: string) => platform.ctx.outbox.list(email).find((mail) => mail.kind === "login-code")!.code!;

  it("a remembered browser's token, sent with the login, skips the code; forgotten, it no longer does", async () => {
    const { email, accessToken } = await memberWithEmailCodes();
    const challenged = await logIn({ email, password: PASSWORD });
    if (challenged.kind !== "second-factor") throw new Error(`expected a challenge, got ${challenged.kind}`);
    const verified = await verifySecondFactor("EMAIL", loginCode(email), challenged.stateToken, {
      userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/133.0",
    });
    if (verified.kind !== "signed-in" || !verified.deviceToken) throw new Error("expected a session and a device token");
    expect(await logIn({ email, password: PASSWORD, deviceToken: verified.deviceToken })).toEqual({ kind: "signed-in", sessionToken: expect.any(String) });
    const [device] = await myRememberedDevices(accessToken);
    expect(device).toMatchObject({ name: "Firefox on macOS" });
    await forgetRememberedDevices(accessToken, device.id);
    // Forgetting one already forgotten is no error.
    await forgetRememberedDevices(accessToken, device.id);
    expect((await logIn({ email, password: PASSWORD, deviceToken: verified.deviceToken })).kind).toBe("second-factor");
  });

  it("a passkey's registration begins only with the password, and a credential that does not answer it is refused", async () => {
    const { accessToken } = await memberWithEmailCodes();
    expect(await myPasskeys(accessToken)).toEqual({ passkeys: [], userVerification: "PREFERRED" });
    expect(await beginPasskeyRegistration(accessToken, "not-it", "PREFERRED")).toBe("wrong-password");
    const begun = await beginPasskeyRegistration(accessToken, PASSWORD, "REQUIRED");
    if (typeof begun !== "object" || !("challengeId" in begun)) throw new Error("expected a registration");
    // Creation options for the browser, with the site as the relying party.
    const options = JSON.parse(begun.optionsJson) as { challenge: string; rp: { id: string } };
    expect(options.challenge).toMatch(/^[\w-]{16,}$/);
    expect(options.rp.id).toBe(new URL(platform.ctx.config.siteUrl).hostname);
    const forged = JSON.stringify({ id: "AAAA", rawId: "AAAA", type: "public-key", response: { clientDataJSON: "e30", attestationObject: "oA" } });
    expect(await registerPasskey(accessToken, { challengeId: begun.challengeId, credential: forged, name: "Phone" })).toBe("refused");
    // The challenge was used up by that answer.
    expect(await registerPasskey(accessToken, { challengeId: begun.challengeId, credential: forged, name: "Phone" })).toBe("refused");
    // The member's choice is kept from the registration begun with the password.
    expect(await myPasskeys(accessToken)).toEqual({ passkeys: [], userVerification: "REQUIRED" });
    // Removing one already gone (from another tab) is no error.
    expect(await removePasskey(accessToken, "gone", PASSWORD)).toBeUndefined();
  });

  it("past the wrong passwords given as proof, a change is refused with the platform's wait", async () => {
    const { accessToken } = await memberWithEmailCodes();
    for (let failure = 0; failure < PROOFS_PER_SESSION; failure++)
      expect(await turnOnSecondFactor(accessToken, { type: "TOTP" }, "not-it")).toBe("wrong-password");
    const refused = await turnOnSecondFactor(accessToken, { type: "TOTP" }, PASSWORD);
    expect(refused).toEqual({ throttled: true, retryAfterSeconds: expect.any(Number) });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(800);
  }, 60_000);
});
