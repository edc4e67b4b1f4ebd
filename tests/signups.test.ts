import { members } from "@wix/members";
import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberOutings, outingCollectionByRoute, type CollectionWithOutings } from "@/lib/site-config";
import { sessionClient } from "@/lib/wix/client";
import { joinRoster, leaveRoster, organiserView } from "@/lib/wix/rosters";
import { cancelOuting, hasJoined, joinedOutings, joinOuting, outingBySlug, takenPlaces, whoIsGoing } from "@/lib/wix/signups";
import type { SiteItem } from "@/lib/wix/site-item";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

/** Members joining outings through the site's own functions, against the real local platform. */

const outings = outingCollectionByRoute("outings") as CollectionWithOutings;
const SIGNUPS = outings.outing.signupsCollectionId;

let platform: TestPlatform;
let dana: string;
let rowan: string;
const clientOf = (memberId: string) =>
  sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: LOCAL_CLIENT_ID }).accessToken);
const signupsOf = async (outingId: string) => (await platform.adminClient().items.query(SIGNUPS).eq("outing", outingId).find()).items;
/** Sign-ups by other members (written with the admin key, which may name their author), so an outing is nearly full. */
const fillBy = (collection: CollectionWithOutings, outingId: string, count: number) =>
  platform.adminClient().items.bulkInsert(
    SIGNUPS,
    Array.from({ length: count }, (_, index) => ({ collection: collection.collectionId, outing: outingId, _owner: `other-member-${index}` })),
  );

beforeAll(async () => {
  platform = await startTestPlatform();
  dana = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
  rowan = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
});
afterAll(() => platform.close());

