import { randomUUID } from "node:crypto";
import type { Db, Migration } from "../types";

/**
 * Reports of members (docs/platform/member-reports.md): who reported whom, why and when; gone
 * with the reported member, kept without a reporter when the reporting member is deleted.
 */
export const migrateMemberReports: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS member_reports (
      id TEXT PRIMARY KEY,
      reported_member_id TEXT NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
      reporting_member_id TEXT REFERENCES identities (id) ON DELETE SET NULL,
      category TEXT NOT NULL,
      description TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS member_reports_reported ON member_reports (reported_member_id, created_at);
  `);
  // One open report per reporting member and reported member (an app's reports have no reporter).
  // Databases from before kept every repeat: the latest of each pair stays, as a repeat now updates the report.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'member_reports_one_per_reporter'").get()) {
    db.exec(`
      DELETE FROM member_reports WHERE reporting_member_id IS NOT NULL AND rowid NOT IN
        (SELECT MAX(rowid) FROM member_reports WHERE reporting_member_id IS NOT NULL GROUP BY reported_member_id, reporting_member_id);
      CREATE UNIQUE INDEX member_reports_one_per_reporter ON member_reports (reported_member_id, reporting_member_id) WHERE reporting_member_id IS NOT NULL;
      CREATE INDEX IF NOT EXISTS member_reports_reporting ON member_reports (reporting_member_id, created_at);
    `);
  }
};

/** How many new reports one member may open in a day: enough for any real trouble, too few to flood the site owner's list. */
export const REPORTS_PER_MEMBER_PER_DAY = 10;

export const REPORT_CATEGORIES = ["SPAM", "IMPERSONATION", "HARASSMENT", "OTHER"] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

export type MemberReport = {
  id: string;
  reportedMemberId: string;
  reportingMemberId: string | null;
  category: ReportCategory;
  description: string | null;
  createdAt: number;
};

/** A reported member: how many reports, the first and the latest. */
export type ReportedMember = { reportedMemberId: string; reportCount: number; firstReportAt: number; lastReportAt: number };

export type ReportRow = {
  id: string;
  reported_member_id: string;
  reporting_member_id: string | null;
  category: ReportCategory;
  description: string | null;
  created_at: number;
};

export const reportOf = (row: ReportRow): MemberReport => ({
  id: row.id,
  reportedMemberId: row.reported_member_id,
  reportingMemberId: row.reporting_member_id,
  category: row.category,
  description: row.description,
  createdAt: row.created_at,
});

export class MemberReportStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  create(input: Omit<MemberReport, "id" | "createdAt">): MemberReport {
    const report = { ...input, id: randomUUID(), createdAt: this.now() };
    this.db
      .prepare("INSERT INTO member_reports (id, reported_member_id, reporting_member_id, category, description, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(report.id, report.reportedMemberId, report.reportingMemberId, report.category, report.description, report.createdAt);
    return report;
  }

  /** The report a member has open about another, if any. */
  openReport(reportingMemberId: string, reportedMemberId: string): MemberReport | null {
    const row = this.db
      .prepare("SELECT * FROM member_reports WHERE reporting_member_id = ? AND reported_member_id = ?")
      .get(reportingMemberId, reportedMemberId) as ReportRow | undefined;
    return row ? reportOf(row) : null;
  }

  /** A new reason for a report; it keeps its id and date. */
  updateReason(report: MemberReport, reason: Pick<MemberReport, "category" | "description">): MemberReport {
    this.db.prepare("UPDATE member_reports SET category = ?, description = ? WHERE id = ?").run(reason.category, reason.description, report.id);
    return { ...report, ...reason };
  }

  /** The dates of the reports a member opened since `sinceMs`, oldest first (for the daily limit and when it frees up). */
  openedBy(reportingMemberId: string, sinceMs: number): number[] {
    return (
      this.db
        .prepare("SELECT created_at FROM member_reports WHERE reporting_member_id = ? AND created_at > ? ORDER BY created_at")
        .all(reportingMemberId, sinceMs) as {
        created_at: number;
      }[]
    ).map((row) => row.created_at);
  }

  /** Every report, oldest first. */
  all(): MemberReport[] {
    return (this.db.prepare("SELECT * FROM member_reports ORDER BY created_at, rowid").all() as ReportRow[]).map(reportOf);
  }

  /** Every reported member, the first reported first. */
  reportedMembers(): ReportedMember[] {
    const rows = this.db
      .prepare(
        `SELECT reported_member_id, COUNT(*) AS report_count, MIN(created_at) AS first_at, MAX(created_at) AS last_at
         FROM member_reports GROUP BY reported_member_id ORDER BY first_at, MIN(rowid)`,
      )
      .all() as { reported_member_id: string; report_count: number; first_at: number; last_at: number }[];
    return rows.map((row) => ({
      reportedMemberId: row.reported_member_id,
      reportCount: row.report_count,
      firstReportAt: row.first_at,
      lastReportAt: row.last_at,
    }));
  }

  /** Deletes every report of a member; how many there were. */
  deleteFor(reportedMemberId: string): number {
    return this.db.prepare("DELETE FROM member_reports WHERE reported_member_id = ?").run(reportedMemberId).changes;
  }
}
