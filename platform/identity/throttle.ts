import { RateLimiterMemory } from "rate-limiter-flexible";

/**
 * Failed logins per account (docs/platform/identity.md §3.6): the first few cost nothing, then
 * each further one waits a little longer, and past the limit a login needs a captcha answer as
 * well as the password. Never a lock: anyone who knows an address could otherwise keep its owner
 * out. A correct password clears the count. One process, so memory is the right store.
 */
export const FREE_FAILURES = 3;
export const MAX_FAILURES = 8;
export const FAILURE_WINDOW_SECONDS = 15 * 60;
const STEP_DELAY_MS = 250;
/** The longest wait, so an owner past the limit still gets an answer in seconds. */
export const MAX_DELAY_MS = 2_000;

export type Throttle = {
  /** Milliseconds to wait before answering, and whether a captcha answer is required now. */
  before(key: string): Promise<{ delayMs: number; captcha: boolean }>;
  failed(key: string): Promise<void>;
  succeeded(key: string): Promise<void>;
};

export function createLoginThrottle(options: { maxFailures?: number; windowSeconds?: number } = {}): Throttle {
  const maxFailures = options.maxFailures ?? MAX_FAILURES;
  // Far more points than the limit: the count goes on past it, and nothing is ever blocked.
  const failures = new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: options.windowSeconds ?? FAILURE_WINDOW_SECONDS });
  const keyOf = (email: string) => email.trim().toLowerCase();
  return {
    async before(email) {
      const count = (await failures.get(keyOf(email)))?.consumedPoints ?? 0;
      return { delayMs: Math.min(MAX_DELAY_MS, Math.max(0, count - FREE_FAILURES + 1) * STEP_DELAY_MS), captcha: count >= maxFailures };
    },
    async failed(email) {
      await failures.consume(keyOf(email)).catch(() => undefined);
    },
    async succeeded(email) {
      await failures.delete(keyOf(email));
    },
  };
}

/** Mails of one kind an identity may be sent per hour (verification codes, sign-up notices). */
export const MAILS_PER_HOUR = 5;

/**
 * A sliding-window count of mails per identity and kind, so repeated logins or sign-ups cannot
 * flood an inbox. Synchronous: it is asked from inside the identity flow's synchronous steps.
 */
export class MailLimit {
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly perHour = MAILS_PER_HOUR,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a mail and says whether it may go. */
  allow(key: string): boolean {
    const since = this.now() - 60 * 60 * 1000;
    const recent = (this.sent.get(key) ?? []).filter((at) => at > since);
    if (recent.length >= this.perHour) {
      this.sent.set(key, recent);
      return false;
    }
    recent.push(this.now());
    this.sent.set(key, recent);
    return true;
  }
}
