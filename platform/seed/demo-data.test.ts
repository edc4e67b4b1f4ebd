import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeOf, idsOf, memberClient } from "../data/test-support";
import { startTestPlatform, type TestPlatform } from "../testing";
import { MEMBERS_OUTING_SIGNUPS, MEMBERS_OUTINGS, ORGANISED_OUTING, OUTING_ROSTERS, OUTING_SIGNUPS, TRAIL_REPORTS } from "./demo-content";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER, seedLaterDemoCollections, seedOrganiser, seedTrailReports } from "./seed";

/** The seeded demo site, read and written through the real `@wix/data` client. */

let platform: TestPlatform;
let danaId: string;
let rowanId: string;
const dana = () => memberClient(platform, danaId).items;
const rowan = () => memberClient(platform, rowanId).items;
const visitor = () => platform.visitorClient().items;

beforeAll(async () => {
  platform = await startTestPlatform();
  danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
  rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
});
afterAll(() => platform.close());

describe("members-only outings", () => {
  it("are refused to visitors with WDE0027 and kept out of the public events", async () => {
    expect(await codeOf(visitor().query(MEMBERS_OUTINGS).find())).toBe("WDE0027");
    expect(await codeOf(visitor().get(MEMBERS_OUTINGS, "outing-1"))).toBe("WDE0027");
    const events = (await visitor().query("Events").find()).items;
    expect(events.map((event) => event.title)).toEqual(["Family Creek Walk", "Tide Pool Discovery", "Winter Solstice Lantern Walk", "Birding by the Lake"]);
    expect(events.every((event) => !("membersOnly" in event))).toBe(true);
  });

  it("are read by any signed-in member, with their trail", async () => {
    const outings = await dana().query(MEMBERS_OUTINGS).ascending("startsAt").include("trail").find();
    expect(outings.items.map((outing) => outing.title)).toEqual(["Sunrise on the Summit", "Desert Sunset Hike", "Trail Care Day", "Goat Pass Shuttle Trip"]);
    expect(outings.items[0].trail).toMatchObject({ _id: "trail-summit-loop", title: "Summit Loop" });
    expect(await codeOf(dana().insert(MEMBERS_OUTINGS, { title: "Mine" }))).toBe("WDE0027");
  });
});

describe("outing times", () => {
  it("carry their own zone, with the meeting time on the clocks where the outing is", async () => {
    const sunrise = await dana().get(MEMBERS_OUTINGS, "outing-1");
    // 06:30 in Denver in December (MST, UTC-7) is 13:30 UTC; people meet a quarter of an hour earlier.
    expect(sunrise).toMatchObject({ timeZone: "America/Denver", meetAt: "06:15", startsAt: new Date("2026-12-05T13:30:00.000Z") });
    const events = (await visitor().query("Events").find()).items;
    expect(events.map((event) => [event.timeZone, event.meetAt])).toEqual([
      ["Europe/London", "09:45"],
      ["America/Los_Angeles", "08:45"],
      ["Europe/London", "15:45"],
      ["Europe/London", "06:45"],
    ]);
  });
});

