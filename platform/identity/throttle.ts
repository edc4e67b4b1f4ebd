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
  /**
   * Milliseconds to wait before answering, whether a captcha answer is required now, and the
   * seconds until the failures counted so far are forgotten (0 with none).
   */
  before(key: string): Promise<{ delayMs: number; captcha: boolean; retryAfterSeconds: number }>;
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
      const counted = await failures.get(keyOf(email));
      const count = counted?.consumedPoints ?? 0;
      return {
        delayMs: Math.min(MAX_DELAY_MS, Math.max(0, count - FREE_FAILURES + 1) * STEP_DELAY_MS),
        captcha: count >= maxFailures,
        retryAfterSeconds: counted ? Math.max(1, Math.ceil(counted.msBeforeNext / 1000)) : 0,
      };
    },
    async failed(email) {
      await failures.consume(keyOf(email)).catch(() => undefined);
    },
    async succeeded(email) {
      await failures.delete(keyOf(email));
    },
  };
}

/**
 * Wrong proofs of who the member is (re-checks of the password, and the password or app code that
 * factor changes ask for) one login session may give in PROOF_WINDOW_MS. Only a holder of that
 * session's token spends them: a stolen token guesses a few times and stops, a stranger's wrong
 * logins spend none, and the owner's other sessions keep their own.
 */
export const PROOFS_PER_SESSION = 5;
export const PROOF_WINDOW_MS = FAILURE_WINDOW_SECONDS * 1000;

/**
 * Failed logins one client address may make in a window, on any accounts; past that, logins from
 * it are refused, the right password too, until the window ends. It locks only whoever sends from
 * that address: the per-account count above never locks anyone.
 */
export const FAILURES_PER_ADDRESS = 20;

export type AddressLimit = {
  /** Seconds until this address may try again: 0 while it may. */
  refusedFor(address: string): Promise<number>;
  failed(address: string): Promise<void>;
};

export function createAddressLimit(options: { limit?: number; windowSeconds?: number } = {}): AddressLimit {
  const limit = options.limit ?? FAILURES_PER_ADDRESS;
  const failures = new RateLimiterMemory({ points: limit, duration: options.windowSeconds ?? FAILURE_WINDOW_SECONDS });
  // `::ffff:203.0.113.7` and `203.0.113.7` are one client.
  const keyOf = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").toLowerCase();
  return {
    async refusedFor(address) {
      const counted = await failures.get(keyOf(address));
      return counted && counted.consumedPoints >= limit ? Math.max(1, Math.ceil(counted.msBeforeNext / 1000)) : 0;
    },
    async failed(address) {
      await failures.consume(keyOf(address)).catch(() => undefined);
    },
  };
}

/** Mails of one kind an identity may be sent per hour (verification codes, sign-up notices). */
export const MAILS_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;
/**
 * Wrong second-step codes one identity may be given in a day. Whoever enters them has the password,
 * so past this no further login code is sent or checked until the day's window frees up or the
 * password changes, and the member is told by mail (docs/security.md).
 */
export const WRONG_CODES_PER_DAY = 20;

/**
 * A sliding-window count per key: mails of one kind per identity, so repeated logins or sign-ups
 * cannot flood an inbox, and wrong login codes per identity over a day. Synchronous: it is asked
 * from inside the identity flow's synchronous steps. One process, so memory is the right store.
 */
export class WindowLimit {
  private readonly seen = new Map<string, number[]>();

  constructor(
    private readonly limit = MAILS_PER_HOUR,
    private readonly now: () => number = Date.now,
    private readonly windowMs = HOUR_MS,
  ) {}

  /** Counts one and says whether it may go; a refused one is not counted. */
  allow(key: string): boolean {
    if (this.reached(key)) return false;
    this.add(key);
    return true;
  }

  /** Counts one whatever the limit; says whether this one reached it (true once per window). */
  add(key: string): boolean {
    const recent = this.recent(key);
    recent.push(this.now());
    return recent.length === this.limit;
  }

  reached(key: string): boolean {
    return this.recent(key).length >= this.limit;
  }

  /** How long until one more is allowed, in whole seconds (0: now): the truth a refusal tells. */
  waitSeconds(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limit] + this.windowMs - this.now()) / 1000));
  }

  /** Gives the latest one back: a code that did its job (a login finished) costs nothing. */
  refund(key: string): void {
    this.seen.set(key, this.recent(key).slice(0, -1));
  }

  clear(key: string): void {
    this.seen.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const recent = (this.seen.get(key) ?? []).filter((at) => at > since);
    this.seen.set(key, recent);
    return recent;
  }
}
