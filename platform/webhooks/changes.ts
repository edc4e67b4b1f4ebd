import type { Db } from "../types";

/** What a watched write was: the kind of entity, what happened to it, its keys and, for an item, its data as written. */
export type Change = {
  source:
    | "data_item"
    | "member"
    | "follow"
    | "index"
    | "backup"
    | "restoration"
    | "movement_job"
    | "badge"
    | "badge_assignment"
    | "member_report"
    | "member_about"
    | "scheduled_workflow"
    | "sign_on_policy";
  action: "created" | "updated" | "deleted";
  /** A data item's collection and id; a member's id; a follow's follower and followed member; another record's id. */
  key1: string;
  key2: string | null;
  /**
   * The record as written (JSON): a data item's data; an index's, badge's, assignment's, report's
   * or About section's row; a backup's, restoration's, job's or workflow's document; the sign-on
   * policy as the API answers it; null for members and follows.
   */
  snapshot: string | null;
  /** When it was written (ISO-8601, UTC). */
  at: string;
  /** Who wrote it, as the webhook's `identity` JSON; null for the platform's own work. */
  identity: string | null;
};

const NOTED = "webhooks_noted";
const IDENTITY = "webhooks_identity";

/**
 * The writes that become webhook events. Like the revalidation watcher (revalidation/store.ts),
 * temporary triggers see every write this connection makes, whatever path it takes, and leave
 * the database file untouched. Unlike it, they record into a temporary table: a write that is
 * rolled back (an unmet condition, a failed bulk call) takes its record with it, so no app hears
 * of something that did not happen. A data item's data is kept as written, so each event carries
 * the item as it was at that write; members are read when the events are sent.
 */
const rowJson = (columns: string[]) => (row: "NEW" | "OLD") => `json_object(${columns.map((column) => `'${column}', ${row}.${column}`).join(", ")})`;
const INDEX_ROW = rowJson(["id", "collection_id", "name", "spec", "status", "failure", "sql_name", "created_date"]);
const BADGE_ROW = rowJson([
  "id",
  "title",
  "description",
  "background_color",
  "text_color",
  "icon",
  "permissions_enabled",
  "slug",
  "position",
  "revision",
  "created_at",
  "updated_at",
]);
const ASSIGNMENT_ROW = rowJson(["id", "badge_id", "member_id", "tags", "created_at", "updated_at"]);
const ABOUT_ROW = rowJson(["id", "member_id", "content", "revision"]);
/** A report's row, with how many reports of its member there are after the write (`reports`). */
const REPORT_ROW = (row: "NEW" | "OLD") =>
  `json_set(${rowJson(["id", "reported_member_id", "reporting_member_id", "category", "description", "created_at"])(row)}, '$.reports', ` +
  `(SELECT COUNT(*) FROM main.member_reports WHERE reported_member_id = ${row}.reported_member_id))`;