describe("outing sign-ups", () => {
  it("are written by members, read by anyone, and cancelled by their author only", async () => {
    const signup = { collection: "Events", outing: "event-1" };
    expect(await codeOf(visitor().insert(OUTING_SIGNUPS, signup))).toBe("WDE0027");
    const danas = await dana().insert(OUTING_SIGNUPS, signup);
    expect(danas._owner).toBe(danaId);
    await rowan().insert(OUTING_SIGNUPS, signup);
    const counted = await visitor().query(OUTING_SIGNUPS).eq("outing", "event-1").count();
    expect(counted).toBe(2);

    expect(await codeOf(rowan().remove(OUTING_SIGNUPS, danas._id!))).toBe("WDE0027");
    expect(await codeOf(rowan().update(OUTING_SIGNUPS, { ...danas, outing: "event-2" }))).toBe("WDE0027");
    expect(await codeOf(visitor().remove(OUTING_SIGNUPS, danas._id!))).toBe("WDE0027");
    await dana().remove(OUTING_SIGNUPS, danas._id!);
    expect(await visitor().query(OUTING_SIGNUPS).eq("outing", "event-1").count()).toBe(1);
  });

  it("for members' outings are read by members only: a visitor cannot learn who joined", async () => {
    const signup = { collection: MEMBERS_OUTINGS, outing: "outing-1" };
    const danas = await dana().insert(MEMBERS_OUTING_SIGNUPS, signup);
    expect(danas._owner).toBe(danaId);
    expect(await codeOf(visitor().query(MEMBERS_OUTING_SIGNUPS).eq("outing", "outing-1").find())).toBe("WDE0027");
    expect(await codeOf(visitor().get(MEMBERS_OUTING_SIGNUPS, danas._id!))).toBe("WDE0027");
    expect(await codeOf(visitor().aggregate(MEMBERS_OUTING_SIGNUPS).group("_owner").run())).toBe("WDE0027");
    // Members see who joined, as on a public outing; only the author may cancel.
    expect((await rowan().query(MEMBERS_OUTING_SIGNUPS).eq("outing", "outing-1").find()).items.map((item) => item._owner)).toEqual([danaId]);
    expect(await codeOf(rowan().remove(MEMBERS_OUTING_SIGNUPS, danas._id!))).toBe("WDE0027");
    await dana().remove(MEMBERS_OUTING_SIGNUPS, danas._id!);
  });
});

describe("organisers' rosters", () => {
  const ownerOf = (row: Record<string, unknown>) => row._owner;
  const entry = { collection: MEMBERS_OUTINGS, outing: ORGANISED_OUTING.id };

  it("name the demo member as the organiser of one outing, which members read", async () => {
    const organised = await rowan().get(MEMBERS_OUTINGS, ORGANISED_OUTING.id);
    expect(organised?.organiser).toBe(danaId);
    expect((await rowan().query(MEMBERS_OUTINGS).isNotEmpty("organiser").find()).items.map((item) => item._id)).toEqual([ORGANISED_OUTING.id]);
  });

  it("are written by each member for themselves and read by the organiser alone, whose grant the platform holds", async () => {
    const rowans = await rowan().insert(OUTING_ROSTERS, { ...entry, name: "Rowan" });
    expect(rowans._owner).toBe(rowanId);
    expect(await codeOf(visitor().insert(OUTING_ROSTERS, { ...entry, name: "Visitor" }))).toBe("WDE0027");

    const danas = await dana().insert(OUTING_ROSTERS, { ...entry, name: "Dana" });
    const everyone = [
      ["Rowan", rowanId],
      ["Dana", danaId],
    ];
    // Dana holds the special permission to read: she sees every entry. Rowan, a member like any other, sees his own only; a visitor none.
    expect(
      (await dana().query(OUTING_ROSTERS).eq("outing", ORGANISED_OUTING.id).ascending("_createdDate").find()).items.map((item) => [item.name, item._owner]),
    ).toEqual(everyone);
    const authors = async (items: typeof dana) => (await items().aggregate(OUTING_ROSTERS).group("_owner").ascending("_owner").run()).items.map(ownerOf);
    expect(await authors(dana)).toEqual([danaId, rowanId].sort());
    expect((await rowan().query(OUTING_ROSTERS).find()).items.map((item) => item.name)).toEqual(["Rowan"]);
    expect(await rowan().get(OUTING_ROSTERS, danas._id!)).toBeNull();
    expect(await authors(rowan)).toEqual([rowanId]);
    expect((await visitor().query(OUTING_ROSTERS).find()).items).toEqual([]);

    // Reading is all the grant allows: the organiser changes and removes nobody's entry.
    expect(await codeOf(dana().update(OUTING_ROSTERS, { ...rowans, name: "Changed by Dana" }))).toBe("WDE0027");
    expect(await codeOf(dana().remove(OUTING_ROSTERS, rowans._id!))).toBe("WDE0027");
    await rowan().remove(OUTING_ROSTERS, rowans._id!);
    await dana().remove(OUTING_ROSTERS, danas._id!);
    expect((await dana().query(OUTING_ROSTERS).find()).items).toEqual([]);
  });

  it("are seeded once: a database whose rosters have a grant is left alone", () => {
    const { data, identities } = platform.ctx;
    expect(data.specialPermissions.list(OUTING_ROSTERS).map((grant) => [grant.userId, grant.allowed])).toEqual([[danaId, ["read"]]]);
    expect(seedOrganiser(data, identities)).toBe(false);
  });

  it("are added, with the organiser's grant, to a database the demo seeded before they existed", () => {
    const { data, identities } = platform.ctx;
    data.deleteCollection(OUTING_ROSTERS);
    expect(seedLaterDemoCollections(data)).toBe(true);
    seedOrganiser(data, identities);
    expect(data.findCollection(OUTING_ROSTERS)?.permissions).toEqual(expect.objectContaining({ read: "SITE_MEMBER_AUTHOR" }));
    expect(data.specialPermissions.list(OUTING_ROSTERS).map((grant) => [grant.userId, grant.allowed])).toEqual([[danaId, ["read"]]]);
    expect(seedLaterDemoCollections(data)).toBe(false);
  });
});

