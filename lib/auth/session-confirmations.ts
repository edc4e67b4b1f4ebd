/**
 * Which sessions the platform confirmed lately, so a member's page views ask it at most once per
 * interval rather than at every view (lib/auth/session-check.ts). Decisions only: the caller
 * asks the platform and passes the clock.
 *
 * A confirmation stops counting when the interval has passed, when the member's sessions were
 * said to have changed after it (their own password change, a Wix member event, another instance
 * telling), or when everything was (an instance that may have missed such news).
 */
/** When a question to the platform was asked, and what was known of the member's sessions then. */
export type Question = { memberId: string; at: number; news: string };

export class SessionConfirmations {
  /** By token key, oldest first: the order a Map keeps, so the first entries are the ones to drop. */
  private readonly confirmed = new Map<string, Question>();
  /** News counted, not timed: a change in the same millisecond as a question still outdates its answer. */
  private count = 0;
  private readonly memberNews = new Map<string, { count: number; at: number }>();
  private everythingNews = 0;

  constructor(
    private readonly options: { intervalMs: number; maxSessions: number },
    private readonly now: () => number = () => Date.now(),
  ) {}

  private news(memberId: string): string {
    return `${this.everythingNews}:${this.memberNews.get(memberId)?.count ?? 0}`;
  }

  /** Whether the platform confirmed this token recently enough, with no news of its member since, that a page view need not ask. */
  standsUnasked(tokenKey: string, memberId: string): boolean {
    const found = this.confirmed.get(tokenKey);
    if (!found || found.memberId !== memberId) return false;
    return found.news === this.news(memberId) && this.now() - found.at < this.options.intervalMs;
  }

  /** Taken before asking the platform: news that comes while the question is out outdates its answer. */
  question(memberId: string): Question {
    return { memberId, at: this.now(), news: this.news(memberId) };
  }

  /** The platform said the token stands, to `question`. */
  confirm(tokenKey: string, question: Question): void {
    if (this.options.intervalMs <= 0) return;
    this.confirmed.delete(tokenKey);
    this.confirmed.set(tokenKey, question);
    for (const key of this.confirmed.keys()) {
      if (this.confirmed.size <= this.options.maxSessions) break;
      this.confirmed.delete(key);
    }
  }

  /** The member's sessions may have ended: each is asked again at its next page view. */
  memberChanged(memberId: string): void {
    const at = this.now();
    this.memberNews.set(memberId, { count: ++this.count, at });
    // News older than the interval outdates nothing a confirmation younger than it could hold.
    for (const [id, news] of this.memberNews) if (at - news.at > this.options.intervalMs) this.memberNews.delete(id);
  }

  /** News may have been missed: every session is asked again. */
  everythingChanged(): void {
    this.everythingNews = ++this.count;
    this.memberNews.clear();
  }
}