const WATCHED: Array<{ table: string; event: string; when?: string; values: string }> = [
  { table: "data_items", event: "INSERT", values: "'data_item', 'created', NEW.collection_id, NEW.id, NEW.data" },
  { table: "data_items", event: "UPDATE", values: "'data_item', 'updated', NEW.collection_id, NEW.id, NEW.data" },
  { table: "data_items", event: "DELETE", values: "'data_item', 'deleted', OLD.collection_id, OLD.id, NULL" },
  { table: "identities", event: "INSERT", values: "'member', 'created', NEW.id, NULL, NULL" },
  // What the member's entity shows: a login (last_login_at) or a new password is no change to it.
  {
    table: "identities",
    event: "UPDATE OF contact_id, login_email, email_verified, first_name, last_name, nickname, slug, status, privacy_status",
    values: "'member', 'updated', NEW.id, NULL, NULL",
  },
  { table: "identities", event: "DELETE", values: "'member', 'deleted', OLD.id, NULL, NULL" },
  { table: "member_profiles", event: "INSERT", values: "'member', 'updated', NEW.member_id, NULL, NULL" },
  { table: "member_profiles", event: "UPDATE", values: "'member', 'updated', NEW.member_id, NULL, NULL" },
  { table: "member_mutes", event: "INSERT", values: "'member', 'updated', NEW.member_id, NULL, NULL" },
  { table: "member_mutes", event: "DELETE", values: "'member', 'updated', OLD.member_id, NULL, NULL" },
  { table: "member_follows", event: "INSERT", values: "'follow', 'created', NEW.follower_id, NEW.followed_id, NULL" },
  { table: "member_follows", event: "DELETE", values: "'follow', 'deleted', OLD.follower_id, OLD.followed_id, NULL" },
  // An index is dropped by its status (DROPPED): that is its deletion; a row removed later is no second one.
  { table: "data_indexes", event: "INSERT", values: `'index', 'created', NEW.id, NULL, ${INDEX_ROW("NEW")}` },
  {
    table: "data_indexes",
    event: "UPDATE",
    when: "NEW.status IS NOT OLD.status OR NEW.failure IS NOT OLD.failure",
    values: `'index', CASE NEW.status WHEN 'DROPPED' THEN 'deleted' ELSE 'updated' END, NEW.id, NULL, ${INDEX_ROW("NEW")}`,
  },
  { table: "data_indexes", event: "DELETE", when: "OLD.status <> 'DROPPED'", values: `'index', 'deleted', OLD.id, NULL, ${INDEX_ROW("OLD")}` },
  { table: "data_backups", event: "INSERT", values: "'backup', 'updated', NEW.id, NULL, NEW.doc" },
  {
    table: "data_backups",
    event: "UPDATE",
    when: "json_extract(NEW.doc, '$.status') IS NOT json_extract(OLD.doc, '$.status')",
    values: "'backup', 'updated', NEW.id, NULL, NEW.doc",
  },
  { table: "data_restorations", event: "INSERT", values: "'restoration', 'updated', NEW.id, NULL, NEW.doc" },
  {
    table: "data_restorations",
    event: "UPDATE",
    when: "json_extract(NEW.doc, '$.status') IS NOT json_extract(OLD.doc, '$.status')",
    values: "'restoration', 'updated', NEW.id, NULL, NEW.doc",
  },
  // A job's progress is no event, its status is; a terminated job (CANCELLED) is what `onJobDeleted` announces.
  { table: "data_movement_jobs", event: "INSERT", values: "'movement_job', 'created', NEW.id, NULL, NEW.doc" },
  {
    table: "data_movement_jobs",
    event: "UPDATE",
    when: "json_extract(NEW.doc, '$.status') IS NOT json_extract(OLD.doc, '$.status')",
    values: "'movement_job', CASE json_extract(NEW.doc, '$.error.code') WHEN 'CANCELLED' THEN 'deleted' ELSE 'updated' END, NEW.id, NULL, NEW.doc",
  },
  // A new display order (position) is no change to a badge; its revision counts each one.
  { table: "badges", event: "INSERT", values: `'badge', 'created', NEW.id, NULL, ${BADGE_ROW("NEW")}` },
  { table: "badges", event: "UPDATE", when: "NEW.revision IS NOT OLD.revision", values: `'badge', 'updated', NEW.id, NULL, ${BADGE_ROW("NEW")}` },
  { table: "badges", event: "DELETE", values: "'badge', 'deleted', OLD.id, NULL, NULL" },
  // An assignment's new tags have no event in the packages.
  { table: "badge_assignments", event: "INSERT", values: `'badge_assignment', 'created', NEW.id, NULL, ${ASSIGNMENT_ROW("NEW")}` },
  { table: "badge_assignments", event: "DELETE", values: `'badge_assignment', 'deleted', OLD.id, NULL, ${ASSIGNMENT_ROW("OLD")}` },
  { table: "member_reports", event: "INSERT", values: `'member_report', 'created', NEW.id, NULL, ${REPORT_ROW("NEW")}` },
  { table: "member_reports", event: "DELETE", values: `'member_report', 'deleted', OLD.id, NULL, ${REPORT_ROW("OLD")}` },
  { table: "member_abouts", event: "INSERT", values: `'member_about', 'created', NEW.id, NULL, ${ABOUT_ROW("NEW")}` },
  { table: "member_abouts", event: "UPDATE", values: `'member_about', 'updated', NEW.id, NULL, ${ABOUT_ROW("NEW")}` },
  { table: "member_abouts", event: "DELETE", values: `'member_about', 'deleted', OLD.id, NULL, ${ABOUT_ROW("OLD")}` },
  // A workflow's every saved change is one: an edit (a new revision), a run, a new next run.
  { table: "data_scheduled_workflows", event: "INSERT", values: "'scheduled_workflow', 'created', NEW.id, NULL, NEW.doc" },
  { table: "data_scheduled_workflows", event: "UPDATE", when: "NEW.doc IS NOT OLD.doc", values: "'scheduled_workflow', 'updated', NEW.id, NULL, NEW.doc" },
  { table: "data_scheduled_workflows", event: "DELETE", values: "'scheduled_workflow', 'deleted', OLD.id, NULL, NULL" },
];

/** Adds one change, stamped with the time and who is writing, to those waiting. */
const RECORD = (values: string) =>
  `INSERT INTO temp.webhook_changes (source, action, key1, key2, snapshot, at, identity) ` +
  `VALUES (${values}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ${IDENTITY}())`;

/**
 * Records every watched write on this connection and calls `noted` inside the statement: the
 * listener must only note that there is something to send (the transaction may still be open and
 * may yet roll back), never touch the database; `identity` says who is writing, without touching
 * it either. `drain` then takes what was committed, in order. `record` adds a change of what the
 * platform keeps outside the database (the sign-on policy), among the others in the order made.
 */
export function watchWebhookChanges(
  db: Db,
  listener: { noted(): void; identity(): string | null },
): { drain(): Change[]; record(change: Pick<Change, "source" | "action" | "key1" | "snapshot">): void } {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS webhook_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, source TEXT NOT NULL, action TEXT NOT NULL,
    key1 TEXT NOT NULL, key2 TEXT, snapshot TEXT, at TEXT NOT NULL, identity TEXT
  )`);
  db.function(NOTED, { deterministic: false }, () => {
    listener.noted();
    return null;
  });
  db.function(IDENTITY, { deterministic: false }, () => listener.identity());
  for (const { table, event, when, values } of WATCHED) {
    const name = `webhook_${table}_${event.split(" ")[0].toLowerCase()}`;
    db.exec(
      `CREATE TEMP TRIGGER IF NOT EXISTS ${name} AFTER ${event} ON main.${table} ${when ? `WHEN ${when} ` : ""}BEGIN ` +
        `${RECORD(values)}; SELECT ${NOTED}(); END`,
    );
  }
  const insert = db.prepare(RECORD("?, ?, ?, NULL, ?"));
  const read = db.prepare("SELECT source, action, key1, key2, snapshot, at, identity FROM temp.webhook_changes ORDER BY seq");
  const remove = db.prepare("DELETE FROM temp.webhook_changes");
  return {
    // Read and emptied in one transaction; nothing else writes between them on this connection.
    drain: db.transaction(() => {
      const changes = read.all() as Change[];
      remove.run();
      return changes;
    }),
    record({ source, action, key1, snapshot }) {
      insert.run(source, action, key1, snapshot);
      listener.noted();
    },
  };
}
