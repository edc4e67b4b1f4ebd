import { describe, expect, it } from "vitest";
import {
  addPasskeySchema,
  appFactorCodeSchema,
  cancelSetupSchema,
  passkeyOptionsSchema,
  passwordProofSchema,
  removeFactorSchema,
  removePasskeySchema,
  smsFactorSchema,
} from "@/lib/account/forms";
import {
  APP_CODE_MESSAGES,
  CODE_STEP_MESSAGES,
  FAILURE_MESSAGES,
  RECOVERY_CODE_MESSAGES,
  codeStepMessage,
  failureMessage,
  passkeyAnswerSchema,
  secondStepSchema,
} from "@/lib/auth/forms";
import { readRefusal } from "@/lib/wix/errors";
import { loginRefusalOutcome, passkeyRequestOptions, stateOutcome } from "@/lib/wix/identity";

describe("the platform's state replies, as the site's login reads them", () => {
  it("maps SUCCESS, e-mail verification and approval as OAuthStrategy does", () => {
    expect(stateOutcome({ state: "SUCCESS", sessionToken: "st" })).toEqual({ kind: "signed-in", sessionToken: "st" });
    expect(stateOutcome({ state: "REQUIRE_EMAIL_VERIFICATION", stateToken: "vst" })).toEqual({ kind: "verify-email", stateToken: "vst" });
    expect(stateOutcome({ state: "REQUIRE_OWNER_APPROVAL" })).toEqual({ kind: "awaiting-approval" });
  });

  it("reads the device token a verify that remembered the browser answers with", () => {
    const reply = { state: "SUCCESS", sessionToken: "st", additionalData: { deviceToken: { strValue: "device-1" } } };
    expect(stateOutcome(reply)).toEqual({ kind: "signed-in", sessionToken: "st", deviceToken: "device-1" });
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
    expect(stateOutcome(reply)).toEqual({
      kind: "second-factor",
      stateToken: "mfa-state",
      factorType: "SMS",
      hint: "•••• 0123",
      appToo: false,
      others: [],
      recoveryCodes: false,
    });
  });

  it("reads an authenticator app's challenge, which sent nothing", () => {
    const reply = {
      state: "MFA_CHALLENGE",
      stateToken: "app-state",
      mfaChallengeData: { factorType: "TOTP", verificationChallengeData: { hint: "your authenticator app" } },
    };
    expect(stateOutcome(reply)).toEqual({
      kind: "second-factor",
      stateToken: "app-state",
      factorType: "TOTP",
      hint: "your authenticator app",
      appToo: false,
      others: [],
      recoveryCodes: false,
    });
  });

  it("notes whether the member has recovery codes left: the challenge lists them among its factors", () => {
    const challenge = (types: string[]) => ({
      state: "MFA_CHALLENGE",
      stateToken: "s",
      mfaChallengeData: {
        factorType: "EMAIL",
        verificationChallengeData: { hint: "j•••@example.com" },
        availableFactors: types.map((factorType) => ({ factorType })),
      },
    });
    expect(stateOutcome(challenge(["EMAIL", "TOTP", "RECOVERY_CODE"]))).toMatchObject({ kind: "second-factor", recoveryCodes: true, others: [] });
    expect(stateOutcome(challenge(["EMAIL"]))).toMatchObject({ kind: "second-factor", recoveryCodes: false });
  });

  it("notes when the member's app may answer a challenge sent by another factor: they choose", () => {
    const reply = {
      state: "MFA_CHALLENGE",
      stateToken: "s",
      mfaChallengeData: {
        factorType: "EMAIL",
        verificationChallengeData: { hint: "j•••@example.com" },
        availableFactors: [
          { factorType: "EMAIL", factorStatus: "ENABLED" },
          { factorType: "TOTP", factorStatus: "ENABLED" },
        ],
      },
    };
    expect(stateOutcome(reply)).toMatchObject({ kind: "second-factor", factorType: "EMAIL", appToo: true });
  });

  it("lists the member's other factors that send a code, which they may choose instead", () => {
    const reply = {
      state: "MFA_CHALLENGE",
      stateToken: "s",
      mfaChallengeData: {
        factorType: "EMAIL",
        verificationChallengeData: { hint: "j•••@example.com" },
        availableFactors: ["EMAIL", "TOTP", "SMS", "WEBAUTHN"].map((factorType) => ({ factorType, factorStatus: "ENABLED" })),
      },
    };
    expect(stateOutcome(reply)).toMatchObject({ kind: "second-factor", factorType: "EMAIL", appToo: true, others: ["SMS"] });
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

describe("a login's passkey request", () => {
  const requestOptions = {
    challenge: "Y2hhbGxlbmdl",
    rpId: "localhost",
    timeout: 300000,
    userVerification: "preferred",
    allowCredentials: [
      { id: "cred-a", type: "public-key", transports: ["internal"] },
      { id: "cred-b", type: "public-key", transports: ["usb", "nfc"] },
    ],
    extensions: {},
  };
  const challenge = (factorType: string, optionsJson: string | null) => ({
    state: "MFA_CHALLENGE",
    stateToken: "mfa-state",
    mfaChallengeData: {
      factorType,
      verificationChallengeData: {
        hint: factorType === "WEBAUTHN" ? "your passkey" : "j•••@example.com",
        ...(optionsJson !== null && { webauthnData: { challengeId: "ch-1", publicKeyCredentialRequestOptionsJson: optionsJson } }),
      },
      availableFactors: ["EMAIL", "TOTP", "WEBAUTHN"].map((type) => ({ factorType: type, factorStatus: "ENABLED" })),
    },
  });
  const passkey = { challengeId: "ch-1", challenge: "Y2hhbGxlbmdl", credentialIds: ["cred-a", "cred-b"], userVerification: "preferred" };

  it("reads a challenge by the member's passkey, which sent nothing: the request, and the other ways offered", () => {
    expect(stateOutcome(challenge("WEBAUTHN", JSON.stringify(requestOptions)))).toEqual({
      kind: "second-factor",
      stateToken: "mfa-state",
      factorType: "WEBAUTHN",
      hint: "your passkey",
      appToo: true,
      others: ["EMAIL"],
      recoveryCodes: false,
      passkey,
    });
  });

  it("carries the passkey request with a challenge by another factor, whichever it is", () => {
    expect(stateOutcome(challenge("EMAIL", JSON.stringify(requestOptions)))).toMatchObject({ factorType: "EMAIL", appToo: true, others: [], passkey });
    expect(stateOutcome(challenge("EMAIL", null))).not.toHaveProperty("passkey");
  });

  it("keeps only what the browser's request needs, and builds it again for the page", () => {
    const outcome = stateOutcome(challenge("WEBAUTHN", JSON.stringify(requestOptions)));
    if (outcome.kind !== "second-factor" || !outcome.passkey) throw new Error("expected a passkey request");
    expect(passkeyRequestOptions(outcome.passkey)).toEqual({
      challenge: "Y2hhbGxlbmdl",
      allowCredentials: [
        { id: "cred-a", type: "public-key" },
        { id: "cred-b", type: "public-key" },
      ],
      userVerification: "preferred",
    });
  });

  it("cannot go on with a passkey challenge whose request is missing or not options a browser takes", () => {
    const unknown = { kind: "failed", reason: "unknown", fields: {} };
    expect(stateOutcome(challenge("WEBAUTHN", null))).toEqual(unknown);
    expect(stateOutcome(challenge("WEBAUTHN", "not json"))).toEqual(unknown);
    expect(stateOutcome(challenge("WEBAUTHN", JSON.stringify({ allowCredentials: [] })))).toEqual(unknown);
    // A code's challenge goes on without the request, the code still answers it.
    expect(stateOutcome(challenge("EMAIL", "not json"))).toMatchObject({ kind: "second-factor", factorType: "EMAIL" });
  });

  it("takes the browser's answer as JSON text, with the remember choice", () => {
    expect(passkeyAnswerSchema.parse({ credential: '{"id":"cred-a"}', rememberDevice: true })).toEqual({ credential: '{"id":"cred-a"}', rememberDevice: true });
    expect(passkeyAnswerSchema.safeParse({ credential: "" }).success).toBe(false);
    expect(passkeyAnswerSchema.safeParse({ credential: "x".repeat(16_001) }).success).toBe(false);
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
    for (const reason of ["invalidCode", "codeExpired", "tooManyAttempts"] as const) {
      expect(CODE_STEP_MESSAGES[reason]).toMatch(/code/);
      expect(APP_CODE_MESSAGES[reason]).toMatch(/code/);
    }
    // An app's code was never sent: its messages point at the app, not at a message.
    expect(APP_CODE_MESSAGES.invalidCode).toMatch(/your app shows now/);
    expect(APP_CODE_MESSAGES.tooManyAttempts).not.toMatch(/send you/);
    expect(RECOVERY_CODE_MESSAGES.invalidCode).toMatch(/recovery code .*already used/);
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
    expect(secondStepSchema.parse({ code: " 123 456 " })).toEqual({ way: "code", code: "123456" });
    for (const code of ["12345", "1234567", "12a456", ""]) expect(secondStepSchema.safeParse({ code }).success).toBe(false);
    expect(secondStepSchema.parse({ way: "app", appCode: "654321", rememberDevice: true })).toEqual({ way: "app", code: "654321", rememberDevice: true });
  });

  it("answers by the way whose field was filled in when Enter pressed the form's first button", () => {
    expect(secondStepSchema.parse({ way: "code", recoveryCode: "abcde-fghjk" })).toMatchObject({ way: "recovery", code: "abcde-fghjk" });
    expect(secondStepSchema.parse({ way: "code", code: "", appCode: "123456" })).toMatchObject({ way: "app" });
    // Nothing filled in: the pressed way's field says what it wants.
    expect(secondStepSchema.safeParse({ way: "recovery" }).error?.issues[0]).toMatchObject({
      path: ["recoveryCode"],
      message: "Enter one of your recovery codes.",
    });
  });

  it("takes a recovery code as written down, and new codes only with a password", () => {
    expect(secondStepSchema.parse({ way: "recovery", recoveryCode: "  abcde-fghjk " })).toEqual({ way: "recovery", code: "abcde-fghjk" });
    expect(secondStepSchema.safeParse({ way: "recovery", recoveryCode: " " }).success).toBe(false);
    expect(secondStepSchema.safeParse({ way: "recovery", recoveryCode: "x".repeat(21) }).success).toBe(false);
    expect(passwordProofSchema.safeParse({}).success).toBe(false);
    expect(passwordProofSchema.safeParse({ password: "" }).success).toBe(false);
    expect(passwordProofSchema.parse({ password: "granite" })).toEqual({ password: "granite" });
  });

  it("asks for the password to add or turn off a factor, but not to cancel an app being set up", () => {
    expect(smsFactorSchema.safeParse({ phone: "+447700900123" }).success).toBe(false);
    expect(removeFactorSchema.safeParse({ factorId: "f-1" }).success).toBe(false);
    expect(removeFactorSchema.parse({ factorId: "f-1", password: "granite" })).toEqual({ factorId: "f-1", password: "granite" });
    expect(cancelSetupSchema.parse({ factorId: "f-1" })).toEqual({ factorId: "f-1" });
  });

  it("turns an app on with its factor and a 6-digit code", () => {
    expect(appFactorCodeSchema.parse({ factorId: "f-1", code: "123 456" })).toEqual({ factorId: "f-1", code: "123456" });
    expect(appFactorCodeSchema.safeParse({ factorId: "f-1", code: "12345" }).success).toBe(false);
    expect(appFactorCodeSchema.safeParse({ factorId: "", code: "123456" }).success).toBe(false);
  });

  it("adds a passkey with a name and the password, and removes one only with the password", () => {
    expect(passkeyOptionsSchema.parse({ name: " Work laptop ", password: "granite", everyTime: true })).toEqual({
      name: "Work laptop",
      password: "granite",
      everyTime: true,
    });
    expect(passkeyOptionsSchema.parse({ name: "Phone", password: "granite" })).toMatchObject({ everyTime: false });
    expect(passkeyOptionsSchema.safeParse({ name: "Phone" }).success).toBe(false);
    expect(passkeyOptionsSchema.safeParse({ name: " ", password: "granite" }).success).toBe(false);
    expect(passkeyOptionsSchema.safeParse({ name: "x".repeat(61), password: "granite" }).success).toBe(false);
    expect(addPasskeySchema.safeParse({ challengeId: "ch-1", credential: "{}", name: "Phone" }).success).toBe(true);
    expect(addPasskeySchema.safeParse({ challengeId: "", credential: "{}", name: "Phone" }).success).toBe(false);
    expect(removePasskeySchema.safeParse({ passkeyId: "cred-a" }).success).toBe(false);
    expect(removePasskeySchema.parse({ passkeyId: "cred-a", password: "granite" })).toEqual({ passkeyId: "cred-a", password: "granite" });
  });

  it("takes a mobile number in international form and keeps its digits", () => {
    expect(smsFactorSchema.parse({ phone: "+44 (7700) 900-123", password: "granite" })).toEqual({ phone: "+447700900123", password: "granite" });
    const local = smsFactorSchema.safeParse({ phone: "07700 900123", password: "granite" });
    expect(local.success).toBe(false);
    expect(local.error?.issues[0].message).toContain("international form");
  });
});
