import "server-only";
import { z } from "zod";
import { outingCollections, type CollectionWithOutings } from "@/lib/site-config";
import { TAGS, cachedRead } from "./cache";
import type { WixClient } from "./client";
import { memberItems } from "./collections";
import { currentMember, toPublicMember, type PublicMember } from "./members";
import type { SiteItem } from "./site-item";

/**
 * Members joining outings. A sign-up is an item of the outing collection's sign-ups collection
 * naming the outing's collection and id; the platform stamps its author (`_owner`), and only the
 * author may change or remove it (SITE_MEMBER_AUTHOR). Members may write any sign-up they like
 * through the data API, so nothing here trusts what a sign-up says about who joined: a place is
 * one author, however many sign-ups they wrote, and ids are the platform's own (docs/outings.md).
 * Public outings' sign-ups are readable by anyone, so their places are counted once for everyone
 * (cached); members' outings' sign-ups are readable by members only and counted with the
 * member's own client.
 */

/** The member's id: from the session when it holds it, else asked of the platform (a session whose members lookup failed at login). */
export async function memberIdOf(client: WixClient, known: string | undefined): Promise<string> {
  return known || (await currentMember(client)).id;
}

const signupFilter = (collection: CollectionWithOutings, outingId: string) => ({ collection: collection.collectionId, outing: outingId });

/** One row of the places aggregation: an author and when they first signed up. */
const placeRow = z.object({ _owner: z.string().min(1) });

/**
 * The members holding places on an outing: one per author, in the order of each author's first
 * sign-up (the platform's creation time, then the author's id; neither is something a member
 * writes), the first `limit` of them, and how many there are in all. Sign-ups without an author
 * hold no place.
 */
async function placeHolders(
  client: WixClient,
  collection: CollectionWithOutings,
  outingId: string,
  limit: number,
): Promise<{ first: string[]; total: number }> {
  const filter = client.items.filter().eq("collection", collection.collectionId).eq("outing", outingId).isNotEmpty("_owner");
  const found = await client.items
    .aggregate(collection.outing.signupsCollectionId)
    .filter(filter)
    .group("_owner")
    .min("_createdDate")
    .ascending("_createdDateMin", "_owner")
    .limit(limit)
    .run({ returnTotalCount: true });
  const first = found.items.flatMap((row: unknown) => {
    const parsed = placeRow.safeParse(row);
    return parsed.success ? [parsed.data._owner] : [];
  });
  // Without the count the places left are unknown: better an error than a made-up figure.
  if (found.totalCount === undefined) throw new Error(`The platform did not count the places on ${collection.collectionId} ${outingId}`);
  return { first, total: found.totalCount };
}

/** Places taken on each outing: one per member who joined. */
async function countPlaces(client: WixClient, collection: CollectionWithOutings, outingIds: string[]): Promise<number[]> {
  return Promise.all(outingIds.map(async (id) => (await placeHolders(client, collection, id, 1)).total));
}

/**
 * Places taken on each of these outings. Public sign-ups are counted for everyone: cached, and
 * dropped when anyone joins or cancels. Sign-ups only members may read (`membersOnlySignups`) are
 * counted with the member's `client`, never cached.
 */
export async function takenPlaces(collection: CollectionWithOutings, outingIds: string[], client?: WixClient): Promise<Record<string, number>> {
  const ids = [...new Set(outingIds)].sort();
  const counts = client
    ? await countPlaces(client, collection, ids)
    : await cachedRead(["places", collection.collectionId, ...ids], [TAGS.collection(collection.outing.signupsCollectionId)], (visitor) =>
        countPlaces(visitor, collection, ids),
      );
  return Object.fromEntries(ids.map((id, index) => [id, counts[index]]));
}

/** The most members named on an outing's page; the others are still counted. */
const GOERS_SHOWN = 100;

/**
 * Who is going, as the asking member may see them: the members whose profiles they may read, by
 * name; the others counted (`hidden`: the ids of those among the first shown). The organiser also
 * gets `privateGoers`, the hidden members named from the outing's roster (lib/wix/rosters.ts).
 */
export type Goers = { named: PublicMember[]; unnamed: number; hidden: string[]; privateGoers?: Array<{ id: string; name: string }> };

/**
 * Who has joined an outing, read with a member's own client: the place holders in the order they
 * joined, and of those the members the platform lets this member see (public profiles, no block
 * between them). A private profile stays private: it is counted, never named, since the platform
 * shows it to no other member; only the organiser's roster names it to them.
 */
