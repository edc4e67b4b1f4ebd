/**
 * Which sessions the platform confirmed lately, so a member's page views ask it at most once per
 * interval rather than at every view (lib/auth/session-check.ts). Decisions only: the caller
 * asks the platform and passes the clock.
 *
 * A confirmation stops counting when the interval has passed, when the member's sessions were
 * said to have changed after it (their own password change, a Wix member event, another instance
 * telling), or when everything was (an instance that may have missed such news).
 */
export class SessionConfirmations {
  /** By token key, oldest first: the order a Map keeps, so the first entries are the ones to drop. */
  private readonly confirmed = new Map<string, { memberId: string; at: number }>();
  private readonly changedAt = new Map<string, number>();
  private everythingChangedAt = -Infinity;

  constructor(
    private readonly options: { intervalMs: number; maxSessions: number },
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Whether the platform confirmed this token recently enough that a page view need not ask. */
  standsUnasked(tokenKey: string, memberId: string): boolean {
    const found = this.confirmed.get(tokenKey);
    if (!found || found.memberId !== memberId) return false;
    const changed = Math.max(this.everythingChangedAt, this.changedAt.get(memberId) ?? -Infinity);
    return found.at > changed && this.now() - found.at < this.options.intervalMs;
  }

  /** The platform said the token stands, when asked at `askedAt` (a change said after that and before the answer still counts). */
  confirm(tokenKey: string, memberId: string, askedAt: number): void {
    if (this.options.intervalMs <= 0) return;
    this.confirmed.delete(tokenKey);
    this.confirmed.set(tokenKey, { memberId, at: askedAt });
    for (const key of this.confirmed.keys()) {
      if (this.confirmed.size <= this.options.maxSessions) break;
      this.confirmed.delete(key);
    }
  }

  /** The member's sessions may have ended: each is asked again at its next page view. */
  memberChanged(memberId: string): void {
    const at = this.now();
    this.changedAt.set(memberId, at);
    // A change older than the interval outdates nothing a confirmation younger than it could hold.
    for (const [id, when] of this.changedAt) if (at - when > this.options.intervalMs) this.changedAt.delete(id);
  }

  /** News may have been missed: every session is asked again. */
  everythingChanged(): void {
    this.everythingChangedAt = this.now();
    this.changedAt.clear();
  }
}
