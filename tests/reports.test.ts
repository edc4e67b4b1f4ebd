import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { members as membersModule } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionClient } from "@/lib/wix/client";
import { TokenRefusedError } from "@/lib/wix/errors";
import { deleteReportSchema, editReportSchema, newReportSchema } from "@/lib/reports/forms";
import { reportedCollections, type CollectionWithReports } from "@/lib/site-config";
import { editReport, removeReport, reportsAbout, reportsBy, toReport, writeReport } from "@/lib/wix/reports";
import { LOCAL_CLIENT_ID } from "@/platform/config";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "@/platform/seed/seed";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

const trails = reportedCollections.find((collection) => collection.route === "trails") as CollectionWithReports;
const reports = trails.memberReports;

describe("the report forms", () => {
  const valid = { trailId: "trail-1", title: "  Muddy  ", body: "Boots, not trainers.", rating: "4", hikedOn: "2026-11-01" };

  it("accepts a report, trimmed, with the rating as a number", () => {
    expect(newReportSchema.parse(valid)).toEqual({ ...valid, title: "Muddy", rating: 4 });
  });

  it("refuses each bad field with its own message", () => {
    const problems = (input: Record<string, unknown>) => newReportSchema.safeParse(input).error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(problems({ ...valid, title: "   " })).toEqual([["title", "Give your report a title."]]);
    expect(problems({ ...valid, rating: "6" })).toEqual([["rating", "Rate the walk from 1 to 5."]]);
    expect(problems({ ...valid, rating: "2.5" })).toEqual([["rating", "Rate the walk with a whole number from 1 to 5."]]);
    expect(problems({ ...valid, hikedOn: "2026-02-30" })).toEqual([["hikedOn", "That day does not exist."]]);
    expect(problems({ ...valid, hikedOn: "2999-01-01" })).toEqual([["hikedOn", "That day is still to come."]]);
    expect(problems({ ...valid, body: "x".repeat(4001) })).toEqual([["body", "Keep the report to 4,000 characters."]]);
    expect(problems({ ...valid, trailId: undefined })?.[0][0]).toBe("trailId");
  });

  it("needs the report's id to edit or delete", () => {
    expect(editReportSchema.safeParse({ ...valid, reportId: "" }).success).toBe(false);
    expect(deleteReportSchema.parse({ reportId: "report-1" })).toEqual({ reportId: "report-1" });
  });
});

describe("reshaping a stored report", () => {
  const stored = {
    _id: "r1",
    _owner: "m1",
    title: "Snow",
    body: "<b>deep</b>",
    rating: 4,
    hikedOn: "2026-10-18",
    _createdDate: new Date("2026-10-18T18:00:00Z"),
  };

  it("keeps the text as it is (shown as plain text) and names the item", () => {
    expect(toReport(trails, { ...stored, trail: "trail-goat-pass" })).toEqual({
      id: "r1",
      itemId: "trail-goat-pass",
      about: undefined,
      title: "Snow",
      body: "<b>deep</b>",
      rating: 4,
      hikedOn: "2026-10-18",
      authorId: "m1",
      createdAt: "2026-10-18T18:00:00.000Z",
    });
  });

  it("links the item's page when the reference was included", () => {
    const report = toReport(trails, { ...stored, trail: { _id: "trail-goat-pass", title: "Goat Pass", slug: "goat pass" } });
    expect(report?.about).toEqual({ title: "Goat Pass", href: "/trails/goat%20pass" });
  });

  it("drops a report about nothing and survives junk in its fields", () => {
    expect(toReport(trails, { ...stored, trail: null })).toBeNull();
    expect(toReport(trails, null)).toBeNull();
    expect(toReport(trails, { _id: "r2", trail: "t", rating: 99, hikedOn: "soon", title: 5 })).toMatchObject({ rating: 3, hikedOn: "", title: "" });
  });
});