describe("joining an outing", () => {
  it("takes one place however often the member joins, and gives it back on cancelling", async () => {
    expect(await joinOuting(clientOf(dana), outings, "event-1", dana)).toBe("joined");
    expect(await joinOuting(clientOf(dana), outings, "event-1", dana)).toBe("already-joined");
    expect(await hasJoined(clientOf(dana), outings, "event-1", dana)).toBe(true);
    expect(await hasJoined(clientOf(rowan), outings, "event-1", rowan)).toBe(false);
    expect((await signupsOf("event-1")).map((signup) => signup._owner)).toEqual([dana]);

    await cancelOuting(clientOf(dana), outings, "event-1", dana);
    // Cancelling what is already cancelled is no error.
    await cancelOuting(clientOf(dana), outings, "event-1", dana);
    expect(await signupsOf("event-1")).toEqual([]);
  });

  it("refuses a member once the outing is full", async () => {
    // Tide Pool Discovery has 15 places.
    await fillBy(outings, "event-2", 14);
    expect(await joinOuting(clientOf(dana), outings, "event-2", dana)).toBe("joined");
    expect(await joinOuting(clientOf(rowan), outings, "event-2", rowan)).toBe("full");
    expect(await signupsOf("event-2")).toHaveLength(15);
    expect(await takenPlaces(outings, ["event-2", "event-3"])).toEqual({ "event-2": 15, "event-3": 0 });
  });

  it("gives the last place to one of two members joining at the same moment", async () => {
    // Birding by the Lake has 18 places.
    await fillBy(outings, "event-4", 17);
    const outcomes = await Promise.all([joinOuting(clientOf(dana), outings, "event-4", dana), joinOuting(clientOf(rowan), outings, "event-4", rowan)]);
    expect(outcomes.sort()).toEqual(["full", "joined"]);
    expect(await signupsOf("event-4")).toHaveLength(18);
  });

  it("counts one place per member, however many sign-ups a member writes through the data API", async () => {
    // Rowan fills Family Creek Walk (30 places) and the first members' outing straight through
    // the data API, the second through the public sign-ups, which do not count for it.
    const rowans = clientOf(rowan).items;
    const madeUp = { collection: outings.collectionId, outing: "event-1" };
    await Promise.all(Array.from({ length: 30 }, () => rowans.insert(SIGNUPS, madeUp)));
    await rowans.bulkInsert(
      SIGNUPS,
      Array.from({ length: 12 }, () => ({ collection: memberOutings.collectionId, outing: "outing-1" })),
    );
    expect(await takenPlaces(outings, ["event-1"])).toEqual({ "event-1": 1 });
    expect(await takenPlaces(memberOutings, ["outing-1"], clientOf(dana))).toEqual({ "outing-1": 0 });

    expect(await joinOuting(clientOf(dana), outings, "event-1", dana)).toBe("joined");
    expect(await joinOuting(clientOf(dana), memberOutings, "outing-1", dana)).toBe("joined");
    expect(await takenPlaces(outings, ["event-1", "event-3"])).toEqual({ "event-1": 2, "event-3": 0 });
    expect(await takenPlaces(memberOutings, ["outing-1"], clientOf(rowan))).toEqual({ "outing-1": 1 });
    await cancelOuting(clientOf(dana), outings, "event-1", dana);
    await cancelOuting(clientOf(dana), memberOutings, "outing-1", dana);
    await cancelOuting(clientOf(rowan), outings, "event-1", rowan);
    expect(await signupsOf("event-1")).toEqual([]);
  });

  it("lets no sign-up written beforehand stand in for a member's own", async () => {
    // Rowan writes the sign-ups a join by Dana could be expected to write, under guessed ids.
    const guesses = [`${outings.collectionId}-event-3-${dana}`, `${SIGNUPS}-event-3-${dana}`, dana];
    await clientOf(rowan).items.bulkInsert(
      SIGNUPS,
      guesses.map((_id) => ({ _id, collection: outings.collectionId, outing: "event-3" })),
    );
    expect(await hasJoined(clientOf(dana), outings, "event-3", dana)).toBe(false);

    expect(await joinOuting(clientOf(dana), outings, "event-3", dana)).toBe("joined");
    expect(await hasJoined(clientOf(dana), outings, "event-3", dana)).toBe(true);
    const danas = (await signupsOf("event-3")).filter((signup) => signup._owner === dana);
    expect(danas).toHaveLength(1);
    expect(guesses).not.toContain(danas[0]._id);

    await cancelOuting(clientOf(dana), outings, "event-3", dana);
    expect(await hasJoined(clientOf(dana), outings, "event-3", dana)).toBe(false);
    // Rowan's own sign-ups are his to cancel.
    expect((await signupsOf("event-3")).map((signup) => signup._id).sort()).toEqual([...guesses].sort());
    await cancelOuting(clientOf(rowan), outings, "event-3", rowan);
  });

  it("knows no outing that is not there", async () => {
    expect(await joinOuting(clientOf(dana), outings, "event-404", dana)).toBe("not-found");
    expect(await signupsOf("event-404")).toEqual([]);
  });
});

describe("the member's outings", () => {
  it("lists public and members' outings the member joined, soonest first, in each outing's zone", async () => {
    const goatPass = (await outingBySlug(clientOf(rowan), memberOutings, "goat-pass-shuttle-trip"))!;
    expect(goatPass.outing).toEqual({
      startsAt: "2027-01-16T12:45:00.000Z",
      timeZone: "America/Denver",
      capacity: 10,
      hours: 9,
      place: "Goat Creek bridge, Alder Springs, CO",
      placeAt: { latitude: 38.8024, longitude: -106.2051 },
    });
    expect(await joinOuting(clientOf(rowan), memberOutings, goatPass.id, rowan)).toBe("joined");
    const joined = await joinedOutings(clientOf(rowan), rowan);
    const rowansOutings = joined.map(({ collection, item }) => [collection.route, item.title]);
    // Rowan may or may not have won the race for Birding by the Lake above.
    expect(rowansOutings.filter(([, title]) => title !== "Birding by the Lake")).toEqual([["member-outings", "Goat Pass Shuttle Trip"]]);
    expect(joined.find(({ item }) => item.id === goatPass.id)!.item.fields.meetAt.value).toEqual({ type: "time", text: "05:30", zone: "MST" });

    const danas = await joinedOutings(clientOf(dana), dana);
    expect(danas.map(({ item }) => item.id)).not.toContain(goatPass.id);
  });
});

