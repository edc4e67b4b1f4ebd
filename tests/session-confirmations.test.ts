import { describe, expect, it } from "vitest";
import { SessionConfirmations } from "@/lib/auth/session-confirmations";

/** The decisions of lib/auth/session-confirmations.ts, on a clock of their own; the asking is in tests/session-middleware.test.ts. */
function confirmations(intervalMs = 30_000, maxSessions = 100) {
  let now = 1_000_000;
  const memo = new SessionConfirmations({ intervalMs, maxSessions }, () => now);
  return { memo, advance: (ms: number) => (now += ms) };
}

describe("session confirmations", () => {
  it("lets a confirmed session go unasked for the interval, and no longer", () => {
    const { memo, advance } = confirmations();
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
    memo.confirm("t1", memo.question("m1"));
    expect(memo.standsUnasked("t1", "m1")).toBe(true);
    advance(29_999);
    expect(memo.standsUnasked("t1", "m1")).toBe(true);
    advance(1);
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
  });

  it("asks again for every session of a member whose sessions changed, and only theirs", () => {
    const { memo, advance } = confirmations();
    memo.confirm("phone", memo.question("m1"));
    memo.confirm("laptop", memo.question("m1"));
    memo.confirm("other", memo.question("m2"));
    advance(1);
    memo.memberChanged("m1");
    expect(memo.standsUnasked("phone", "m1")).toBe(false);
    expect(memo.standsUnasked("laptop", "m1")).toBe(false);
    expect(memo.standsUnasked("other", "m2")).toBe(true);
    // Asked again after the change: it counts again.
    advance(1);
    memo.confirm("phone", memo.question("m1"));
    expect(memo.standsUnasked("phone", "m1")).toBe(true);
  });

  it("does not take an answer to a question asked before the change, even if it arrived after, or in the same millisecond", () => {
    const { memo, advance } = confirmations();
    const question = memo.question("m1");
    advance(5);
    memo.memberChanged("m1");
    advance(5);
    memo.confirm("t1", question);
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
    // News, then a question, in one millisecond: the answer counts.
    memo.everythingChanged();
    memo.confirm("t1", memo.question("m1"));
    expect(memo.standsUnasked("t1", "m1")).toBe(true);
    // A question, then news, in one millisecond: it does not.
    const early = memo.question("m1");
    memo.memberChanged("m1");
    memo.confirm("t1", early);
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
  });

  it("asks again for every session after news may have been missed", () => {
    const { memo, advance } = confirmations();
    memo.confirm("t1", memo.question("m1"));
    memo.confirm("t2", memo.question("m2"));
    advance(1);
    memo.everythingChanged();
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
    expect(memo.standsUnasked("t2", "m2")).toBe(false);
  });

  it("does not let a token stand for another member than the one confirmed", () => {
    const { memo } = confirmations();
    memo.confirm("t1", memo.question("m1"));
    expect(memo.standsUnasked("t1", "m2")).toBe(false);
  });

  it("holds at most maxSessions, dropping the oldest confirmed", () => {
    const { memo } = confirmations(30_000, 2);
    memo.confirm("a", memo.question("m"));
    memo.confirm("b", memo.question("m"));
    memo.confirm("a", memo.question("m")); // Confirmed again: now the newest.
    memo.confirm("c", memo.question("m"));
    expect(memo.standsUnasked("b", "m")).toBe(false);
    expect(memo.standsUnasked("a", "m")).toBe(true);
    expect(memo.standsUnasked("c", "m")).toBe(true);
  });

  it("keeps nothing with an interval of 0: every page view asks", () => {
    const { memo } = confirmations(0);
    memo.confirm("t1", memo.question("m1"));
    expect(memo.standsUnasked("t1", "m1")).toBe(false);
  });
});
