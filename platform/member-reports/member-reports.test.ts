import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk";
import { memberReport, members } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { signInThroughHostedPage, type SiteClient } from "../identity/test-browser";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

// `@wix/members` memberReport through the real client (docs/platform/member-reports.md).

const modules = { memberReport, members };
let platform: TestPlatform;
let admin: ReturnType<typeof adminClient>;
let dana: ReturnType<typeof asMember>;
let rowan: ReturnType<typeof asMember>;
let danaId: string;
let rowanId: string;

function adminClient(apiKey: string) {
  return createClient({ modules, auth: ApiKeyStrategy({ apiKey, siteId: "local-site" }) });
}
const asMember = (client: SiteClient) => createClient({ modules, auth: client.auth });

async function failure(call: Promise<unknown>) {
  const error = (await call.then(
    () => null,
    (e: unknown) => e,
  )) as { status?: number; details?: { applicationError?: { code?: string; data?: unknown } } } | null;
  expect(error, "the call should have failed").not.toBeNull();
  return { status: error?.status, code: error?.details?.applicationError?.code };
}

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = adminClient(platform.config.apiKey);
  dana = asMember((await signInThroughHostedPage(platform.callbackUrl)).client);
  rowan = asMember((await signInThroughHostedPage(platform.callbackUrl, SECOND_DEMO_MEMBER)).client);
  danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
  rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
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
    expect(await failure(dana.memberReport.reportMember({ reportedMemberId: danaId, reason: { category: "SPAM" } }))).toEqual({
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
    expect(await failure(dana.memberReport.reportMember({ reportedMemberId: moss.id, reason: { category: "HARASSMENT" } }))).toEqual({
      status: 400,
      code: "CANNOT_REPORT_BLOCKED_MEMBER",
    });
    const quiet = platform.ctx.identities.create({ email: "quiet@ridgeline.example", passwordHash: "x", nickname: "Quiet" })!;
    expect(await failure(dana.memberReport.reportMember({ reportedMemberId: quiet.id, reason: { category: "SPAM" } }))).toEqual({
      status: 404,
      code: "MEMBER_NOT_FOUND",
    });
    const visitor = createClient({ modules, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    expect(await failure(visitor.memberReport.reportMember({ reportedMemberId: rowanId, reason: { category: "SPAM" } }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
    expect((await failure(dana.memberReport.reportMember({ reportedMemberId: rowanId, reason: { category: "UNKNOWN" } }))).status).toBe(400);
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
    expect(await failure(dana.memberReport.queryMemberReports().find())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(dana.memberReport.listReportedMembers())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(rowan.memberReport.deleteMemberReports(rowanId))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    await admin.memberReport.deleteMemberReports(rowanId);
    expect((await admin.memberReport.listReportedMembers()).reportedMembers?.map((reported) => reported.reportedMemberId)).toEqual([danaId]);
    // A deleted member's reports go with them.
    await admin.members.deleteMember(danaId);
    expect((await admin.memberReport.queryMemberReports().find()).items).toEqual([]);
  });
});
