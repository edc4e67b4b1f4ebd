import { LRUCache } from "lru-cache";
import { isDataTag, memberOfTag, memberTag } from "@/lib/cache/page-cache-signals";
import { SharedRuns } from "@/lib/shared-runs";
import { pageSize, type CachedPage, type RenderedPage } from "./page";
import type { PageTarget } from "./request-key";

/**
 * The page cache's decisions, apart from HTTP: which page answers a key, when to render, what
 * to keep and what to drop. The render itself and the shared store are given, so this is
 * tested with stand-ins and a clock (tests/page-cache.test.ts).
 *
 * - A fresh page is a HIT. A page past its lifetime is served STALE while one render refreshes
 *   it; a refresh that fails leaves it as it is.
 * - A MISS renders once per key: requests that miss together wait for the same render.
 * - A revalidation drops every page that read one of its tags, at once; a render that started
 *   before it is not kept, and requests after it never join such a render.
 * - A refresh that finds the page gone (404 or 410: an item deleted or made private, which no
 *   revalidation may announce) drops it here and on every instance, rather than serving the
 *   old page until its stale lifetime ends.
 * - A member template (a target for members) is only ever served as kept: a render that could
 *   not be kept goes to nobody, and its key is not rendered again for members until its fresh
 *   lifetime has passed or a revalidation came; they go to Next.js meanwhile.
 * - A member's own page (a personal target, rendered with their cookies) is kept in this
 *   instance only and served only while fresh (`personalFreshMs`), never stale. Its reads were made with the member's
 *   tokens and note no data tags, so any data revalidation drops every such page; a change of
 *   the member's own (their `member:` tag) drops theirs. A render that started before either is
 *   not kept.
 */

export type CacheState = "HIT" | "STALE" | "MISS";

/** A page to answer with, or "pass": let Next.js answer this request itself (a render that set a cookie, or failed). */
export type Lookup = { page: CachedPage; state: CacheState; stored: boolean } | { pass: true };

/** What a render of a target gave: the page (kept only when `storable`), or null when it failed. */
export type RenderOutcome = { page: RenderedPage; storable: boolean } | null;

/** Pages shared by every instance (Redis), and the revalidations between them. */
export interface SharedPages {
  /** The page under a key, unless it is gone or outdated by a revalidation. */
  get(key: string): Promise<CachedPage | undefined>;
  set(page: CachedPage): Promise<void>;
  /** Tells every instance (this one included, through `onRevalidation`) that these tags changed at `at`. */
  revalidate(tags: string[], at: number): Promise<void>;
  /** Called with revalidations from any instance; `everything` when they may have been missed (a lost connection). */
  onRevalidation(listener: (change: { tags: string[]; everything: boolean }) => void): void;
  /** Removes the page under a key, and tells the other instances to drop their copies (through `onDrop`). */
  drop(key: string): Promise<void>;
  /** Called with the keys other instances dropped. */
  onDrop(listener: (key: string) => void): void;
  close(): Promise<void>;
}

/** Bytes of members' own pages kept, apart from the shared pages' `maxBytes` (their compressed copies, made when asked for, are smaller and not counted). */
const PERSONAL_PAGES_BYTES = 32 * 1024 * 1024;
/** Longer than any render takes, queue included (render.ts gives one 30 s). */
const MEMBER_CHANGE_MEMORY_MS = 5 * 60_000;

/** What a render answers for a page that no longer exists, or is no longer public. */
const GONE = new Set([404, 410]);

export type PageCacheOptions = {
  maxBytes: number;
  /** How long a page is served as it is before a request refreshes it. */
  freshMs: number;
  /** How long a member's own page is kept (0: never); it is never served stale. */
  personalFreshMs?: number;
  /** How long past that a page may still be served while it is refreshed; then it is gone. */
  staleMs: number;
  render: (target: PageTarget) => Promise<RenderOutcome>;
  shared?: SharedPages;
  now?: () => number;
  onError?: (error: unknown, what: string) => void;
};