describe("trail reports on the local platform", () => {
  let platform: TestPlatform;
  let dana: string;
  let rowan: string;
  const clientOf = (memberId: string) =>
    sessionClient(platform.ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: LOCAL_CLIENT_ID }).accessToken);
  const content = { title: "Fresh gravel", body: "New surface up to the saddle.\nTwo benches.", rating: 5, hikedOn: "2026-11-20" };

  beforeAll(async () => {
    platform = await startTestPlatform();
    dana = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    rowan = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
  });
  afterAll(() => platform.close());

  it("lists an item's reports newest walk first, with their authors' public names and profiles", async () => {
    const { reports: found, pageCount } = await reportsAbout(trails, "trail-mirror-lakes");
    expect(pageCount).toBe(1);
    expect(found.map((report) => [report.title, report.author?.name, report.authorId === dana])).toEqual([["Still water at the second tarn", "Dana", true]]);
    expect(found[0].author?.slug).toBeTruthy();
  });

  it("lists a member's reports with the trails they are about", async () => {
    const { reports: found } = await reportsBy(trails, rowan);
    expect(found.map((report) => [report.hikedOn, report.about?.title])).toEqual([
      ["2026-11-08", "Hidden Cove Descent"],
      ["2026-10-18", "Goat Pass Traverse"],
      ["2026-08-30", "Red Canyon Rim"],
    ]);
    expect(found[0].about?.href).toBe("/trails/hidden-cove");
  });

  it("a member writes a report and it is listed; only its author edits or removes it", async () => {
    expect(await writeReport(clientOf(dana), reports, "trail-cedar-creek", content)).toEqual({ ok: true });
    // Nothing has read this trail's reports yet, so this read goes to the platform.
    const mine = (await reportsAbout(trails, "trail-cedar-creek")).reports.find((report) => report.title === content.title)!;
    expect(mine).toMatchObject({ ...content, authorId: dana, author: { name: "Dana" } });
    const stored = () => platform.adminClient().items.get(reports.collectionId, mine.id);

    expect(await editReport(clientOf(rowan), reports, mine.id, { ...content, title: "Rowan was here" })).toEqual({ ok: false, reason: "not-author" });
    expect(await removeReport(clientOf(rowan), reports, mine.id)).toEqual({ ok: false, reason: "not-author" });
    expect(await stored()).toMatchObject({ title: content.title, rating: 5 });

    expect(await editReport(clientOf(dana), reports, mine.id, { ...content, rating: 3, body: "Edited." })).toEqual({ ok: true });
    expect(await stored()).toMatchObject({ title: content.title, rating: 3, body: "Edited.", trail: "trail-cedar-creek", _owner: dana });

    expect(await removeReport(clientOf(dana), reports, mine.id)).toEqual({ ok: true });
    expect(await stored()).toBeNull();
    expect(await editReport(clientOf(dana), reports, mine.id, content)).toEqual({ ok: false, reason: "not-found" });
  });

  it("a muted member may neither publish nor change a report, and what they wrote stays; unmuted, they write again", async () => {
    const members = createClient({ modules: { members: membersModule }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
    const rowansTitles = async () =>
      (await platform.adminClient().items.query(reports.collectionId, { filter: { _owner: rowan }, paging: { limit: 50 } })).items.map((item) => item.title);
    expect(await writeReport(clientOf(rowan), reports, "trail-cedar-creek", content)).toEqual({ ok: true });
    const written = (await platform.adminClient().items.query(reports.collectionId, { filter: { _owner: rowan, title: content.title } })).items[0] as {
      _id: string;
    };
    await members.members.muteMember(rowan);
    try {
      expect(await writeReport(clientOf(rowan), reports, "trail-cedar-creek", { ...content, title: "Muted words" })).toEqual({ ok: false, reason: "muted" });
      expect(await editReport(clientOf(rowan), reports, written._id, { ...content, title: "Changed while muted" })).toEqual({ ok: false, reason: "muted" });
      expect(await platform.adminClient().items.get(reports.collectionId, written._id)).toMatchObject({ title: content.title, _owner: rowan });
      expect(await rowansTitles()).not.toContain("Muted words");
      // Other members are not muted with them.
      expect(await editReport(clientOf(dana), reports, written._id, content)).toEqual({ ok: false, reason: "not-author" });
      // Taking their own words down stays open.
      expect(await removeReport(clientOf(rowan), reports, written._id)).toEqual({ ok: true });
    } finally {
      await members.members.unmuteMember(rowan);
    }
    expect(await writeReport(clientOf(rowan), reports, "trail-cedar-creek", { ...content, title: "Back again" })).toEqual({ ok: true });
    expect(await rowansTitles()).toContain("Back again");
  });

  it("a member the owner blocks can write nothing: the block ends their tokens, so the write is refused as the session's end", async () => {
    const members = createClient({ modules: { members: membersModule }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
    const created = await members.members.createMember({ member: { loginEmail: `blocked-${Date.now()}@ridgeline.example` } });
    const blocked = clientOf(created._id!);
    await members.members.blockMember(created._id!);
    await expect(writeReport(blocked, reports, "trail-cedar-creek", { ...content, title: "Blocked words" })).rejects.toBeInstanceOf(TokenRefusedError);
    const stored = await platform.adminClient().items.query(reports.collectionId, { filter: { title: "Blocked words" } });
    expect(stored.items).toEqual([]);
  });

  it("a visitor cannot write a report", async () => {
    const visitor = sessionClient(platform.ctx.tokens.issuePair({ role: "visitor", subjectId: "v-1", clientId: LOCAL_CLIENT_ID }).accessToken);
    expect(await writeReport(visitor, reports, "trail-cedar-creek", content)).toEqual({ ok: false, reason: "not-author" });
  });
});
