import "server-only";
import { z } from "zod";
import { outingCollections, type CollectionWithOutings } from "@/lib/site-config";
import { TAGS, cachedRead } from "./cache";
import type { WixClient } from "./client";
import { memberItems } from "./collections";
import { refusalOf } from "./errors";
import { currentMember } from "./members";
import type { SiteItem } from "./site-item";

/**
 * Members joining outings. A sign-up is an item of the outings' sign-ups collection naming the
 * outing's collection and id; the platform stamps its author, and only the author may remove it
 * (SITE_MEMBER_AUTHOR). Anyone may read sign-ups, so the places left are counted once for
 * everyone (cached); who has joined is read with the member's own client.
 */

/** One sign-up per member and outing: its id is derived, so joining twice finds the same item. */
export function signupId(collection: CollectionWithOutings, outingId: string, memberId: string): string {
  return `${collection.collectionId}-${outingId}-${memberId}`;
}

/** The member's id: from the session when it holds it, else asked of the platform (a session whose members lookup failed at login). */
export async function memberIdOf(client: WixClient, known: string | undefined): Promise<string> {
  return known || (await currentMember(client)).id;
}

const signupFilter = (collection: CollectionWithOutings, outingId: string) => ({ collection: collection.collectionId, outing: outingId });

async function countSignups(client: WixClient, collection: CollectionWithOutings, outingId: string): Promise<number> {
  const found = await client.items.query(
    collection.outing.signupsCollectionId,
    { filter: signupFilter(collection, outingId), paging: { limit: 1, offset: 0 } },
    { returnTotalCount: true },
  );
  return found.pagingMetadata?.total ?? 0;
}

/** Places taken on each of these outings, for everyone: cached, and dropped when anyone joins or cancels. */
export async function takenPlaces(collection: CollectionWithOutings, outingIds: string[]): Promise<Record<string, number>> {
  const ids = [...new Set(outingIds)].sort();
  const counts = await cachedRead(["signups", collection.collectionId, ...ids], [TAGS.collection(collection.outing.signupsCollectionId)], (client) =>
    Promise.all(ids.map((id) => countSignups(client, collection, id))),
  );
  return Object.fromEntries(ids.map((id, index) => [id, counts[index]]));
}

/** One outing by its slug, read with the given client (a member's, for members-only outings); never cached. */
export async function outingBySlug(client: WixClient, collection: CollectionWithOutings, slug: string): Promise<SiteItem | undefined> {
  return (await memberItems(client, collection, 1, [{ [collection.slugField]: slug }]))[0];
}

/** Places left: never below zero, undefined when the outing sets no capacity. */
export function placesLeft(item: SiteItem, taken: number): number | undefined {
  const capacity = item.outing?.capacity;
  return capacity === undefined ? undefined : Math.max(0, capacity - taken);
}

/** Whether the member has joined the outing: read with their own client. */
export async function hasJoined(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<boolean> {
  const found = await client.items.query(
    collection.outing.signupsCollectionId,
    { filter: { ...signupFilter(collection, outingId), _owner: memberId }, paging: { limit: 1, offset: 0 } },
    {},
  );
  return found.items.length > 0;
}

export type JoinOutcome = "joined" | "already-joined" | "full" | "not-found";

/** WDE0074: an item with this id exists (the member joined a moment ago, in another tab). */
const exists = (error: unknown) => refusalOf(error)?.code === "WDE0074";
/** WDE0073: no such item (already cancelled). */
const missing = (error: unknown) => refusalOf(error)?.code === "WDE0073";

/**
 * Joins the member to the outing, unless it is full. The count is checked before writing, and
 * again after: of sign-ups written at the same moment for the last place, only the earliest
 * stays, and the others are taken back and told the outing is full.
 */
export async function joinOuting(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<JoinOutcome> {
  const [outing] = await memberItems(client, collection, 1, [{ _id: outingId }]);
  if (!outing) return "not-found";
  if (await hasJoined(client, collection, outingId, memberId)) return "already-joined";
  const capacity = outing.outing?.capacity;
  if (capacity !== undefined && (await countSignups(client, collection, outingId)) >= capacity) return "full";
  const id = signupId(collection, outingId, memberId);
  const signups = collection.outing.signupsCollectionId;
  try {
    await client.items.insert(signups, { _id: id, ...signupFilter(collection, outingId) });
  } catch (error) {
    if (exists(error)) return "already-joined";
    throw error;
  }
  if (capacity === undefined) return "joined";
  const first = await client.items.query(
    signups,
    {
      filter: signupFilter(collection, outingId),
      sort: [
        { fieldName: "_createdDate", order: "ASC" },
        { fieldName: "_id", order: "ASC" },
      ],
      paging: { limit: capacity, offset: 0 },
    },
    {},
  );
  if (first.items.some((item) => item._id === id)) return "joined";
  await cancelOuting(client, collection, outingId, memberId);
  return "full";
}

/** Cancels the member's sign-up; cancelling one that is already gone is no error. */
export async function cancelOuting(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<void> {
  try {
    await client.items.remove(collection.outing.signupsCollectionId, signupId(collection, outingId, memberId));
  } catch (error) {
    if (!missing(error)) throw error;
  }
}

const signupData = z.object({ collection: z.string(), outing: z.string() });

/** An outing the member has joined, for their account page. */
export type JoinedOuting = { collection: CollectionWithOutings; item: SiteItem };

/** The outings the member has joined, soonest first, read with their own client (members-only outings included). */
export async function joinedOutings(client: WixClient, memberId: string): Promise<JoinedOuting[]> {
  const signupCollections = [...new Set(outingCollections.map((collection) => collection.outing.signupsCollectionId))];
  const found = await Promise.all(
    signupCollections.map(
      async (signups) => (await client.items.query(signups, { filter: { _owner: memberId }, paging: { limit: 100, offset: 0 } }, {})).items,
    ),
  );
  const signups = found.flat().flatMap((raw) => {
    const parsed = signupData.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
  const joined = await Promise.all(
    outingCollections.map(async (collection) => {
      const ids = signups.filter((signup) => signup.collection === collection.collectionId).map((signup) => signup.outing);
      if (ids.length === 0) return [];
      const items = await memberItems(client, collection, ids.length, [{ _id: { $in: ids } }]);
      return items.map((item) => ({ collection, item }));
    }),
  );
  return joined.flat().sort((a, b) => (a.item.outing?.startsAt ?? "").localeCompare(b.item.outing?.startsAt ?? ""));
}
