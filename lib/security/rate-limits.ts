import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getConfig } from "@/lib/config";
import { connectRedis } from "./redis";

/**
 * Limits on the auth actions, per client address and per account (the e-mail address), so
 * neither one machine nor a botnet aimed at one account can guess passwords or codes, fill
 * inboxes or make the site flood the platform (docs/operations.md). Address limits are loose,
 * since many people can share one address; account limits are tight. A successful login
 * clears its account's count, so only failures add up there.
 *
 * Code steps (an e-mail confirmation, a login's second step) are counted per step, not per
 * account: whoever holds a step's sealed cookie spends only that step's tries, so a stranger's
 * made-up sign-up for someone's address leaves the member's own login code alone
 * (lib/auth/code-steps.ts decides what each count means).
 *
 * Logins past their account limit are slowed, not refused: a refusal per account is a weapon
 * (anyone who knows an address could keep its owner out), while a growing wait costs a guesser
 * on that account and the owner only seconds; the platform then asks for a captcha as well.
 */
const MINUTE = 60;
/** Past a slowed limit each further attempt waits this much longer, up to the most. */
export const SLOW_STEP_MS = 500;
export const MAX_SLOW_MS = 5_000;
export const AUTH_LIMITS = {
  /** The site's own login form. */
  login: { perAddress: { points: 50, duration: 15 * MINUTE }, perAccount: { points: 5, duration: 15 * MINUTE, past: "slow" } },
  /** GET /api/auth/login: each one asks the platform for a redirect session. */
  hostedLogin: { perAddress: { points: 60, duration: 15 * MINUTE }, perAccount: null },
  register: { perAddress: { points: 20, duration: 60 * MINUTE }, perAccount: { points: 5, duration: 60 * MINUTE } },
  forgotPassword: { perAddress: { points: 20, duration: 60 * MINUTE }, perAccount: { points: 5, duration: 60 * MINUTE } },
  /** A code typed on a code step; per step, its tries are counted by `countStepTry`. */
  verify: { perAddress: { points: 30, duration: 15 * MINUTE }, perAccount: null },
  /** "Resend code": a few addresses' worth per client, a few an hour per address; per step, by `countStepTry`. */
  resendCode: { perAddress: { points: 15, duration: 60 * MINUTE }, perAccount: { points: 5, duration: 60 * MINUTE } },
  /** The account page's check of the current password: only the signed-in member (or whoever holds their session) spends it. */
  passwordCheck: { perAddress: { points: 30, duration: 15 * MINUTE }, perAccount: { points: 5, duration: 15 * MINUTE } },
} as const;

/** What a code step counts: codes typed, and new codes asked for; each kept as long as the step can live. */
export const STEP_COUNTS = { codeTries: 15 * MINUTE, newCodes: 60 * MINUTE } as const;
export type StepCount = keyof typeof STEP_COUNTS;

export type AuthAction = keyof typeof AUTH_LIMITS;
type Scope = "perAddress" | "perAccount";

/** Allowed (after `delayMs`, when slowed), or refused for `retryAfterSeconds`. */
export type Verdict = { allowed: true; delayMs?: number } | { allowed: false; retryAfterSeconds: number };

type Store = {
  limiter(action: AuthAction, scope: Scope): RateLimiterAbstract | null;
  /** A count with no limit of its own, for a code step's tries. */
  counter(kind: StepCount): RateLimiterAbstract;
  /** Settles once the store counts where it should (Redis connected), or has given up for now. */
  ready: Promise<void>;
  close(): Promise<void>;
};

type LimiterOptions = { keyPrefix: string; points: number; duration: number };

/** One limiter per action and scope, made on first use; null for a scope without a limit. */
function limiterPerScope(make: (options: LimiterOptions, action: AuthAction, scope: Scope) => RateLimiterAbstract): Store["limiter"] {
  const limiters = new Map<string, RateLimiterAbstract | null>();
  return (action, scope) => {
    const key = `${action}:${scope}`;
    if (!limiters.has(key)) {
      const limit = AUTH_LIMITS[action][scope];
      limiters.set(key, limit ? make({ keyPrefix: `auth:${action}:${scope}`, points: limit.points, duration: limit.duration }, action, scope) : null);
    }
    return limiters.get(key)!;
  };
}

/** A count that never refuses: what it means is decided by its reader. */
const counterOptions = (kind: StepCount): LimiterOptions => ({ keyPrefix: `auth:step:${kind}`, points: Number.MAX_SAFE_INTEGER, duration: STEP_COUNTS[kind] });

/** One counter per kind, made on first use. */
function counterPerKind(make: (options: LimiterOptions, kind: StepCount) => RateLimiterAbstract): Store["counter"] {
  const counters = new Map<StepCount, RateLimiterAbstract>();
  return (kind) => {
    if (!counters.has(kind)) counters.set(kind, make(counterOptions(kind), kind));
    return counters.get(kind)!;
  };
}

