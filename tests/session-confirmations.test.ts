import { describe, expect, it } from "vitest";
import { SessionConfirmations } from "@/lib/auth/session-confirmations";

/** The decisions of lib/auth/session-confirmations.ts, on a clock of their own; the asking is in tests/session-middleware.test.ts. */
function confirmations(intervalMs = 30_000, maxSessions = 100) {
  let now = 1_000_000;
  const memo = new SessionConfirmations({ intervalMs, maxSessions }, () => now);
  return { memo, advance: (ms: number) => (now += ms), now: () => now };
}

describe("session confirmations", () => {
  it("lets a confirmed session go unasked for the interval, and no longer", () => {
    const { memo, advance, now } = confirmations();
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
    memo.confirm("t1", "m1", now());
    expect(memo.standsUnasked("t1", "m1")).toBe(true);
    advance(29_999);
    expect(memo.standsUnasked("t1", "m1")).toBe(true);
    advance(1);
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
  });

  it("asks again for every session of a member whose sessions changed, and only theirs", () => {
    const { memo, advance, now } = confirmations();
    memo.confirm("phone", "m1", now());
    memo.confirm("laptop", "m1", now());
    memo.confirm("other", "m2", now());
    advance(1);
    memo.memberChanged("m1");
    expect(memo.standsUnasked("phone", "m1")).toBe(false);
    expect(memo.standsUnasked("laptop", "m1")).toBe(false);
    expect(memo.standsUnasked("other", "m2")).toBe(true);
    // Asked again after the change: it counts again.
    advance(1);
    memo.confirm("phone", "m1", now());
    expect(memo.standsUnasked("phone", "m1")).toBe(true);
  });

  it("does not take an answer to a question asked before the change, even if it arrived after", () => {
    const { memo, advance, now } = confirmations();
    const askedAt = now();
    advance(5);
    memo.memberChanged("m1");
    advance(5);
    memo.confirm("t1", "m1", askedAt);
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
  });

  it("asks again for every session after news may have been missed", () => {
    const { memo, advance, now } = confirmations();
    memo.confirm("t1", "m1", now());
    memo.confirm("t2", "m2", now());
    advance(1);
    memo.everythingChanged();
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
    expect(memo.standsUnasked("t2", "m2")).toBe(false);
  });

  it("does not let a token stand for another member than the one confirmed", () => {
    const { memo, now } = confirmations();
    memo.confirm("t1", "m1", now());
    expect(memo.standsUnasked("t1", "m2")).toBe(false);
  });

  it("holds at most maxSessions, dropping the oldest confirmed", () => {
    const { memo, now } = confirmations(30_000, 2);
    memo.confirm("a", "m", now());
    memo.confirm("b", "m", now());
    memo.confirm("a", "m", now()); // Confirmed again: now the newest.
    memo.confirm("c", "m", now());
    expect(memo.standsUnasked("b", "m")).toBe(false);
    expect(memo.standsUnasked("a", "m")).toBe(true);
    expect(memo.standsUnasked("c", "m")).toBe(true);
  });

  it("keeps nothing with an interval of 0: every page view asks", () => {
    const { memo, now } = confirmations(0);
    memo.confirm("t1", "m1", now());
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
  });
});
