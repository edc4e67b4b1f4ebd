import { RateLimiterMemory } from "rate-limiter-flexible";

/**
 * Failed logins per account (docs/platform/identity.md §3.6): the first few cost nothing, then
 * each further one waits a little longer, and past the limit the account refuses logins for a
 * while. A correct password clears the count. One process, so memory is the right store.
 */
export const FREE_FAILURES = 3;
export const MAX_FAILURES = 8;
export const LOCKOUT_SECONDS = 15 * 60;
const STEP_DELAY_MS = 250;

export type Throttle = {
  /** Milliseconds to wait before answering, or "locked" when logins are refused for now. */
  before(key: string): Promise<number | "locked">;
  failed(key: string): Promise<void>;
  succeeded(key: string): Promise<void>;
};

export function createLoginThrottle(options: { maxFailures?: number; lockoutSeconds?: number } = {}): Throttle {
  const maxFailures = options.maxFailures ?? MAX_FAILURES;
  const failures = new RateLimiterMemory({ points: maxFailures, duration: options.lockoutSeconds ?? LOCKOUT_SECONDS, blockDuration: options.lockoutSeconds ?? LOCKOUT_SECONDS });
  const keyOf = (email: string) => email.trim().toLowerCase();
  return {
    async before(email) {
      const state = await failures.get(keyOf(email));
      const count = state?.consumedPoints ?? 0;
      if (count >= maxFailures) return "locked";
      return Math.max(0, count - FREE_FAILURES + 1) * STEP_DELAY_MS;
    },
    async failed(email) {
      await failures.consume(keyOf(email)).catch(() => undefined);
    },
    async succeeded(email) {
      await failures.delete(keyOf(email));
    },
  };
}
