import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { cursorQueryPage, cursorQuerySchema } from "../http/cursor-query";
import { cannotReportBlockedMember, memberNotFound, parseWith, permissionDenied, selfReportingForbidden, throttledFor } from "../http/errors";
import { decodeQueryParams } from "../http/request-params";
import { requireSiteOwner } from "../http/site-owner";
import { MemberPrivacyStore } from "../member-privacy/store";
import { seesMember, visibilitySettings } from "../members/visibility";
import { type MemberReport, MemberReportStore, REPORT_CATEGORIES, REPORTS_PER_MEMBER_PER_DAY, type ReportedMember } from "./store";

/**
 * `@wix/members` `memberReport` under `/members/v1/member-reports` (docs/platform/member-reports.md):
 * a member (or an app) reports a member; the site owner reads the reports, per report or per
 * reported member, and deletes a member's reports.
 */

const idSchema = z.string().min(1).max(100);
const reportRequest = z.object({
  memberReport: z.object({
    reportedMemberId: idSchema,
    reason: z.object({ category: z.enum(REPORT_CATEGORIES), description: z.string().max(1000).nullish() }),
  }),
});
const queryRequest = z.object({ query: cursorQuerySchema });
const listRequest = z.object({
  cursorPaging: z.object({ limit: z.coerce.number().int().min(1).max(1000).optional(), cursor: z.string().max(16000).optional() }).optional(),
});
const memberIdRequest = z.object({ memberId: idSchema });

const iso = (ms: number) => new Date(ms).toISOString();
export const reportWire = (report: MemberReport) => ({
  id: report.id,
  reportedMemberId: report.reportedMemberId,
  reportingMemberId: report.reportingMemberId,
  reason: { category: report.category, ...(report.description !== null && { description: report.description }) },
  createdDate: iso(report.createdAt),
});
// `reviewed` stays false: the installed clients have no call that marks reports reviewed.
export const reportedMemberWire = (reported: ReportedMember) => ({
  reportedMemberId: reported.reportedMemberId,
  reportCount: String(reported.reportCount),
  reviewed: false,
  lastReportDate: iso(reported.lastReportAt),
});

const PAGE = { defaultLimit: 100, maxLimit: 1000 };
const DAY_MS = 24 * 60 * 60 * 1000;

export function registerMemberReportRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const reports = new MemberReportStore(ctx.db);
  const privacy = new MemberPrivacyStore(ctx.db);
  const requireAdmin = (request: FastifyRequest, action: string) => requireSiteOwner(ctx.callerOf(request), action);
  const reportedMembersPage = (query: z.infer<typeof cursorQuerySchema>) => {
    const { items, count, cursors } = cursorQueryPage(reports.reportedMembers().map(reportedMemberWire), query, PAGE);
    return { reportedMembers: items, pagingMetadata: { count, cursors } };
  };

  /**
   * A member opens at most REPORTS_PER_MEMBER_PER_DAY reports in any 24 hours, so one account
   * cannot bury the site owner's list; the answer says when the oldest of them frees a place.
   */
  const assertMayOpenReport = (memberId: string) => {
    const now = Date.now();
    const opened = reports.openedBy(memberId, now - DAY_MS);
    if (opened.length < REPORTS_PER_MEMBER_PER_DAY) return;
    const freesAt = opened[opened.length - REPORTS_PER_MEMBER_PER_DAY] + DAY_MS;
    throw throttledFor("You have reported many members today.", Math.max(1, Math.ceil((freesAt - now) / 1000)));
  };

  // reportMember({reportedMemberId, reason}) → {memberReport}: by a signed-in member, or by an app (no reporting member).
  // A member's second report of the same member updates their open one (docs/platform/member-reports.md).
  app.post("/members/v1/member-reports", async (request) => {
    const caller = ctx.callerOf(request);
    if (caller.kind !== "member" && caller.kind !== "admin") throw permissionDenied("reportMember needs a signed-in member's token or the site's API key.");
    const { reportedMemberId, reason } = parseWith(reportRequest, request.body).memberReport;
    const reported = ctx.identities.get(reportedMemberId);
    if (!reported) throw memberNotFound(reportedMemberId);
    if (caller.kind === "member" && caller.id === reportedMemberId) throw selfReportingForbidden(reportedMemberId);
    // Before visibility: a blocked member is hidden from others, and the refusal has a code of its own.
    if (reported.status === "BLOCKED") throw cannotReportBlockedMember(reportedMemberId);
    if (!seesMember(caller, reported, visibilitySettings(ctx, privacy))) throw memberNotFound(reportedMemberId);
    const given = { category: reason.category, description: reason.description ?? null };
    if (caller.kind !== "member") return { memberReport: reportWire(reports.create({ reportedMemberId, reportingMemberId: null, ...given })) };
    const report = ctx.db.transaction(() => {
      const open = reports.openReport(caller.id, reportedMemberId);
      if (open) return reports.updateReason(open, given);
      assertMayOpenReport(caller.id);
      return reports.create({ reportedMemberId, reportingMemberId: caller.id, ...given });
    })();
    return { memberReport: reportWire(report) };
  });

  // queryMemberReports().eq("reportedMemberId", …).find() → {memberReports, pagingMetadata}
  app.post("/members/v1/member-reports/query", async (request) => {
    requireAdmin(request, "queryMemberReports");
    const { query } = parseWith(queryRequest, request.body ?? {});
    const { items, count, cursors } = cursorQueryPage(reports.all().map(reportWire), query, PAGE);
    return { memberReports: items, pagingMetadata: { count, cursors } };
  });

  // listReportedMembers({cursorPaging}) → {reportedMembers, pagingMetadata}
  app.get("/members/v1/member-reports/members", async (request) => {
    requireAdmin(request, "listReportedMembers");
    const { cursorPaging } = parseWith(listRequest, decodeQueryParams(request.query as Record<string, string>));
    return reportedMembersPage({ cursorPaging });
  });

  // queryReportedMembers({query}) → {reportedMembers, pagingMetadata}
  app.post("/members/v1/member-reports/members/query", async (request) => {
    requireAdmin(request, "queryReportedMembers");
    return reportedMembersPage(parseWith(queryRequest, request.body ?? {}).query);
  });

  // deleteMemberReports(memberId) → {}: every report of the member; none is no error.
  app.delete<{ Params: { memberId: string } }>("/members/v1/member-reports/members/:memberId", async (request) => {
    requireAdmin(request, "deleteMemberReports");
    reports.deleteFor(parseWith(memberIdRequest, request.params).memberId);
    return {};
  });
}
