import { describe, expect, it } from "vitest";
import { toAuthOutcome } from "@/lib/wix/identity";

/** The SDK's FAILURE results carry the platform's error as a JSON string (its `e.message`). */
const failure = (errorCode: string | undefined, details: object = {}) => ({
  loginState: "FAILURE",
  errorCode,
  error: JSON.stringify({ message: "refused", details }, null, 2),
});

describe("auth outcomes from the SDK's results", () => {
  it("maps the three platform states", () => {
    expect(toAuthOutcome({ loginState: "SUCCESS", data: { sessionToken: "st" } })).toEqual({ kind: "signed-in", sessionToken: "st" });
    expect(toAuthOutcome({ loginState: "EMAIL_VERIFICATION_REQUIRED", data: { stateToken: "state" } })).toEqual({ kind: "verify-email", stateToken: "state" });
    expect(toAuthOutcome({ loginState: "OWNER_APPROVAL_REQUIRED" })).toEqual({ kind: "awaiting-approval" });
  });

  it.each(["invalidEmail", "invalidPassword", "resetPassword", "emailAlreadyExists", "missingCaptchaToken", "invalidCaptchaToken"])(
    "keeps the SDK's code %s as the reason",
    (code) => expect(toAuthOutcome(failure(code, { applicationError: { code: "-1" } }))).toEqual({ kind: "failed", reason: code, fields: {} }),
  );

  it("carries an e-mail violation's own words on registration", () => {
    expect(toAuthOutcome({ loginState: "FAILURE", errorCode: "invalidEmail", error: "Email must be a valid address" })).toEqual({
      kind: "failed",
      reason: "invalidEmail",
      fields: { email: "Email must be a valid address" },
    });
  });

  it("turns field violations into field errors", () => {
    const outcome = toAuthOutcome(
      failure(undefined, {
        validationError: {
          fieldViolations: [
            { field: "options.password", description: "Use at least 8 characters." },
            { field: "options.profile.nickname", description: "Too long." },
          ],
        },
      }),
    );
    expect(outcome).toEqual({ kind: "failed", reason: "invalidField", fields: { password: "Use at least 8 characters.", nickname: "Too long." } });
  });

  it("recognises too many attempts and a wrong verification code from the platform's codes", () => {
    expect(toAuthOutcome(failure("invalidEmail", { applicationError: { code: 429 } }))).toMatchObject({ reason: "tooManyAttempts" });
    expect(toAuthOutcome(failure(undefined, { applicationError: { code: "VERIFICATION_FAILED" } }))).toMatchObject({ reason: "invalidCode" });
  });

  it("reads anything else as an unknown failure, never as success", () => {
    for (const odd of [null, "SUCCESS", { loginState: "SUCCESS" }, { loginState: "USER_CAPTCHA_REQUIRED" }, failure("somethingNew")]) {
      expect(toAuthOutcome(odd)).toMatchObject({ kind: "failed", reason: "unknown" });
    }
  });
});
