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
  verify: { perAddress: { points: 30, duration: 15 * MINUTE }, perAccount: { points: 10, duration: 15 * MINUTE } },
  /** "Resend code": as many as the platform mails codes to one identity (5 an hour), and a few addresses' worth per client. */
  resendCode: { perAddress: { points: 15, duration: 60 * MINUTE }, perAccount: { points: 5, duration: 60 * MINUTE } },
} as const;

export type AuthAction = keyof typeof AUTH_LIMITS;
type Scope = "perAddress" | "perAccount";

/** Allowed (after `delayMs`, when slowed), or refused for `retryAfterSeconds`. */
export type Verdict = { allowed: true; delayMs?: number } | { allowed: false; retryAfterSeconds: number };

type Store = {
  limiter(action: AuthAction, scope: Scope): RateLimiterAbstract | null;
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

/** Counts in this process only: with several instances each allows the full limit. */
function memoryStore(): Store {
  return {
    limiter: limiterPerScope((options) => new RateLimiterMemory(options)),
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
  return {
    limiter: limiterPerScope(
      (options, action, scope) =>
        new RateLimiterRedis({
          ...options,
          storeClient: client,
          useRedisPackage: true,
          rejectIfRedisNotReady: true,
          insuranceLimiter: fallback.limiter(action, scope) ?? undefined,
        }),
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

/** A fresh store of its own, for tests and benchmarks. */
export const createRateLimitStore = (redisUrl?: string): Store => (redisUrl ? redisStore(redisUrl) : memoryStore());