/** Counts in this process only: with several instances each allows the full limit. */
function memoryStore(): Store {
  return {
    limiter: limiterPerScope((options) => new RateLimiterMemory(options)),
    counter: counterPerKind((options) => new RateLimiterMemory(options)),
    ready: Promise.resolve(),
    close: async () => {},
  };
}

/**
 * Counts in Redis, shared by every instance. While Redis is unreachable each instance falls
 * back to counting in memory, so an outage neither locks everyone out nor lifts the limits.
 */
function redisStore(url: string): Store {
  const { client, ready } = connectRedis(url, "rate limit");
  const fallback = memoryStore();
  const redisOptions = { storeClient: client, useRedisPackage: true, rejectIfRedisNotReady: true };
  return {
    counter: counterPerKind((options, kind) => new RateLimiterRedis({ ...options, ...redisOptions, insuranceLimiter: fallback.counter(kind) })),
    limiter: limiterPerScope(
      (options, action, scope) => new RateLimiterRedis({ ...options, ...redisOptions, insuranceLimiter: fallback.limiter(action, scope) ?? undefined }),
    ),
    ready,
    close: async () => {
      if (client.isOpen) await client.close();
    },
  };
}

const STORE = Symbol.for("ridgeline.auth-rate-limits");

/** One store per process, whichever bundle asks (server actions and route handlers are bundled apart). */
function store(): Store {
  const global = globalThis as typeof globalThis & { [STORE]?: Store };
  if (!global[STORE]) {
    const { redisUrl } = getConfig();
    global[STORE] = redisUrl ? redisStore(redisUrl) : memoryStore();
  }
  return global[STORE];
}

/** Accounts are e-mail addresses: `Dana@Example.com ` and `dana@example.com` are one account. */
const accountKey = (account: string) => account.trim().toLowerCase();

/** Over a limit: how long to wait, or by how many attempts it is exceeded (for a slowed limit). */
async function consume(limiter: RateLimiterAbstract | null, key: string): Promise<RateLimiterRes | null> {
  if (!limiter) return null;
  try {
    await limiter.consume(key);
    return null;
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return refusal;
    throw refusal;
  }
}

const secondsOf = (over: RateLimiterRes | null) => (over ? Math.max(1, Math.ceil(over.msBeforeNext / 1000)) : 0);

/**
 * Counts one attempt at an auth action and says whether it may go ahead. Both counts move
 * whatever the outcome, so an attacker cannot probe one limit while hiding behind the other.
 */
export async function attemptAuthAction(action: AuthAction, who: { address: string; account?: string }, limits: Store = store()): Promise<Verdict> {
  const [address, account] = await Promise.all([
    consume(limits.limiter(action, "perAddress"), who.address),
    who.account === undefined ? null : consume(limits.limiter(action, "perAccount"), accountKey(who.account)),
  ]);
  const accountLimit = AUTH_LIMITS[action].perAccount;
  const slowed = accountLimit !== null && "past" in accountLimit;
  const wait = Math.max(secondsOf(address), slowed ? 0 : secondsOf(account));
  if (wait > 0) return { allowed: false, retryAfterSeconds: wait };
  if (slowed && account) return { allowed: true, delayMs: Math.min(MAX_SLOW_MS, (account.consumedPoints - accountLimit.points) * SLOW_STEP_MS) };
  return { allowed: true };
}

/** After a successful login: the account's failures are forgiven. */
export async function forgetAccountFailures(action: AuthAction, account: string, limits: Store = store()): Promise<void> {
  await limits.limiter(action, "perAccount")?.delete(accountKey(account));
}

/**
 * Counts one more of a code step's tries or new codes (the step named by a digest of its state
 * token) and answers how many it has had, this one included, and when the first is forgotten.
 */
export async function countStepTry(kind: StepCount, step: string, limits: Store = store()): Promise<{ count: number; retryAfterSeconds: number }> {
  const counted = await limits.counter(kind).consume(step);
  return { count: counted.consumedPoints, retryAfterSeconds: Math.max(1, Math.ceil(counted.msBeforeNext / 1000)) };
}

/** How many of a code step's tries or new codes there have been, without counting one. */
export async function stepTries(kind: StepCount, step: string, limits: Store = store()): Promise<number> {
  return (await limits.counter(kind).get(step))?.consumedPoints ?? 0;
}

/** A step's count starts again (its tries, once a new code replaces the one they were for). */
export async function forgetStepTries(kind: StepCount, step: string, limits: Store = store()): Promise<void> {
  await limits.counter(kind).delete(step);
}

/** A fresh store of its own, for tests and benchmarks. */
export const createRateLimitStore = (redisUrl?: string): Store => (redisUrl ? redisStore(redisUrl) : memoryStore());
