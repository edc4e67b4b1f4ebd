import { MAILS_PER_HOUR } from "./throttle";
import { MAX_VERIFICATION_ATTEMPTS, VERIFICATION_TTL_MS, type CheckResult } from "./verifications";

/**
 * The code step a hosted sign-up with an address that already has an account leads to, when
 * e-mail verification is required (docs/platform/identity.md §1.11). There is no identity to
 * verify and no code was sent (the owner was mailed instead), so no code opens it; but wrong
 * codes and "Resend code" follow the rules of a real verification (`verifications.ts`, and the
 * hourly limit of code mails in `throttle.ts`) step for step, so the page cannot tell the two
 * apart. It is kept with the page's other state, per sign-up, so a stranger's tries never
 * spend the existing member's own limits.
 */
export type DecoyVerification = {
  /** Wrong codes since the last code "sent". */
  attempts: number;
  expiresAt: number;
  /** When each code "mail" went, for the hourly limit: the first with the sign-up itself. */
  sentAt: number[];
};

const HOUR_MS = 60 * 60 * 1000;

export function startDecoy(now: number): DecoyVerification {
  return { attempts: 0, expiresAt: now + VERIFICATION_TTL_MS, sentAt: [now] };
}

/** A code tried against the stand-in: what `VerificationStore.check` answers for a wrong one, never a success. */
export function tryDecoyCode(decoy: DecoyVerification, now: number): { decoy: DecoyVerification; result: Exclude<CheckResult, object> } {
  if (decoy.expiresAt <= now) return { decoy, result: "unknown" };
  if (decoy.attempts >= MAX_VERIFICATION_ATTEMPTS) return { decoy, result: "too-many" };
  const attempts = decoy.attempts + 1;
  return { decoy: { ...decoy, attempts }, result: attempts >= MAX_VERIFICATION_ATTEMPTS ? "too-many" : "wrong-code" };
}

/** No new code for this long: the hour's code mails are used up. */
export type Throttled = { throttledForSeconds: number | undefined };

/**
 * "Resend code" for the stand-in, as `IdentityService.resendVerification` answers it: refused
 * when the verification is over (expired, or its wrong codes used up), then when the hour's
 * codes are; else a fresh code's attempts and lifetime.
 */
export function resendDecoy(decoy: DecoyVerification, now: number): DecoyVerification | "expired" | Throttled {
  if (decoy.expiresAt <= now || decoy.attempts >= MAX_VERIFICATION_ATTEMPTS) return "expired";
  const recent = decoy.sentAt.filter((at) => at > now - HOUR_MS);
  // As the hour's limit on code mails says it: until the oldest code of the hour is an hour old.
  if (recent.length >= MAILS_PER_HOUR) return { throttledForSeconds: Math.max(1, Math.ceil((recent[recent.length - MAILS_PER_HOUR] + HOUR_MS - now) / 1000)) };
  return { attempts: 0, expiresAt: now + VERIFICATION_TTL_MS, sentAt: [...recent, now] };
}
