import { createClient, OAuthStrategy } from "@wix/sdk";
import { memberReport, members } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { hashPassword } from "../identity/passwords";
import { demoMembersWith, signInThroughHostedPage } from "../identity/test-browser";
import { refusalOf, refusalWithData, startTestPlatform, type TestPlatform } from "../testing";
import { openPlatformDatabase } from "../db";
import { IdentityStore } from "../identity/store";
import { MemberReportStore, migrateMemberReports, REPORTS_PER_MEMBER_PER_DAY } from "./store";

// `@wix/members` memberReport through the real client (docs/platform/member-reports.md).

const modules = { memberReport, members };
type Demo = Awaited<ReturnType<typeof demoMembersWith<typeof modules>>>;
let platform: TestPlatform;
let admin: Demo["admin"];
let dana: Demo["dana"];
let rowan: Demo["rowan"];
let danaId: string;
let rowanId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ admin, dana, rowan, danaId, rowanId } = await demoMembersWith(platform, modules));
});
afterAll(() => platform.close());

describe("reportMember", () => {
  it("records a member's report with its reason, the reporter and the date", async () => {
    const { memberReport: report } = await dana.memberReport.reportMember({ reportedMemberId: rowanId, reason: { category: "SPAM", description: "Links" } });
    expect(report).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reportedMemberId: rowanId,
      reportingMemberId: danaId,
      reason: { category: "SPAM", description: "Links" },
    });
    expect(report?._createdDate).toBeInstanceOf(Date);
    // An app's report has no reporting member.
    const byApp = await admin.memberReport.reportMember({ reportedMemberId: rowanId, reason: { category: "OTHER" } });
    expect(byApp.memberReport?.reportingMemberId).toBeNull();
  });

  it("refuses reporting oneself, a blocked member, an unknown or unseen one, a visitor, and an UNKNOWN category", async () => {
    expect(await refusalOf(dana.memberReport.reportMember({ reportedMemberId: danaId, reason: { category: "SPAM" } }))).toEqual({
      status: 400,
      code: "SELF_REPORTING_FORBIDDEN",
    });
    const moss = platform.ctx.identities.create({
      email: "moss@ridgeline.example",
      passwordHash: "x",
      nickname: "Moss",
      privacyStatus: "PUBLIC",
      status: "BLOCKED",
    })!;
    expect(await refusalOf(dana.memberReport.reportMember({ reportedMemberId: moss.id, reason: { category: "HARASSMENT" } }))).toEqual({
      status: 400,
      code: "CANNOT_REPORT_BLOCKED_MEMBER",
    });
    const quiet = platform.ctx.identities.create({ email: "quiet@ridgeline.example", passwordHash: "x", nickname: "Quiet" })!;
    expect(await refusalOf(dana.memberReport.reportMember({ reportedMemberId: quiet.id, reason: { category: "SPAM" } }))).toEqual({
      status: 404,
      code: "MEMBER_NOT_FOUND",
    });
    const visitor = createClient({ modules, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    expect(await refusalOf(visitor.memberReport.reportMember({ reportedMemberId: rowanId, reason: { category: "SPAM" } }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
    expect((await refusalOf(dana.memberReport.reportMember({ reportedMemberId: rowanId, reason: { category: "UNKNOWN" } }))).status).toBe(400);
  });
});

describe("the site owner's view", () => {
  it("queries the reports, with a filter the cursor keeps", async () => {
    await rowan.memberReport.reportMember({ reportedMemberId: danaId, reason: { category: "IMPERSONATION" } });
    const all = await admin.memberReport.queryMemberReports().find();
    expect(all.items.map((report) => [report.reportedMemberId, report.reason?.category])).toEqual([
      [rowanId, "SPAM"],
      [rowanId, "OTHER"],
      [danaId, "IMPERSONATION"],
    ]);
    const first = await admin.memberReport.queryMemberReports().eq("reportedMemberId", rowanId).limit(1).find();
    expect(first.items.map((report) => report.reason?.category)).toEqual(["SPAM"]);
    const second = await first.next();
    expect(second.items.map((report) => report.reason?.category)).toEqual(["OTHER"]);
    expect(second.hasNext()).toBe(false);
  });

  it("lists and queries the reported members with their counts", async () => {
    const listed = await admin.memberReport.listReportedMembers();
    const reportedMembers = listed.reportedMembers ?? [];
    expect(reportedMembers.map((reported) => [reported.reportedMemberId, reported.reportCount, reported.reviewed])).toEqual([
      [rowanId, "2", false],
      [danaId, "1", false],
    ]);
    expect(reportedMembers[0].lastReportDate).toBeInstanceOf(Date);
    expect(listed.pagingMetadata?.count).toBe(2);
    const paged = await admin.memberReport.listReportedMembers({ cursorPaging: { limit: 1 } });
    expect(paged.reportedMembers?.map((reported) => reported.reportedMemberId)).toEqual([rowanId]);
    const rest = await admin.memberReport.listReportedMembers({ cursorPaging: { limit: 1, cursor: paged.pagingMetadata!.cursors!.next! } });
    expect(rest.reportedMembers?.map((reported) => reported.reportedMemberId)).toEqual([danaId]);

    const queried = await admin.memberReport.queryReportedMembers({ query: { filter: { reportCount: "1" } } });
    expect(queried.reportedMembers?.map((reported) => reported.reportedMemberId)).toEqual([danaId]);
  });

  it("deletes a member's reports; reading and deleting are the site owner's alone", async () => {
    expect(await refusalOf(dana.memberReport.queryMemberReports().find())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalOf(dana.memberReport.listReportedMembers())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalOf(rowan.memberReport.deleteMemberReports(rowanId))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    await admin.memberReport.deleteMemberReports(rowanId);
    expect((await admin.memberReport.listReportedMembers()).reportedMembers?.map((reported) => reported.reportedMemberId)).toEqual([danaId]);
    // A deleted member's reports go with them.
    await admin.members.deleteMember(danaId);
    expect((await admin.memberReport.queryMemberReports().find()).items).toEqual([]);
  });
});

describe("one open report per reporter and member, and a limit", () => {
  const publicMember = (nickname: string) =>
    platform.ctx.identities.create({ email: `${nickname.toLowerCase()}@ridgeline.example`, passwordHash: "x", nickname, privacyStatus: "PUBLIC" })!.id;

  async function signedIn(nickname: string) {
    const password = "reports-the-ridge-42";
    const email = `${nickname.toLowerCase()}@ridgeline.example`;
    platform.ctx.identities.create({ email, passwordHash: await hashPassword(password), nickname, privacyStatus: "PUBLIC" });
    const { client } = await signInThroughHostedPage(platform.callbackUrl, { email, password });
    return createClient({ modules, auth: client.auth });
  }

  const reportsOf = async (memberId: string) => (await admin.memberReport.queryMemberReports().eq("reportedMemberId", memberId).find()).items;

  it("a second report of the same member updates the first: 30 reports are one", async () => {
    const kite = await signedIn("Kite");
    const heron = publicMember("Heron");
    const categories = ["SPAM", "HARASSMENT", "OTHER"] as const;
    const answers = [];
    for (let i = 0; i < 30; i++) {
      answers.push(await kite.memberReport.reportMember({ reportedMemberId: heron, reason: { category: categories[i % 3], description: `Report ${i}` } }));
    }
    const ids = new Set(answers.map((answer) => answer.memberReport?._id));
    expect(ids.size).toBe(1);
    const reports = await reportsOf(heron);
    expect(reports).toHaveLength(1);
    // The report says what the member said last, and keeps the date it was first made.
    expect(reports[0]).toMatchObject({ _id: [...ids][0], reason: { category: "OTHER", description: "Report 29" } });
    expect(reports[0]._createdDate).toEqual(answers[0].memberReport?._createdDate);
    const listed = (await admin.memberReport.listReportedMembers()).reportedMembers?.find((reported) => reported.reportedMemberId === heron);
    expect(listed?.reportCount).toBe("1");

    // Another member's report is a report of its own; once the site owner deletes the reports, a new one opens.
    const wren = await signedIn("Wren");
    await wren.memberReport.reportMember({ reportedMemberId: heron, reason: { category: "OTHER" } });
    expect(await reportsOf(heron)).toHaveLength(2);
    await admin.memberReport.deleteMemberReports(heron);
    const again = await kite.memberReport.reportMember({ reportedMemberId: heron, reason: { category: "SPAM" } });
    expect(again.memberReport?._id).not.toBe([...ids][0]);
    expect(await reportsOf(heron)).toHaveLength(1);
  });

  it(`a member may open at most ${REPORTS_PER_MEMBER_PER_DAY} reports a day; the site owner's key is not limited`, async () => {
    const lynx = await signedIn("Lynx");
    const targets = Array.from({ length: REPORTS_PER_MEMBER_PER_DAY + 1 }, (_, i) => publicMember(`Target${i}`));
    for (const target of targets.slice(0, REPORTS_PER_MEMBER_PER_DAY))
      await lynx.memberReport.reportMember({ reportedMemberId: target, reason: { category: "SPAM" } });
    const refusal = await refusalWithData(lynx.memberReport.reportMember({ reportedMemberId: targets.at(-1)!, reason: { category: "SPAM" } }));
    expect(refusal).toMatchObject({ status: 429, code: "THROTTLED_FEATURE", data: { retryAfterSeconds: expect.any(Number) } });
    expect(await reportsOf(targets.at(-1)!)).toHaveLength(0);
    // Updating a report already open is no new report.
    await lynx.memberReport.reportMember({ reportedMemberId: targets[0], reason: { category: "OTHER", description: "More" } });
    for (let i = 0; i < REPORTS_PER_MEMBER_PER_DAY + 1; i++)
      await admin.memberReport.reportMember({ reportedMemberId: targets.at(-1)!, reason: { category: "OTHER" } });
  });
});

describe("a database from before one report per reporter", () => {
  it("keeps the latest report of each reporter and member, and every app's report", () => {
    const db = openPlatformDatabase({ dataDir: "", inMemory: true });
    const identities = new IdentityStore(db);
    const [ash, elm] = ["ash", "elm"].map((name) => identities.create({ email: `${name}@ridgeline.example`, passwordHash: "x", nickname: name })!.id);
    db.exec("DROP INDEX member_reports_one_per_reporter");
    const store = new MemberReportStore(db);
    for (const description of ["first", "second", "latest"]) store.create({ reportedMemberId: elm, reportingMemberId: ash, category: "SPAM", description });
    for (let i = 0; i < 2; i++) store.create({ reportedMemberId: elm, reportingMemberId: null, category: "OTHER", description: null });
    migrateMemberReports(db);
    expect(store.all().map((report) => [report.reportingMemberId, report.description])).toEqual([
      [ash, "latest"],
      [null, null],
      [null, null],
    ]);
    expect(() => store.create({ reportedMemberId: elm, reportingMemberId: ash, category: "SPAM", description: null })).toThrow(/UNIQUE/);
    db.close();
  });
});
