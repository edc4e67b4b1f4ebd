import { describe, expect, it } from "vitest";
import { CODE_TRIES_PER_STEP, NEW_CODES_PER_STEP, codeTryOutcome, mayTryCode, newCodeVerdict, stepKey } from "@/lib/auth/code-steps";
import type { AuthOutcome } from "@/lib/wix/identity";
import { MAILS_PER_HOUR } from "@/platform/identity/throttle";
import { MAX_VERIFICATION_ATTEMPTS } from "@/platform/identity/verifications";

const wrong: AuthOutcome = { kind: "failed", reason: "invalidCode", fields: {} };
const usedUp: AuthOutcome = { kind: "failed", reason: "tooManyAttempts", fields: {} };

/** What the person reads for tries 1, 2, … of a step, given what the platform answers each one (null: not asked). */
function answers(platform: (tries: number) => AuthOutcome) {
  return Array.from({ length: CODE_TRIES_PER_STEP + 3 }, (_, index) => {
    const tries = index + 1;
    return codeTryOutcome(tries, mayTryCode(tries) ? platform(tries) : null);
  });
}

describe("a code step's own limits", () => {
  it("are no looser than the platform's, so they are the ones a person meets", () => {
    expect(CODE_TRIES_PER_STEP).toBeLessThanOrEqual(MAX_VERIFICATION_ATTEMPTS);
    expect(1 + NEW_CODES_PER_STEP).toBeLessThanOrEqual(MAILS_PER_HOUR);
  });

  it("answer the sign-up decoy's wrong codes as a real pending sign-up's, try for try", () => {
    // The platform knows no decoy: every code is wrong. A real step's last wrong try uses the code up.
    const decoy = answers(() => wrong);
    const real = answers((tries) => (tries < MAX_VERIFICATION_ATTEMPTS ? wrong : usedUp));
    expect(decoy).toEqual(real);
    expect(decoy).toEqual([...Array(CODE_TRIES_PER_STEP - 1).fill(wrong), ...Array(4).fill(usedUp)]);
  });

  it("let a right code through while the step has tries", () => {
    const signedIn: AuthOutcome = { kind: "signed-in", sessionToken: "st" };
    expect(codeTryOutcome(CODE_TRIES_PER_STEP, signedIn)).toEqual(signedIn);
    expect(codeTryOutcome(CODE_TRIES_PER_STEP + 1, signedIn)).toEqual(usedUp);
  });

  it("send new codes up to the step's limit, then say for how long none; none at all for a used-up step", () => {
    const verdicts = Array.from({ length: NEW_CODES_PER_STEP + 2 }, (_, index) => newCodeVerdict(0, { count: index + 1, retryAfterSeconds: 3000 }));
    expect(verdicts).toEqual([...Array(NEW_CODES_PER_STEP).fill("send"), { waitSeconds: 3000 }, { waitSeconds: 3000 }]);
    expect(newCodeVerdict(CODE_TRIES_PER_STEP, { count: 1, retryAfterSeconds: 3600 })).toBe("expired");
  });

  it("name a step by a digest that does not carry its state token", () => {
    expect(stepKey("VST-secret")).toBe(stepKey("VST-secret"));
    expect(stepKey("VST-secret")).not.toContain("secret");
    expect(stepKey("VST-secret")).not.toBe(stepKey("VST-other"));
  });
});
