import "server-only";
import { AppStrategy } from "@wix/sdk";
import { decodeJwt } from "jose";
import { z } from "zod";

/**
 * Wix's webhook events, as a Wix app receives them: a POST whose body is a JWT signed by Wix,
 * checked with the app's public key by `@wix/sdk`'s AppStrategy. The site reads only what tells it
 * which cached pages a change makes stale: data items (their collection) and members.
 */

/**
 * What one event changed, for the cache: the collections whose items it names, whether public
 * member pages, and the member a member event names (whose sessions may have ended: a block, a deletion).
 */
export type EventChanges = { collections: string[]; members: boolean; memberId?: string };

export type ReadEvent = { ok: true; eventType: string; changes: EventChanges; expiresAt: number } | { ok: false; reason: "invalid" | "expired" | "malformed" };

/** How long after its `iat` an event without an `exp` is still taken (Wix's carry one; this bounds one that does not). */
export const EVENT_MAX_AGE_SECONDS = 300;
/** How far ahead of this server's clock an event may say it was signed. */
const CLOCK_SKEW_SECONDS = 60;

const envelope = z.object({ eventType: z.string().min(1).max(200), data: z.string() });
const entity = z.object({ dataCollectionId: z.string().min(1).max(256).optional() }).passthrough();
/** A domain event's body: the entity in whichever of created, updated or deleted it came. */
const domainEvent = z.object({
  entityId: z.string().min(1).max(200).optional().catch(undefined),
  createdEvent: z.object({ entity: entity.nullish() }).nullish(),
  updatedEvent: z.object({ currentEntity: entity.nullish() }).nullish(),
  deletedEvent: z.object({ deletedEntity: entity.nullish() }).nullish(),
});

const DATA_ITEM_EVENT = /^wix\.data\.v2\.data_item_(created|updated|deleted)$/;
const MEMBER_EVENT = /^wix\.members\.v1\.member_(created|updated|deleted)$/;

/** The changes an event stands for; other events (follows, badges, jobs…) change nothing the site caches. */
function changesOf(eventType: string, payload: unknown, allCollections: () => string[]): EventChanges {
  if (!MEMBER_EVENT.test(eventType) && !DATA_ITEM_EVENT.test(eventType)) return { collections: [], members: false };
  const parsed = domainEvent.safeParse(payload);
  if (MEMBER_EVENT.test(eventType)) return { collections: [], members: true, ...(parsed.data?.entityId && { memberId: parsed.data.entityId }) };
  const item = parsed.success
    ? (parsed.data.createdEvent?.entity ?? parsed.data.updatedEvent?.currentEntity ?? parsed.data.deletedEvent?.deletedEntity)
    : undefined;
  // A deleted item's event may not name its collection: then every collection the site shows is stale.
  return { collections: item?.dataCollectionId ? [item.dataCollectionId] : allCollections(), members: false };
}

/**
 * Checks a webhook body (signature, issuer `wix.com`, audience the app's id, not expired) through
 * `@wix/sdk`, then reads its envelope. `allCollections` answers for an item event that names no collection.
 */
export async function readWixEvent(
  jwt: string,
  app: { appId: string; publicKey: string },
  allCollections: () => string[],
  now = Date.now(),
): Promise<ReadEvent> {
  // The app strategy checks webhooks; it is made with the public key alone, so it can do nothing else.
  const { decodeJWT } = AppStrategy({ appId: app.appId, publicKey: app.publicKey });
  let data: unknown;
  let claims: { iat?: number; exp?: number };
  try {
    ({ data } = (await decodeJWT!(jwt, true)).decoded);
    claims = decodeJwt(jwt);
  } catch (error) {
    return { ok: false, reason: (error as { code?: string }).code === "ERR_JWT_EXPIRED" ? "expired" : "invalid" };
  }
  const nowSeconds = now / 1000;
  if (typeof claims.iat !== "number" || claims.iat > nowSeconds + CLOCK_SKEW_SECONDS) return { ok: false, reason: "invalid" };
  const expiresAt = typeof claims.exp === "number" ? claims.exp : claims.iat + EVENT_MAX_AGE_SECONDS;
  if (expiresAt <= nowSeconds) return { ok: false, reason: "expired" };
  let payload: unknown;
  let eventType: string;
  try {
    const parsed = envelope.parse(JSON.parse(String(data)));
    eventType = parsed.eventType;
    payload = JSON.parse(parsed.data);
  } catch {
    return { ok: false, reason: "malformed" };
  }
  return { ok: true, eventType, changes: changesOf(eventType, payload, allCollections), expiresAt };
}