describe("who is going", () => {
  it("names the members whose profiles the asking member may see, in the order they joined, and counts the private ones", async () => {
    // A members' outing nobody else joins in these tests.
    const [collection, id] = [memberOutings, "outing-3"];
    expect(await whoIsGoing(clientOf(rowan), collection, id)).toEqual({ named: [], unnamed: 0, hidden: [] });
    expect(await joinOuting(clientOf(dana), collection, id, dana)).toBe("joined");
    expect(await joinOuting(clientOf(rowan), collection, id, rowan)).toBe("joined");
    // Another member joins and then leaves the community: their profile turns private.
    const quiet = await privateMember();
    expect(await joinOuting(clientOf(quiet), collection, id, quiet)).toBe("joined");

    const seen = await whoIsGoing(clientOf(rowan), collection, id);
    expect(seen.named.map((member) => [member.name, member.slug])).toEqual([
      ["Dana", "dana"],
      ["Rowan", "rowan"],
    ]);
    expect(seen.unnamed).toBe(1);
    expect(seen.hidden).toEqual([quiet]);
    // The private member's profile is still theirs to see: they find themselves named, the others none the wiser.
    expect(await whoIsGoing(clientOf(quiet), collection, id)).toMatchObject({ unnamed: 0, named: [{ slug: "dana" }, { slug: "rowan" }, { name: "Quiet" }] });
  });
});

describe("the organiser's roster", () => {
  // The demo member organises this members' outing; the seed granted her the rosters.
  const [collection, id] = [memberOutings, "outing-2"];
  /** Joins as the site's join button does: the roster entry first, then the place. */
  const join = async (memberId: string) => {
    await joinRoster(clientOf(memberId), collection, id, memberId);
    return joinOuting(clientOf(memberId), collection, id, memberId);
  };
  const outing = async () => (await outingBySlug(clientOf(rowan), collection, "desert-sunset-hike"))!;
  const asSeenBy = async (memberId: string, item: SiteItem) =>
    organiserView(clientOf(memberId), collection, item, memberId, await whoIsGoing(clientOf(memberId), collection, id));

  it("names the members with private profiles to the organiser alone, marked apart from the public ones", async () => {
    const item = await outing();
    expect(item.outing?.organiserId).toBe(dana);
    const quiet = await privateMember();
    expect(await join(quiet)).toBe("joined");
    expect(await join(rowan)).toBe("joined");
    // A roster entry written straight through the data API, with no place: it names nobody.
    const loner = await privateMember();
    await clientOf(loner).items.insert(collection.outing.organiser!.rosterCollectionId, { collection: collection.collectionId, outing: id, name: "No place" });

    const organisers = await asSeenBy(dana, item);
    expect(organisers.named.map((member) => member.name)).toEqual(["Rowan"]);
    expect(organisers.privateGoers).toEqual([{ id: quiet, name: "Quiet" }]);
    expect(organisers.unnamed).toBe(0);
    // Rowan is no organiser: the private member is counted, as before.
    expect(await asSeenBy(rowan, item)).toEqual({ named: [expect.objectContaining({ name: "Rowan" })], unnamed: 1, hidden: [quiet] });
    // An outing naming Rowan its organiser does not make him one: the platform lets him read only his own entry.
    const rowans = await asSeenBy(rowan, { ...item, outing: { ...item.outing!, organiserId: rowan } });
    expect(rowans.privateGoers).toEqual([]);
    expect(rowans.unnamed).toBe(1);

    // Cancelling takes the member off the roster with their place.
    await leaveRoster(clientOf(quiet), collection, id, quiet);
    await cancelOuting(clientOf(quiet), collection, id, quiet);
    expect(await asSeenBy(dana, item)).toEqual({ named: [expect.objectContaining({ name: "Rowan" })], unnamed: 0, hidden: [] });
    expect((await platform.adminClient().items.query(collection.outing.organiser!.rosterCollectionId).eq("_owner", quiet).find()).items).toEqual([]);
  });
});

/** A member with a private profile: made with the admin key, then left the community. */
async function privateMember(): Promise<string> {
  const admin = createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
  const created = await admin.members.createMember({ member: { loginEmail: `quiet-${Date.now()}@ridgeline.example`, profile: { nickname: "Quiet" } } });
  const memberId = created._id!;
  await clientOf(memberId).members.leaveCommunity();
  return memberId;
}