export class PageCache {
  private readonly pages: LRUCache<string, CachedPage>;
  private readonly renders = new SharedRuns<{ page: CachedPage; storable: boolean } | null>();
  /** When each data tag last changed, as far as this instance has heard. */
  private readonly revalidatedAt = new Map<string, number>();
  /** The same for members' own tags, one per member who changed something: only renders under way need them. */
  private readonly memberTagsChangedAt: LRUCache<string, number>;
  /** Member targets whose last render could not be kept as a template. */
  private readonly unkept: LRUCache<string, true>;
  private readonly personalPages: LRUCache<string, CachedPage>;
  /** When data anyone reads last changed: members' own pages rendered before it are outdated. */
  private dataChangedAt = -Infinity;
  private readonly now: () => number;

  constructor(private readonly options: PageCacheOptions) {
    this.now = options.now ?? Date.now;
    this.pages = new LRUCache<string, CachedPage>({
      maxSize: options.maxBytes,
      sizeCalculation: pageSize,
      ttl: options.freshMs + options.staleMs,
      ttlAutopurge: false,
      perf: { now: this.now },
    });
    this.personalPages = new LRUCache<string, CachedPage>({
      maxSize: PERSONAL_PAGES_BYTES,
      sizeCalculation: pageSize,
      ttl: Math.max(1, options.personalFreshMs ?? 0),
      ttlAutopurge: false,
      perf: { now: this.now },
    });
    this.memberTagsChangedAt = new LRUCache<string, number>({ max: 100_000, ttl: MEMBER_CHANGE_MEMORY_MS, ttlResolution: 0, perf: { now: this.now } });
    this.unkept = new LRUCache<string, true>({ max: 10_000, ttl: options.freshMs, ttlResolution: 0, perf: { now: this.now } });
    options.shared?.onRevalidation(({ tags, everything }) => (everything ? this.forgetEverything() : this.forget(tags, this.now())));
    options.shared?.onDrop((key) => this.pages.delete(key));
  }

  async lookup(target: PageTarget): Promise<Lookup> {
    if (target.personal) return this.lookupPersonal(target);
    const page = this.pages.get(target.key) ?? (await this.fromShared(target.key));
    if (page) {
      const fresh = this.now() - page.renderedAt < this.options.freshMs;
      // One render refreshes a stale page in the background (requests meanwhile join it); the page stays until a good one replaces it.
      if (!fresh) void this.render(target);
      return { page, state: fresh ? "HIT" : "STALE", stored: true };
    }
    if (target.member && this.unkept.has(target.key)) return { pass: true };
    const outcome = await this.render(target);
    if (target.member && !outcome?.storable) return { pass: true };
    return outcome ? { page: outcome.page, state: "MISS", stored: outcome.storable } : { pass: true };
  }

  /** A member's own page: kept while fresh, else rendered for them now (a render that set a cookie or failed goes to Next.js). */
  private async lookupPersonal(target: PageTarget): Promise<Lookup> {
    const page = this.personalPages.get(target.key);
    if (page && this.now() - page.renderedAt < (this.options.personalFreshMs ?? 0)) return { page, state: "HIT", stored: true };
    const outcome = await this.render(target);
    return outcome ? { page: outcome.page, state: "MISS", stored: outcome.storable } : { pass: true };
  }

  /** The tags changed: their pages go, here and (through the shared store) on every instance. */
  async revalidate(tags: string[]): Promise<void> {
    const at = this.now();
    this.forget(tags, at);
    await this.options.shared?.revalidate(tags, at);
  }

  get size(): { pages: number; bytes: number; personalPages: number } {
    return { pages: this.pages.size, bytes: this.pages.calculatedSize, personalPages: this.personalPages.size };
  }

  /** Waits for renders under way (tests, shutdown). */
  settled(): Promise<void> {
    return this.renders.settled();
  }

