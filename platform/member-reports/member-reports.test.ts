import { createClient, OAuthStrategy } from "@wix/sdk";
import { memberReport, members } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { demoMembersWith } from "../identity/test-browser";
import { refusalOf, startTestPlatform, type TestPlatform } from "../testing";

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
