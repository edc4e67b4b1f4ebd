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
};

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