export async function whoIsGoing(client: WixClient, collection: CollectionWithOutings, outingId: string): Promise<Goers> {
  const { first, total } = await placeHolders(client, collection, outingId, GOERS_SHOWN);
  if (first.length === 0) return { named: [], unnamed: total, hidden: [] };
  const found = await client.members.queryMembers().in("_id", first).limit(first.length).find();
  const visible = new Map(found.items.map(toPublicMember).map((member) => [member.id, member]));
  const named = first.flatMap((id) => visible.get(id) ?? []).filter((member) => member.slug);
  const shown = new Set(named.map((member) => member.id));
  return { named, unnamed: total - named.length, hidden: first.filter((id) => !shown.has(id)) };
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

/** Most sign-ups one member is expected to hold for one outing (several only after presses in two tabs at once). */
const OWN_SIGNUPS = 100;

/** The ids of the member's own sign-ups for the outing: those the platform says they wrote. */
async function ownSignups(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<string[]> {
  const found = await client.items.query(
    collection.outing.signupsCollectionId,
    { filter: { ...signupFilter(collection, outingId), _owner: memberId }, paging: { limit: OWN_SIGNUPS, offset: 0 } },
    {},
  );
  return found.items.map((item) => item._id).filter((id): id is string => typeof id === "string");
}

/** Whether the member has joined the outing: a sign-up the platform stamped with them as its author, read with their own client. */
export async function hasJoined(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<boolean> {
  return (await ownSignups(client, collection, outingId, memberId)).length > 0;
}

export type JoinOutcome = "joined" | "already-joined" | "full" | "not-found";

/**
 * Joins the member to the outing, unless it is full. The places are counted before writing, and
 * again after: of members who took the last place at the same moment, only the one who signed up
 * first keeps it, and the others are taken back off and told the outing is full.
 */
export async function joinOuting(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<JoinOutcome> {
  const [outing] = await memberItems(client, collection, 1, [{ _id: outingId }]);
  if (!outing) return "not-found";
  if (await hasJoined(client, collection, outingId, memberId)) return "already-joined";
  const capacity = outing.outing?.capacity;
  if (capacity !== undefined && (await placeHolders(client, collection, outingId, 1)).total >= capacity) return "full";
  // No id of ours: the platform makes one nobody can foresee, so no sign-up can be written in our place beforehand.
  await client.items.insert(collection.outing.signupsCollectionId, signupFilter(collection, outingId));
  if (capacity === undefined) return "joined";
  if ((await placeHolders(client, collection, outingId, capacity)).first.includes(memberId)) return "joined";
  await cancelOuting(client, collection, outingId, memberId);
  return "full";
}

/** Cancels the member's place: every sign-up of theirs for the outing; cancelling a place already given back is no error. */
export async function cancelOuting(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<void> {
  const ids = await ownSignups(client, collection, outingId, memberId);
  if (ids.length > 0) await client.items.bulkRemove(collection.outing.signupsCollectionId, ids);
}

const signupData = z.object({ outing: z.string() });

/** An outing the member has joined, for their account page. */
export type JoinedOuting = { collection: CollectionWithOutings; item: SiteItem };

/**
 * The outings the member has joined, soonest first, read with their own client (members-only
 * outings included): of each outing collection, the sign-ups the member wrote in its own
 * sign-ups collection.
 */
export async function joinedOutings(client: WixClient, memberId: string): Promise<JoinedOuting[]> {
  const joined = await Promise.all(
    outingCollections.map(async (collection) => {
      const found = await client.items.query(
        collection.outing.signupsCollectionId,
        { filter: { collection: collection.collectionId, _owner: memberId }, paging: { limit: 100, offset: 0 } },
        {},
      );
      const ids = found.items.flatMap((raw) => {
        const parsed = signupData.safeParse(raw);
        return parsed.success ? [parsed.data.outing] : [];
      });
      if (ids.length === 0) return [];
      const unique = [...new Set(ids)];
      const items = await memberItems(client, collection, unique.length, [{ _id: { $in: unique } }]);
      return items.map((item) => ({ collection, item }));
    }),
  );
  return joined.flat().sort((a, b) => (a.item.outing?.startsAt ?? "").localeCompare(b.item.outing?.startsAt ?? ""));
}
