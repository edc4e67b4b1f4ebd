/**
 * Which cache tags changed while a read ran. A read that started before a change and ends after
 * its revalidation holds the old data, yet the cache would store it as newer than the change and
 * serve it for the whole cache life: such a read is made again before anything keeps it.
 */
export class TagChanges {
  /** How many changes each tag has seen; only growth matters. */
  private readonly counts = new Map<string, number>();
  /** Changes of unknown tags (revalidations that may have been missed), which concern every read. */
  private anyTag = 0;

  /** These tags' data changed (called where they are revalidated). */
  changed(tags: readonly string[]): void {
    for (const tag of tags) this.counts.set(tag, (this.counts.get(tag) ?? 0) + 1);
  }

  /** Some data changed, and which is not known. */
  changedEverything(): void {
    this.anyTag++;
  }

  /**
   * Runs `read` until one run overlaps no change of `tags`, at most `attempts` times; the last run
   * is returned whatever happened during it (data that keeps changing is as new as any read).
   */
  async readUnchanged<T>(tags: readonly string[], read: () => Promise<T>, attempts = 3): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const before = this.total(tags);
      const result = await read();
      if (this.total(tags) === before || attempt >= attempts) return result;
    }
  }

  private total(tags: readonly string[]): number {
    return tags.reduce((sum, tag) => sum + (this.counts.get(tag) ?? 0), this.anyTag);
  }
}
