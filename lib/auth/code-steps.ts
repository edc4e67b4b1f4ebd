import { createHash } from "node:crypto";
import type { AuthOutcome } from "@/lib/wix/identity";

/**
 * A code step's own limits (an e-mail confirmation, a login's second step), which the site keeps
 * for the step in the sealed cookie. They are no looser than the platform's (5 tries per code;
 * 5 code mails an hour per identity, the first included), so they are the limits a person meets,
 * and the sign-up decoy for a taken address, whose made-up step the platform does not know,
 * answers as a real pending sign-up does: try for try, message for message (docs/security.md).
 */
export const CODE_TRIES_PER_STEP = 5;
/** New codes a step may ask for: with the first code, as many as the platform mails in an hour. */
export const NEW_CODES_PER_STEP = 4;

/** A step's name in the counts: a digest of its state token, so the token itself is stored nowhere else. */
export const stepKey = (stateToken: string) => createHash("sha256").update(stateToken).digest("base64url");

/** The step's code no longer works: not a wait, as the platform's answer to its last wrong try is not one. */
const USED_UP: AuthOutcome = { kind: "failed", reason: "tooManyAttempts", fields: {} };

/** Whether a code try (counted, this one included) may still be put to the platform; past the tries it gets the last one's answer. */
export const mayTryCode = (tries: number) => tries <= CODE_TRIES_PER_STEP;

/**
 * What a code try comes to: the platform's answer (null: not asked, past the step's tries),
 * except that the step's last wrong try, or any try past it, uses the step up.
 */
export function codeTryOutcome(tries: number, outcome: AuthOutcome | null): AuthOutcome {
  if (tries > CODE_TRIES_PER_STEP || !outcome) return USED_UP;
  const wrong = outcome.kind === "failed" && outcome.reason === "invalidCode";
  return tries === CODE_TRIES_PER_STEP && wrong ? USED_UP : outcome;
}

/**
 * "Resend code": a used-up step gets none (it has expired, as the platform answers a verification
 * past its wrong codes), and past the step's new codes none for now; else the code may be asked for.
 */
export function newCodeVerdict(tries: number, newCodes: { count: number; retryAfterSeconds: number }): "send" | "expired" | { waitSeconds: number } {
  if (tries >= CODE_TRIES_PER_STEP) return "expired";
  return newCodes.count > NEW_CODES_PER_STEP ? { waitSeconds: newCodes.retryAfterSeconds } : "send";
}