  private async fromShared(key: string): Promise<CachedPage | undefined> {
    if (!this.options.shared) return undefined;
    try {
      const page = await this.options.shared.get(key);
      if (!page || this.outdated(page)) return undefined;
      this.pages.set(key, page);
      return page;
    } catch (error) {
      this.options.onError?.(error, "reading a shared page");
      return undefined;
    }
  }

  private outdated(page: CachedPage): boolean {
    if (page.personal && this.dataChangedAt >= page.renderedAt) return true;
    const changedAt = (tag: string) => (isDataTag(tag) ? this.revalidatedAt.get(tag) : this.memberTagsChangedAt.get(tag)) ?? -Infinity;
    return page.tags.some((tag) => changedAt(tag) >= page.renderedAt);
  }

  private forget(tags: string[], at: number): void {
    for (const tag of tags) {
      const times = isDataTag(tag) ? this.revalidatedAt : this.memberTagsChangedAt;
      times.set(tag, Math.max(at, times.get(tag) ?? -Infinity));
    }
    this.forgetPersonal(tags, at);
    // Renders under way may have read the old data: requests from now on start their own.
    this.renders.forget();
    // News of one member's own concerns no shared page and no template.
    const changed = new Set(tags.filter(isDataTag));
    if (changed.size === 0) return;
    const dropped = [...this.pages.entries()].filter(([, page]) => page.tags.some((tag) => changed.has(tag)));
    for (const [key] of dropped) this.pages.delete(key);
    this.unkept.clear();
  }

  private forgetPersonal(tags: string[], at: number): void {
    if (tags.some(isDataTag)) {
      this.dataChangedAt = Math.max(at, this.dataChangedAt);
      this.personalPages.clear();
      return;
    }
    const members = new Set(tags.map(memberOfTag));
    for (const [key, page] of this.personalPages.entries()) if (members.has(page.personal?.memberId)) this.personalPages.delete(key);
  }

  private forgetEverything(): void {
    this.dataChangedAt = this.now();
    this.personalPages.clear();
    this.pages.clear();
    this.renders.forget();
    this.unkept.clear();
  }

  /**
   * Only a page this instance holds is dropped everywhere: a page another instance holds is in
   * the shared store too, so this one read it before rendering, and a made-up URL that was never
   * a page costs no message to the others.
   */
  private async dropGone(key: string): Promise<void> {
    if (!this.pages.delete(key)) return;
    await this.options.shared?.drop(key).catch((error: unknown) => this.options.onError?.(error, "dropping a page"));
  }

  /** One render per key at a time; a good one is kept unless its data changed while it ran. */
  private render(target: PageTarget) {
    return this.renders.run(target.key, () => this.renderAndKeep(target));
  }

  private renderAndKeep(target: PageTarget) {
    const startedAt = this.now();
    return this.options
      .render(target)
      .then(async (outcome) => {
        if (!outcome) return null;
        const page: CachedPage = { ...outcome.page, renderedAt: startedAt };
        // Whose it is (never the cookie it was rendered with), and the tag their changes are announced under.
        if (target.personal)
          Object.assign(page, { personal: { memberId: target.personal.memberId }, tags: [...page.tags, memberTag(target.personal.memberId)] });
        if (GONE.has(page.status)) await this.dropGone(target.key);
        if (target.member && !outcome.storable) {
          // What the page now shows depends on the member: its old template goes too.
          this.unkept.set(target.key, true);
          this.pages.delete(target.key);
        }
        const storable = outcome.storable && !this.outdated(page);
        if (storable && target.personal) this.personalPages.set(target.key, page);
        else if (storable) {
          this.pages.set(target.key, page);
          await this.options.shared?.set(page).catch((error: unknown) => this.options.onError?.(error, "sharing a page"));
        }
        return { page, storable };
      })
      .catch((error: unknown) => {
        this.options.onError?.(error, "rendering a page");
        return null;
      });
  }
}
