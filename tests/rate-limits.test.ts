import { describe, expect, it } from "vitest";
import { tooManyAttemptsMessage, waitInWords } from "@/lib/auth/forms";
import { UNKNOWN_ADDRESS, resolveClientAddress } from "@/lib/security/client-address";
import {
  AUTH_LIMITS,
  MAX_SLOW_MS,
  SLOW_STEP_MS,
  attemptAuthAction,
  countStepTry,
  createRateLimitStore,
  forgetAccountFailures,
  forgetStepTries,
  stepTries,
} from "@/lib/security/rate-limits";
import { freePort, useRedisServer } from "./support/redis-server";

const headers = (values: Record<string, string>) => new Headers(values);

describe("the client address", () => {
  it("is the socket's address unless a proxy header is configured: any client can write X-Forwarded-For", () => {
    expect(resolveClientAddress(headers({ "x-forwarded-for": "198.51.100.1" }), null, "203.0.113.5")).toBe("203.0.113.5");
    expect(resolveClientAddress(headers({}), null, "::ffff:203.0.113.5")).toBe("203.0.113.5");
    expect(resolveClientAddress(headers({}), null, null)).toBe(UNKNOWN_ADDRESS);
  });

  it("behind a configured proxy, is what the nearest proxies appended, not what the client wrote further left", () => {
    const forwardedFor = headers({ "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.2" });
    expect(resolveClientAddress(forwardedFor, { header: "x-forwarded-for", hops: 1 }, "10.0.0.9")).toBe("10.0.0.2");
    expect(resolveClientAddress(forwardedFor, { header: "x-forwarded-for", hops: 2 }, "10.0.0.9")).toBe("198.51.100.7");
    // More hops configured than entries: the leftmost is the best there is.
    expect(resolveClientAddress(headers({ "x-forwarded-for": "198.51.100.7" }), { header: "x-forwarded-for", hops: 3 }, "10.0.0.9")).toBe("198.51.100.7");
    expect(resolveClientAddress(headers({ "x-real-ip": " 2001:DB8::1 " }), { header: "x-real-ip", hops: 1 }, "10.0.0.9")).toBe("2001:db8::1");
    // The proxy did not set it (a health check from inside): the socket.
    expect(resolveClientAddress(headers({}), { header: "x-real-ip", hops: 1 }, "10.0.0.9")).toBe("10.0.0.9");
  });
});

describe("the wait message", () => {
  it("says how long to wait in seconds or whole minutes", () => {
    expect(waitInWords(1)).toBe("1 second");
    expect(waitInWords(45)).toBe("45 seconds");
    expect(waitInWords(60)).toBe("1 minute");
    expect(waitInWords(61)).toBe("2 minutes");
    expect(waitInWords(89 * 60)).toBe("89 minutes");
    expect(waitInWords(2 * 3600)).toBe("2 hours");
    expect(waitInWords(86_399)).toBe("24 hours");
    expect(tooManyAttemptsMessage(900)).toBe("Too many attempts. Please wait 15 minutes, then try again.");
  });
});