describe("trail reports", () => {
  it("are public to read and written by both demo members", async () => {
    const reports = (await visitor().query(TRAIL_REPORTS).find()).items;
    expect(reports).toHaveLength(5);
    expect(reports.filter((report) => report._owner === danaId)).toHaveLength(2);
    expect(reports.filter((report) => report._owner === rowanId)).toHaveLength(3);
    expect(reports[0]).toMatchObject({
      trail: expect.stringMatching(/^trail-/),
      title: expect.any(String),
      body: expect.any(String),
      rating: expect.any(Number),
      hikedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it("may be inserted by members only", async () => {
    const report = { trail: "trail-arch-spur", title: "Golden hour", body: "Arrived ten minutes before sunset.", rating: 5, hikedOn: "2026-11-20" };
    expect(await codeOf(visitor().insert(TRAIL_REPORTS, report))).toBe("WDE0027");
    const inserted = await dana().insert(TRAIL_REPORTS, { _id: "report-dana-new", ...report });
    expect(inserted._owner).toBe(danaId);
  });

  it("are updated and removed by their author only", async () => {
    const rowansReport = (await visitor().query(TRAIL_REPORTS).eq("_owner", rowanId).find()).items[0];
    expect(await codeOf(dana().update(TRAIL_REPORTS, { ...rowansReport, title: "Changed by Dana" }))).toBe("WDE0027");
    expect(await codeOf(dana().remove(TRAIL_REPORTS, rowansReport._id!))).toBe("WDE0027");
    expect(await codeOf(visitor().remove(TRAIL_REPORTS, rowansReport._id!))).toBe("WDE0027");

    expect((await rowan().update(TRAIL_REPORTS, { ...rowansReport, rating: 2 })).rating).toBe(2);
    expect((await dana().patch(TRAIL_REPORTS, "report-dana-new").setField("rating", 4).run()).rating).toBe(4);
    await rowan().remove(TRAIL_REPORTS, rowansReport._id!);
    expect(idsOf((await visitor().query(TRAIL_REPORTS).eq("_owner", rowanId).find()).items)).toHaveLength(2);
  });
});

describe("seeding trail reports", () => {
  it("fills only an empty reports collection", () => {
    const { data, identities } = platform.ctx;
    expect(seedTrailReports(data, identities)).toBe(false);
    data.truncate(TRAIL_REPORTS);
    expect(seedTrailReports(data, identities)).toBe(true);
    expect(data.count(TRAIL_REPORTS, {})).toBe(5);
  });
});
