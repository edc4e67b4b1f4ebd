import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberOutings, outingCollectionByRoute, type CollectionWithOutings } from "@/lib/site-config";
import { sessionClient } from "@/lib/wix/client";
import { cancelOuting, hasJoined, joinedOutings, joinOuting, outingBySlug, takenPlaces } from "@/lib/wix/signups";
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
/** Sign-ups by others (written with the admin key), so an outing is nearly full. */
const fillBy = (collection: CollectionWithOutings, outingId: string, count: number) =>
  platform.adminClient().items.bulkInsert(
    SIGNUPS,
    Array.from({ length: count }, (_, index) => ({ _id: `other-${outingId}-${index}`, collection: collection.collectionId, outing: outingId })),
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

  it("knows no outing that is not there", async () => {
    expect(await joinOuting(clientOf(dana), outings, "event-404", dana)).toBe("not-found");
    expect(await signupsOf("event-404")).toEqual([]);
  });
});

describe("the member's outings", () => {
  it("lists public and members' outings the member joined, soonest first, in each outing's zone", async () => {
    const goatPass = (await outingBySlug(clientOf(rowan), memberOutings, "goat-pass-shuttle-trip"))!;
    expect(goatPass.outing).toEqual({ startsAt: "2027-01-16T12:45:00.000Z", timeZone: "America/Denver", capacity: 10 });
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