describe("auth rate limits in memory", () => {
  it("refuse an account after its limit, from any address, and say how long to wait", async () => {
    const store = createRateLimitStore();
    const { points, duration } = AUTH_LIMITS.register.perAccount;
    for (let i = 0; i < points; i++)
      expect(await attemptAuthAction("register", { address: `198.51.100.${i}`, account: "dana@example.com" }, store)).toEqual({ allowed: true });
    const refused = await attemptAuthAction("register", { address: "203.0.113.99", account: " Dana@Example.com " }, store);
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(duration - 5);
    // Another account is not affected.
    expect(await attemptAuthAction("register", { address: "203.0.113.99", account: "rowan@example.com" }, store)).toEqual({ allowed: true });
  });

  it("slow logins to an account past its limit, more with each attempt up to a bound, and never refuse its owner", async () => {
    const store = createRateLimitStore();
    const { points } = AUTH_LIMITS.login.perAccount;
    for (let i = 0; i < points; i++)
      expect(await attemptAuthAction("login", { address: `198.51.100.${i}`, account: "dana@example.com" }, store)).toEqual({ allowed: true });
    const delays: number[] = [];
    for (let i = 0; i < 30; i++) {
      const verdict = await attemptAuthAction("login", { address: `203.0.113.${i}`, account: " Dana@Example.com " }, store);
      expect(verdict.allowed).toBe(true);
      if (verdict.allowed) delays.push(verdict.delayMs ?? 0);
    }
    expect(delays.slice(0, 3)).toEqual([SLOW_STEP_MS, 2 * SLOW_STEP_MS, 3 * SLOW_STEP_MS]);
    expect(Math.max(...delays)).toBe(MAX_SLOW_MS);
    // Another account is not slowed.
    expect(await attemptAuthAction("login", { address: "203.0.113.99", account: "rowan@example.com" }, store)).toEqual({ allowed: true });
  });

  it("refuse an address after its limit, whichever accounts it tries", async () => {
    const store = createRateLimitStore();
    const { points } = AUTH_LIMITS.register.perAddress;
    for (let i = 0; i < points; i++)
      expect((await attemptAuthAction("register", { address: "203.0.113.7", account: `new${i}@example.com` }, store)).allowed).toBe(true);
    expect((await attemptAuthAction("register", { address: "203.0.113.7", account: "another@example.com" }, store)).allowed).toBe(false);
    expect((await attemptAuthAction("register", { address: "203.0.113.8", account: "another@example.com" }, store)).allowed).toBe(true);
  });

  it("forgive an account's failures after a successful login", async () => {
    const store = createRateLimitStore();
    const { points } = AUTH_LIMITS.login.perAccount;
    for (let i = 0; i < points + 3; i++) await attemptAuthAction("login", { address: `198.51.100.${i}`, account: "dana@example.com" }, store);
    await forgetAccountFailures("login", "DANA@example.com", store);
    expect(await attemptAuthAction("login", { address: "198.51.100.200", account: "dana@example.com" }, store)).toEqual({ allowed: true });
  });

  it("count each action apart, and the hosted login per address only", async () => {
    const store = createRateLimitStore();
    for (let i = 0; i < AUTH_LIMITS.forgotPassword.perAccount.points; i++)
      await attemptAuthAction("forgotPassword", { address: `198.51.100.${i}`, account: "dana@example.com" }, store);
    expect((await attemptAuthAction("forgotPassword", { address: "198.51.100.250", account: "dana@example.com" }, store)).allowed).toBe(false);
    expect((await attemptAuthAction("login", { address: "198.51.100.250", account: "dana@example.com" }, store)).allowed).toBe(true);
    for (let i = 0; i < AUTH_LIMITS.hostedLogin.perAddress.points; i++)
      expect((await attemptAuthAction("hostedLogin", { address: "203.0.113.1" }, store)).allowed).toBe(true);
    expect((await attemptAuthAction("hostedLogin", { address: "203.0.113.1" }, store)).allowed).toBe(false);
  });
});

describe("code steps", () => {
  it("count codes typed per step, not per account: a stranger's tries for an address leave the member's own code step alone", async () => {
    const store = createRateLimitStore();
    for (let i = 0; i < 20; i++) {
      expect((await attemptAuthAction("verify", { address: `198.51.100.${i}`, account: "dana@example.com" }, store)).allowed).toBe(true);
      await countStepTry("codeTries", "decoy-step", store);
    }
    expect((await attemptAuthAction("verify", { address: "203.0.113.7", account: "dana@example.com" }, store)).allowed).toBe(true);
    expect(await stepTries("codeTries", "members-step", store)).toBe(0);
    expect(await countStepTry("codeTries", "members-step", store)).toMatchObject({ count: 1 });
  });

  it("say how many tries a step has had and when they are forgotten, and start again when asked", async () => {
    const store = createRateLimitStore();
    await countStepTry("newCodes", "step", store);
    const second = await countStepTry("newCodes", "step", store);
    expect(second.count).toBe(2);
    expect(second.retryAfterSeconds).toBeGreaterThan(59 * 60);
    expect(await stepTries("newCodes", "step", store)).toBe(2);
    await forgetStepTries("newCodes", "step", store);
    expect(await stepTries("newCodes", "step", store)).toBe(0);
  });
});

describe("auth rate limits in Redis (a real redis-server)", () => {
  const redisUrl = useRedisServer();

  it("share the counts between instances", async () => {
    const [first, second] = [createRateLimitStore(redisUrl()), createRateLimitStore(redisUrl())];
    await Promise.all([first.ready, second.ready]);
    try {
      const { points } = AUTH_LIMITS.resendCode.perAccount;
      const account = `shared-${Date.now()}@example.com`;
      for (let i = 0; i < points; i++) {
        const instance = i % 2 === 0 ? first : second;
        expect((await attemptAuthAction("resendCode", { address: `198.51.100.${i}`, account }, instance)).allowed).toBe(true);
        await countStepTry("codeTries", account, instance);
      }
      expect((await attemptAuthAction("resendCode", { address: "198.51.100.99", account }, first)).allowed).toBe(false);
      expect((await attemptAuthAction("resendCode", { address: "198.51.100.99", account }, second)).allowed).toBe(false);
      expect(await stepTries("codeTries", account, second)).toBe(points);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("fall back to counting in memory while Redis is unreachable: limits still hold, nobody is locked out", async () => {
    const store = createRateLimitStore(`redis://127.0.0.1:${await freePort()}`);
    try {
      const { points } = AUTH_LIMITS.resendCode.perAccount;
      for (let i = 0; i < points; i++)
        expect((await attemptAuthAction("resendCode", { address: `198.51.100.${i}`, account: "down@example.com" }, store)).allowed).toBe(true);
      expect((await attemptAuthAction("resendCode", { address: "198.51.100.99", account: "down@example.com" }, store)).allowed).toBe(false);
    } finally {
      await store.close();
    }
  });
});
