import type { PlatformContext } from "../context";
import { MemberStore } from "../members/store";
import { LOCAL_INSTANCE_ID } from "../oauth/access-token";
import { watchWebhookChanges } from "./changes";
import { WebhookSender, type SenderTiming } from "./sender";

type Log = { info(object: object, message: string): void; warn(object: object, message: string): void };

/**
 * Starts watching for the writes that become webhook events, when an app is registered with a
 * webhook URL (docs/platform/webhooks.md §1); without one nothing is recorded. Call it once the
 * demo content is seeded: the seed is no event.
 */
export function startWebhooks(ctx: PlatformContext, log: Log, timing?: SenderTiming): WebhookSender | null {
  const apps = ctx.clients.webhookApps();
  if (apps.length === 0) return null;
  const members = new MemberStore(ctx.db, ctx.identities);
  const changes = watchWebhookChanges(ctx.db, () => sender.noted());
  const sender: WebhookSender = new WebhookSender(
    {
      apps: () => ctx.clients.webhookApps(),
      drain: changes.drain,
      lookups: { member: (id) => members.get(id) },
      instanceId: LOCAL_INSTANCE_ID,
    },
    ctx.webhookKeys,
    log,
    timing,
  );
  log.info(
    { apps: apps.map((app) => ({ id: app.id, webhookUrl: app.webhookUrl })), publicKey: ctx.webhookKeys.publicKeyBase64() },
    "webhooks are sent to these apps, signed with the platform's key; give them publicKey as WIX_CLIENT_PUBLIC_KEY",
  );
  return sender;
}
