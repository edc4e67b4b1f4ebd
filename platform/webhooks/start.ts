import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { LOCAL_STUDIO_PATH } from "@ridgeline/platform-contract";
import type { PlatformContext } from "../context";
import { BadgeStore } from "../badges/store";
import { watchSignOnPolicy } from "../identity/sign-on-policy";
import { MemberStore } from "../members/store";
import { LOCAL_INSTANCE_ID } from "../oauth/access-token";
import type { Caller } from "../types";
import { watchWebhookChanges } from "./changes";
import { WebhookSender } from "./sender";

/**
 * Who made a change, as a webhook's `identity` names them (the packages' `IdentificationData`):
 * a member, a visitor, an app by its own token, or the site's owner (the admin key, the Studio).
 * Work a request started runs on in its name (an index build, an import); work the platform starts
 * on its own names no one.
 */
export function identityOf(caller: Caller, studio: boolean): object | null {
  if (studio) return { identityType: "WIX_USER" };
  switch (caller.kind) {
    case "member":
      return { identityType: "MEMBER", memberId: caller.id };
    case "visitor":
      return { identityType: "ANONYMOUS_VISITOR", anonymousVisitorId: caller.id };
    case "admin":
      return caller.app ? { identityType: "APP", appId: caller.app } : { identityType: "WIX_USER" };
    default:
      return null;
  }
}

/**
 * The platform's webhooks (docs/platform/webhooks.md), when an app is registered with a webhook
 * URL at start; without one nothing is recorded. Each request is remembered while it is handled,
 * so a change can name who made it. `start` begins watching once the demo content is seeded (the
 * seed is no event); `flush` reads what is waiting, to call before the database closes.
 */
export function registerWebhooks(app: FastifyInstance, ctx: PlatformContext) {
  let sender: WebhookSender | null = null;
  const requests = new AsyncLocalStorage<FastifyRequest>();
  const enabled = ctx.clients.webhookApps().length > 0;
  if (enabled) app.addHook("onRequest", (request, _reply, done) => requests.run(request, done));

  const currentIdentity = (): string | null => {
    const request = requests.getStore();
    if (!request) return null;
    try {
      const identity = identityOf(ctx.callerOf(request), request.url.startsWith(LOCAL_STUDIO_PATH));
      return identity && JSON.stringify(identity);
    } catch {
      // A credential that does not resolve wrote nothing; the write would have been refused.
      return null;
    }
  };

  return {
    start() {
      if (!enabled) return;
      const members = new MemberStore(ctx.db, ctx.identities);
      const badges = new BadgeStore(ctx.db);
      const changes = watchWebhookChanges(ctx.db, { noted: () => sender?.noted(), identity: currentIdentity });
      watchSignOnPolicy(ctx.settings, (policy) =>
        changes.record({ source: "sign_on_policy", action: "updated", key1: policy.id, snapshot: JSON.stringify(policy) }),
      );
      sender = new WebhookSender(
        {
          apps: () => ctx.clients.webhookApps(),
          drain: changes.drain,
          lookups: { member: (id) => members.get(id), badge: (id) => badges.get(id) },
          instanceId: LOCAL_INSTANCE_ID,
        },
        ctx.webhookKeys,
        app.log,
      );
    },
    flush: (): Promise<void> => sender?.flush() ?? Promise.resolve(),
  };
}
