import { describe, expect, it } from "vitest";
import { openPlatformDatabase } from "../db";
import { PlatformError } from "../http/errors";
import { Outbox } from "../mail/outbox";
import { FactorStore } from "./factors";
import { IdentityService } from "./iam";
import { resendDecoy, startDecoy, tryDecoyCode, type DecoyVerification, type Throttled } from "./signup-decoy";

/** A resend's outcome as the tests compare it: a refusal with its wait. */
const described = (outcome: DecoyVerification | "expired" | Throttled) =>
  typeof outcome === "string" ? outcome : "throttledForSeconds" in outcome ? `throttled for ${outcome.throttledForSeconds} s` : "sent";
import { IdentityStore } from "./store";
import { WindowLimit } from "./throttle";
import { VerificationStore } from "./verifications";

const MINUTE = 60 * 1000;

describe("the stand-in verification of a taken address", () => {
  it("answers five wrong codes as a real verification does, then none at all", () => {
    let decoy = startDecoy(0);
    const results = [];
    for (let i = 0; i < 6; i++) {
      const tried = tryDecoyCode(decoy, i * MINUTE);
      decoy = tried.decoy;
      results.push(tried.result);
    }
    expect(results).toEqual(["wrong-code", "wrong-code", "wrong-code", "wrong-code", "too-many", "too-many"]);
    expect(resendDecoy(decoy, 6 * MINUTE)).toBe("expired");
  });

  it("ends after 15 minutes, unless a new code was asked for, which starts the 15 minutes and the attempts again", () => {
    const decoy = startDecoy(0);
    expect(tryDecoyCode(decoy, 15 * MINUTE).result).toBe("unknown");
    expect(resendDecoy(decoy, 15 * MINUTE)).toBe("expired");
    const tried = tryDecoyCode(tryDecoyCode(decoy, MINUTE).decoy, 2 * MINUTE).decoy;
    const renewed = resendDecoy(tried, 14 * MINUTE) as DecoyVerification;
    expect(renewed).toMatchObject({ attempts: 0, expiresAt: 29 * MINUTE });
    expect(tryDecoyCode(renewed, 28 * MINUTE).result).toBe("wrong-code");
  });

  it("sends at most five codes an hour, the sign-up's own included", () => {
    let decoy = startDecoy(0);
    const outcomes = [];
    for (let i = 1; i <= 5; i++) {
      const outcome = resendDecoy(decoy, i * MINUTE);
      outcomes.push(described(outcome));
      if (typeof outcome !== "string" && !("throttledForSeconds" in outcome)) decoy = outcome;
    }
    // The fifth is refused until the sign-up's own code (sent at 0) is an hour old: 55 minutes on.
    expect(outcomes).toEqual(["sent", "sent", "sent", "sent", `throttled for ${55 * 60} s`]);
    // Refused, the code already sent still counts.
    expect(tryDecoyCode(decoy, 6 * MINUTE).result).toBe("wrong-code");
  });

  /**
   * Runs the same steps (a wrong code, "Resend code", or a wait of so many milliseconds) against a
   * real verification (the identity service and its stores, on one clock) and against the
   * stand-in, and answers what each said at every step.
   */
  function bothRun(steps: Array<"code" | "resend" | number>) {
    let now = 0;
    const clock = () => now;
    const db = openPlatformDatabase({ dataDir: "", inMemory: true });
    const identities = new IdentityStore(db, clock);
    const verifications = new VerificationStore(db, clock);
    const outbox = new Outbox(db, clock);
    const stores = { identities, verifications, outbox, mailLimit: new WindowLimit(undefined, clock), factors: new FactorStore(db, clock) };
    const service = new IdentityService(stores as unknown as ConstructorParameters<typeof IdentityService>[0]);
    const identity = identities.create({ email: "real@ridgeline.example", passwordHash: "x", nickname: "Real", status: "APPROVED" })!;
    const stateToken = service.sendVerification(identity);
    let decoy = startDecoy(now);
    const real: string[] = [];
    const stand: string[] = [];
    for (const step of steps) {
      if (typeof step === "number") {
        now += step;
      } else if (step === "code") {
        const code = outbox.list(identity.loginEmail)[0].code === "000000" ? "111111" : "000000";
        real.push(`code:${verifications.check(stateToken, code, "email") as string}`);
        const tried = tryDecoyCode(decoy, now);
        decoy = tried.decoy;
        stand.push(`code:${tried.result}`);
      } else {
        try {
          service.resendVerification(stateToken);
          real.push("resend:sent");
        } catch (error) {
          const refusal = error as PlatformError;
          real.push(`resend:${refusal.code === "THROTTLED_FEATURE" ? `throttled for ${refusal.data.retryAfterSeconds} s` : "expired"}`);
        }
        const outcome = resendDecoy(decoy, now);
        if (typeof outcome !== "string" && !("throttledForSeconds" in outcome)) decoy = outcome;
        stand.push(`resend:${described(outcome)}`);
      }
    }
    db.close();
    return { real, stand };
  }

  it("keeps a real verification's hour and 15 minutes to the millisecond", () => {
    // Codes "sent" at 0, 14, 28, 42 and 55 minutes: the hour's fifth is refused at 58, and one may go again at 60, when the first leaves the hour.
    const minutes = (count: number) => count * MINUTE;
    const { real, stand } = bothRun([
      ...[minutes(14), "resend", minutes(14), "resend", minutes(14), "resend", minutes(13), "resend"],
      ...[minutes(3), "resend", minutes(2), "resend", "code", minutes(15), "code", "resend"],
    ] as Array<"code" | "resend" | number>);
    expect(real).toEqual([
      "resend:sent",
      "resend:sent",
      "resend:sent",
      "resend:sent",
      `resend:throttled for ${2 * 60} s`,
      "resend:sent",
      "code:wrong-code",
      "code:unknown",
      "resend:expired",
    ]);
    expect(stand).toEqual(real);
  });

  it("cannot be told from a real verification by any run of wrong codes, resends and waits", () => {
    // A seeded generator, so a failure can be replayed.
    let seed = 27;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      const steps = Array.from({ length: 40 }, () => {
        const choice = random();
        return choice < 0.3 ? "code" : choice < 0.6 ? "resend" : Math.floor(random() * 16 * MINUTE);
      });
      const { real, stand } = bothRun(steps);
      expect(stand, `run ${run}`).toEqual(real);
    }
  });
});
