import "server-only";
import { z } from "zod";
import type { CollectionWithOutings } from "@/lib/site-config";
import type { WixClient } from "./client";
import { currentMember } from "./members";
import type { Goers } from "./signups";
import type { SiteItem } from "./site-item";

/**
 * The organisers' rosters (docs/outings.md, "The organiser"). A member who joins an outing writes
 * their own name to the roster, with their own session; the platform stamps them as the entry's
 * author, and only they read, change or remove it, but for the members the site's owner granted
 * the special permission to read the rosters. So an organiser sees the name of a member whose
 * profile is private because the platform lets them read it, not because the site decided so:
 * the site holds no key that reads more than the member asking.
 */

const entryOf = (collection: CollectionWithOutings, outingId: string) => ({ collection: collection.collectionId, outing: outingId });

/** Most entries one member is expected to hold for one outing (several only after presses in two tabs at once). */
const OWN_ENTRIES = 100;

/** The ids of the member's own entries on the outing's roster (filtered by author: an organiser reads everyone's). */
async function ownEntries(client: WixClient, rosterId: string, entry: ReturnType<typeof entryOf>, memberId: string): Promise<string[]> {
  const found = await client.items.query(rosterId, { filter: { ...entry, _owner: memberId }, paging: { limit: OWN_ENTRIES, offset: 0 } }, {});
  return found.items.map((item) => item._id).filter((id): id is string => typeof id === "string");
}

/** Puts the member on the outing's roster under the name their profile shows them, unless they are on it already. */
export async function joinRoster(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<void> {
  const roster = collection.outing.organiser;
  if (!roster) return;
  const entry = entryOf(collection, outingId);
  if ((await ownEntries(client, roster.rosterCollectionId, entry, memberId)).length > 0) return;
  await client.items.insert(roster.rosterCollectionId, { ...entry, name: (await currentMember(client)).name });
}

/** Takes the member off the outing's roster: every entry of theirs for it. */
export async function leaveRoster(client: WixClient, collection: CollectionWithOutings, outingId: string, memberId: string): Promise<void> {
  const roster = collection.outing.organiser;
  if (!roster) return;
  const ids = await ownEntries(client, roster.rosterCollectionId, entryOf(collection, outingId), memberId);
  if (ids.length > 0) await client.items.bulkRemove(roster.rosterCollectionId, ids);
}

/** One row of the roster's aggregation: an author and the first of their names. */
const rosterRow = z.object({ _owner: z.string().min(1), nameMin: z.string().min(1) });

/**
 * Who is going as the outing's organiser sees them: besides the members any member sees, the
 * members going whose profiles are hidden from them, named from the roster and marked private.
 * Anyone else gets `goers` as they are. Only place holders are named: a roster entry without a
 * place is nobody going. An organiser the owner never granted the rosters reads only their own
 * entry there, so they see what any member sees.
 */
export async function organiserView(client: WixClient, collection: CollectionWithOutings, item: SiteItem, memberId: string, goers: Goers): Promise<Goers> {
  const roster = collection.outing.organiser;
  if (!roster || item.outing?.organiserId !== memberId || goers.hidden.length === 0) return goers;
  const found = await client.items
    .aggregate(roster.rosterCollectionId)
    .filter(client.items.filter().eq("collection", collection.collectionId).eq("outing", item.id).hasSome("_owner", goers.hidden))
    .group("_owner")
    .min("name")
    .limit(goers.hidden.length)
    .run();
  const names = new Map<string, string>();
  for (const row of found.items) {
    const parsed = rosterRow.safeParse(row);
    if (parsed.success) names.set(parsed.data._owner, parsed.data.nameMin);
  }
  const privateGoers = goers.hidden.flatMap((id) => {
    const name = names.get(id);
    return name ? [{ id, name }] : [];
  });
  return { ...goers, privateGoers, unnamed: goers.unnamed - privateGoers.length };
}
