import "server-only";
import { createHash } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { recheckSessionsOf } from "@/lib/auth/session-check";
import { getConfig } from "@/lib/config";
import { seenSignatures } from "@/lib/security/seen-signatures";
import { readCollectionIds } from "@/lib/site-config";
import { revalidateCollections } from "@/lib/wix/cache";
import { readWixEvent } from "@/lib/wix/events";

/** Wix's events are small JSON envelopes; a data item's carries the item. The server takes no body over 1 MB at all. */
const MAX_BODY_BYTES = 1_000_000;

const answer = (status: number, body: object) => NextResponse.json(body, { status, headers: { "cache-control": "no-store" } });

/**
 * `POST /api/webhooks/wix`: Wix's webhook events for the site's app (the local platform sends the
 * same), checked with the app's public key. A data item event drops the cached reads and pages of
 * its collection; a member event those of member profiles, and has the member's sessions asked
 * again at their next page view; any other event is taken and changes nothing. An event whose
 * signature, issuer or audience is wrong is refused (401), and so is an
 * expired one (401) or one already taken (409): a captured event cannot be replayed, on this
 * instance or, through Redis, another.
 */
export async function handleWixEvent(request: NextRequest): Promise<NextResponse> {
  const app = getConfig().wixApp;
  if (!app) return answer(404, { error: "Wix events are not configured (set WIX_APP_ID and WIX_APP_PUBLIC_KEY)." });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return answer(413, { error: "Body too large." });
  const jwt = (await request.text()).trim();
  if (jwt.length > MAX_BODY_BYTES) return answer(413, { error: "Body too large." });
  const event = await readWixEvent(jwt, app, () => [...readCollectionIds]);
  if (!event.ok) {
    if (event.reason === "expired") return answer(401, { error: "This event has expired." });
    if (event.reason === "malformed") return answer(400, { error: "The event's envelope is not one Wix sends." });
    return answer(401, { error: "Not an event signed for this app." });
  }
  // Remembered until it expires, after which it is refused as expired anyway.
  const ttlSeconds = Math.max(1, Math.ceil(event.expiresAt - Date.now() / 1000));
  if (!(await seenSignatures().firstSeen(createHash("sha256").update(jwt).digest("base64url"), ttlSeconds))) {
    return answer(409, { error: "This event was already taken." });
  }
  const { collections, members, memberId } = event.changes;
  const tags = collections.length > 0 || members ? revalidateCollections(collections, { members }) : [];
  // A blocked or deleted member's sessions end on the platform: their next page view here asks.
  if (memberId) recheckSessionsOf(memberId);
  return answer(200, { eventType: event.eventType, revalidated: tags });
}
