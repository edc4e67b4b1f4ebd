/**
 * Work that callers asking at the same time share: one run per key while it is under way, and,
 * when asked for, its result for a while after it succeeded. A failed run is forgotten at once,
 * so the next caller tries again. Used for platform reads that miss the cache together, token
 * renewals, the server's visitor grant and the page cache's renders.
 */
export class SharedRuns<T> {
  private readonly runs = new Map<string, { promise: Promise<T>; settledAt?: number }>();

  /** `keepForMs`: how long a successful run still answers callers that allow it (0: only while it runs). */
  constructor(private readonly options: { keepForMs?: number; now?: () => number } = {}) {}

  /**
   * The run under way for `key`, or a recent successful one unless `reuseSettled` is false;
   * otherwise `work` starts, and later callers share it.
   */
  run(key: string, work: () => Promise<T>, { reuseSettled = true }: { reuseSettled?: boolean } = {}): Promise<T> {
    const now = this.now();
    const keepFor = this.options.keepForMs ?? 0;
    for (const [other, entry] of this.runs) if (entry.settledAt !== undefined && now - entry.settledAt > keepFor) this.runs.delete(other);
    const existing = this.runs.get(key);
    if (existing && (existing.settledAt === undefined || reuseSettled)) return existing.promise;
    const entry: { promise: Promise<T>; settledAt?: number } = { promise: work() };
    entry.promise.then(
      () => {
        if (keepFor > 0) entry.settledAt = this.now();
        else if (this.runs.get(key) === entry) this.runs.delete(key);
      },
      () => {
        if (this.runs.get(key) === entry) this.runs.delete(key);
      },
    );
    this.runs.set(key, entry);
    return entry.promise;
  }

  /** Callers from now on start afresh: the data changed, and runs under way may have read the old. */
  forget(): void {
    this.runs.clear();
  }

  /** Waits until no run is under way (tests, shutdown). */
  async settled(): Promise<void> {
    for (;;) {
      const under = [...this.runs.values()].filter((entry) => entry.settledAt === undefined).map((entry) => entry.promise);
      if (under.length === 0) return;
      await Promise.allSettled(under);
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
