import { describe, expect, it } from "vitest";
import { smsFactorSchema } from "@/lib/account/forms";
import { CODE_STEP_MESSAGES, FAILURE_MESSAGES, codeStepMessage, failureMessage, loginCodeSchema } from "@/lib/auth/forms";
import { readRefusal } from "@/lib/wix/errors";
import { loginRefusalOutcome, stateOutcome } from "@/lib/wix/identity";

describe("the platform's state replies, as the site's login reads them", () => {
  it("maps SUCCESS, e-mail verification and approval as OAuthStrategy does", () => {
    expect(stateOutcome({ state: "SUCCESS", sessionToken: "st" })).toEqual({ kind: "signed-in", sessionToken: "st" });
    expect(stateOutcome({ state: "REQUIRE_EMAIL_VERIFICATION", stateToken: "vst" })).toEqual({ kind: "verify-email", stateToken: "vst" });
    expect(stateOutcome({ state: "REQUIRE_OWNER_APPROVAL" })).toEqual({ kind: "awaiting-approval" });
  });

  it("reads a second-factor challenge: the state token, the factor and the hint", () => {
    const reply = {
      state: "MFA_CHALLENGE",
      stateToken: "mfa-state",
      mfaChallengeData: {
        factorType: "SMS",
        verificationChallengeData: { hint: "•••• 0123" },
        availableFactors: [{ factorType: "SMS", factorStatus: "ENABLED" }],
        reason: "USER_SETTINGS",
      },
    };
    expect(stateOutcome(reply)).toEqual({ kind: "second-factor", stateToken: "mfa-state", factorType: "SMS", hint: "•••• 0123" });
  });

  it("fails on what it cannot use: a challenge by a factor the site cannot ask for, a state with its token missing, an unknown state", () => {
    const unknown = { kind: "failed", reason: "unknown", fields: {} };
    expect(stateOutcome({ state: "MFA_CHALLENGE", stateToken: "s", mfaChallengeData: { factorType: "WEBAUTHN" } })).toEqual(unknown);
    expect(stateOutcome({ state: "MFA_CHALLENGE", mfaChallengeData: { factorType: "EMAIL" } })).toEqual(unknown);
    expect(stateOutcome({ state: "SUCCESS" })).toEqual(unknown);
    expect(stateOutcome({ state: "REQUIRE_MFA" })).toEqual(unknown);
    expect(stateOutcome("not a reply")).toEqual(unknown);
  });
});

describe("refused logins and codes", () => {
  it.each([
    ["-19976", "invalidPassword"],
    ["-19973", "resetPassword"],
    ["-19971", "missingCaptchaToken"],
    ["-19970", "invalidCaptchaToken"],
    ["-19999", "invalidEmail"],
    ["THROTTLED_FEATURE", "tooManyAttempts"],
    ["VERIFICATION_FAILED", "invalidCode"],
    ["VERIFICATION_EXPIRED", "codeExpired"],
    ["-19958", "blocked"],
  ])("names the platform's code %s as %s", (code, reason) => {
    expect(loginRefusalOutcome({ code, violations: [] })).toEqual({ kind: "failed", reason, fields: {} });
  });

  it("has a message for each way a login code fails", () => {
    for (const reason of ["invalidCode", "codeExpired", "tooManyAttempts"] as const) expect(CODE_STEP_MESSAGES[reason]).toMatch(/code/);
  });

  it("tells a blocked member so, and whom to ask, apart from a wrong password", () => {
    expect(failureMessage(loginRefusalOutcome({ code: "-19958", violations: [] }))).toMatch(/blocked.*club organiser/);
    expect(failureMessage(loginRefusalOutcome({ code: "-19976", violations: [] }))).toBe(FAILURE_MESSAGES.invalidPassword);
  });

  it("says the wait the platform gives with a throttled refusal, and promises none it did not give", () => {
    const details = { applicationError: { code: "THROTTLED_FEATURE", description: "Too many codes", data: { retryAfterSeconds: 3540 } } };
    const refusal = readRefusal(details);
    expect(refusal).toEqual({ code: "THROTTLED_FEATURE", violations: [], retryAfterSeconds: 3540 });
    const throttled = loginRefusalOutcome(refusal!);
    expect(throttled).toEqual({ kind: "failed", reason: "tooManyAttempts", fields: {}, retryAfterSeconds: 3540 });
    expect(failureMessage(throttled)).toBe("Too many attempts. Please wait 59 minutes, then try again.");
    expect(codeStepMessage(throttled)).toBe(failureMessage(throttled));
    // The daily ceiling on wrong codes: a wait in hours.
    expect(codeStepMessage({ reason: "tooManyAttempts", retryAfterSeconds: 86_000 })).toBe("Too many attempts. Please wait 24 hours, then try again.");
    // Too many wrong codes for one code: no wait, the code is used up.
    expect(codeStepMessage({ reason: "tooManyAttempts" })).toBe(CODE_STEP_MESSAGES.tooManyAttempts);
    expect(failureMessage({ reason: "tooManyAttempts" })).not.toMatch(/minute/);
    // Whatever else `data` holds, the refusal is still read.
    expect(readRefusal({ applicationError: { code: "THROTTLED_FEATURE", data: null } })).toEqual({ code: "THROTTLED_FEATURE", violations: [] });
    expect(readRefusal({ applicationError: { code: "X", data: { retryAfterSeconds: "soon" } } })).toEqual({ code: "X", violations: [] });
  });
});

describe("the forms of two-step sign-in", () => {
  it("takes a 6-digit code, spaces allowed, and refuses anything else", () => {
    expect(loginCodeSchema.parse({ code: " 123 456 " })).toEqual({ code: "123456" });
    for (const code of ["12345", "1234567", "12a456", ""]) expect(loginCodeSchema.safeParse({ code }).success).toBe(false);
  });

  it("takes a mobile number in international form and keeps its digits", () => {
    expect(smsFactorSchema.parse({ phone: "+44 (7700) 900-123" })).toEqual({ phone: "+447700900123" });
    const local = smsFactorSchema.safeParse({ phone: "07700 900123" });
    expect(local.success).toBe(false);
    expect(local.error?.issues[0].message).toContain("international form");
  });
});
