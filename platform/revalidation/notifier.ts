import { revalidationBodies, signedRevalidation } from "@ridgeline/platform-contract";
import { deliver, type DeliveryTiming } from "../http/delivery";
import type { DataChange } from "./store";

export type RevalidationTarget = { url: string; secret: string };

type Log = { warn(object: object, message: string): void };

/** A given-up change leaves the cache's own lifetime to bound staleness. */
export type NotifierTiming = DeliveryTiming & {
  /** A change is sent once no other change came for this long… */
  quietMs: number;
  /** …or this long after the first change waiting, whichever comes first, so a long restoration is announced as it goes. */
  maxWaitMs: number;
};

const DEFAULT_TIMING: NotifierTiming = { quietMs: 100, maxWaitMs: 1000, retryDelaysMs: [500, 2000], timeoutMs: 5000 };

/**
 * Tells the site which data changed, through its signed revalidation webhook. Changes are
 * gathered per collection: a burst of writes (a bulk insert, a restoration of thousands of
 * items) becomes one call naming each collection once. Calls go out one at a time; changes
 * made while one is on its way wait for the next.
 */
export class RevalidationNotifier {
  private readonly pending = new Set<string>();
  private membersPending = false;
  private timer: NodeJS.Timeout | null = null;
  private firstPendingAt = 0;
  private lastChangeAt = 0;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly target: RevalidationTarget,
    private readonly log: Log,
    private readonly timing: NotifierTiming = DEFAULT_TIMING,
  ) {}

  /** Records a change; called from inside database statements, so it only notes it and arms the timer. */
  changed(change: DataChange): void {
    if (change.kind === "members") this.membersPending = true;
    else this.pending.add(change.collectionId);
    const now = Date.now();
    this.lastChangeAt = now;
    if (this.timer) return;
    this.firstPendingAt = now;
    this.arm(this.timing.quietMs);
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => this.onTimer(), delayMs);
    this.timer.unref();
  }

  private onTimer(): void {
    const now = Date.now();
    const quietUntil = this.lastChangeAt + this.timing.quietMs;
    const deadline = this.firstPendingAt + this.timing.maxWaitMs;
    if (now < quietUntil && now < deadline) {
      this.arm(Math.min(quietUntil, deadline) - now);
      return;
    }
    this.timer = null;
    void this.flush();
  }

  /** Sends what is waiting now, and resolves when every call so far has been answered or given up. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.size > 0 || this.membersPending) {
      const change = { collections: [...this.pending].sort(), members: this.membersPending };
      this.pending.clear();
      this.membersPending = false;
      this.sending = this.sending.then(() => this.deliver(change));
    }
    return this.sending;
  }

  private async deliver(change: { collections: string[]; members: boolean }): Promise<void> {
    for (const body of revalidationBodies(change)) {
      const outcome = await deliver(this.target.url, () => signedRevalidation(body, this.target.secret), this.timing);
      if (!outcome.ok) {
        this.log.warn(
          { url: this.target.url, collections: change.collections, members: change.members, failure: outcome.failure },
          "The site did not take the revalidation call; its cached reads expire on their own.",
        );
      }
    }
  }
}
