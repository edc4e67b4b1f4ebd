import { deliver, type DeliveryTiming } from "../http/delivery";
import type { OAuthClient } from "../oauth/clients";
import type { Change } from "./changes";
import { eventsOf, type EventLookups, type WebhookEvent } from "./events";
import type { WebhookKeys } from "./keys";

type Log = { warn(object: object, message: string): void };

/** Retried as the revalidation calls are; `batchMs`: changes are gathered this long after the first, so one request's writes go out as one batch. */
const TIMING: DeliveryTiming & { batchMs: number } = { batchMs: 50, retryDelaysMs: [500, 2000], timeoutMs: 5000 };

export type WebhookSource = {
  /** The apps that take webhooks now. */
  apps(): Array<OAuthClient & { webhookUrl: string }>;
  /** The changes committed since the last call, in order. */
  drain(): Change[];
  lookups: EventLookups;
  instanceId: string;
};

/**
 * Sends the platform's webhook events to every app registered with a webhook URL. Each app gets
 * each event in one call of its own, in the order they happened; a call the app does not take
 * (silence or a 5xx) is tried again, as the revalidation calls are, then given up and logged.
 */
export class WebhookSender {
  private timer: NodeJS.Timeout | null = null;
  private sending = new Map<string, Promise<void>>();

  constructor(
    private readonly source: WebhookSource,
    private readonly keys: WebhookKeys,
    private readonly log: Log,
  ) {}

  /** Something was written; called from inside database statements, so it only arms the timer. */
  noted(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, TIMING.batchMs);
    this.timer.unref();
  }

  /** Sends what is waiting now, and resolves when every call so far has been taken or given up. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const changes = this.source.drain();
    const events = changes.length > 0 ? eventsOf(changes, this.source.lookups) : [];
    for (const app of events.length > 0 ? this.source.apps() : []) {
      const previous = this.sending.get(app.id) ?? Promise.resolve();
      this.sending.set(
        app.id,
        previous.then(() => this.deliverAll(app, events)),
      );
    }
    return Promise.all(this.sending.values()).then(() => undefined);
  }

  private async deliverAll(app: { id: string; webhookUrl: string }, events: WebhookEvent[]): Promise<void> {
    for (const built of events) {
      const outcome = await deliver(
        app.webhookUrl,
        // Signed afresh for each attempt, as its lifetime is short.
        () => ({
          body: this.keys.signEvent(app.id, {
            eventType: built.eventType,
            instanceId: this.source.instanceId,
            payload: built.payload,
            identity: built.identity,
          }),
          headers: { "content-type": "text/plain" },
        }),
        TIMING,
      );
      if (!outcome.ok) {
        this.log.warn(
          { app: app.id, url: app.webhookUrl, eventType: built.eventType, entityId: built.payload.entityId, failure: outcome.failure },
          "The app did not take a webhook event; it is given up.",
        );
      }
    }
  }
}
