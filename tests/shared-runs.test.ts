import { describe, expect, it } from "vitest";
import { SharedRuns } from "@/lib/shared-runs";

/** Work that counts its starts and finishes when told. */
function work() {
  let starts = 0;
  const pending: Array<{ resolve: (value: number) => void; reject: (error: Error) => void }> = [];
  return {
    starts: () => starts,
    run: () => {
      starts++;
      return new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
    },
    finish: (value: number) => pending.shift()!.resolve(value),
    fail: () => pending.shift()!.reject(new Error("down")),
  };
}

describe("shared runs", () => {
  it("let callers that ask together share one run per key, and start afresh once it settled", async () => {
    const runs = new SharedRuns<number>();
    const job = work();
    const together = [runs.run("a", job.run), runs.run("a", job.run), runs.run("b", job.run)];
    expect(job.starts()).toBe(2);
    job.finish(1);
    job.finish(2);
    expect(await Promise.all(together)).toEqual([1, 1, 2]);
    const later = runs.run("a", job.run);
    expect(job.starts()).toBe(3);
    job.finish(3);
    expect(await later).toBe(3);
  });

  it("forget a failed run at once: the next caller tries again", async () => {
    const runs = new SharedRuns<number>({ keepForMs: 60_000 });
    const job = work();
    const failing = runs.run("a", job.run);
    job.fail();
    await expect(failing).rejects.toThrow("down");
    const retry = runs.run("a", job.run);
    expect(job.starts()).toBe(2);
    job.finish(5);
    expect(await retry).toBe(5);
  });

  it("keep a success for a while for callers that allow it, never past its time", async () => {
    const clock = { now: 0 };
    const runs = new SharedRuns<number>({ keepForMs: 1000, now: () => clock.now });
    const job = work();
    const first = runs.run("a", job.run);
    job.finish(7);
    await first;
    expect(await runs.run("a", job.run)).toBe(7);
    const fresh = runs.run("a", job.run, { reuseSettled: false });
    expect(job.starts()).toBe(2);
    job.finish(8);
    expect(await fresh).toBe(8);
    clock.now = 2001;
    const expired = runs.run("a", job.run);
    expect(job.starts()).toBe(3);
    job.finish(9);
    expect(await expired).toBe(9);
  });

  it("after forget(), later callers start their own run; earlier ones still get theirs", async () => {
    const runs = new SharedRuns<number>();
    const job = work();
    const before = runs.run("a", job.run);
    runs.forget();
    const after = runs.run("a", job.run);
    expect(job.starts()).toBe(2);
    job.finish(1);
    job.finish(2);
    expect([await before, await after]).toEqual([1, 2]);
    await runs.settled();
  });
});
