import { randomUUID } from "node:crypto";
import { assignmentOf, badgeOf, type AssignmentRow, type Badge, type BadgeRow } from "../badges/store";
import { assignmentWire, badgeV4Wire } from "../badges/wire";
import { fromRow, wireIndex, type IndexRow } from "../data/indexes";
import { wireBackup, wireRestoration } from "../data/routes/backups";
import { wireWorkflow } from "../data/routes/scheduled-workflows";
import type { WorkflowRecord } from "../data/scheduled-workflows";
import { toWireItem } from "../data/wire";
import { aboutWire } from "../member-abouts/routes";
import { aboutOf, type AboutRow } from "../member-abouts/store";
import { reportedMemberWire, reportWire } from "../member-reports/routes";
import { reportOf, type ReportRow } from "../member-reports/store";
import type { Member } from "../members/store";
import { toMemberWire } from "../members/wire";
import type { Change } from "./changes";

/**
 * The webhook events the platform sends (docs/platform/webhooks.md §3), built from the changes
 * recorded since the last batch. An event's type is its entity's FQDN and its slug joined by an
 * underscore, the string each `on…` function of the `@wix/*` packages registers for
 * (`wix.data.v2.data_item_created`); the `@wix/sdk` webhooks client runs the handlers registered
 * for the type it reads.
 */

/** Every event type the platform sends, by the package function that receives it. */
export const DELIVERED_EVENTS = {
  "@wix/data items.onDataItemCreated": "wix.data.v2.data_item_created",
  "@wix/data items.onDataItemUpdated": "wix.data.v2.data_item_updated",
  "@wix/data items.onDataItemDeleted": "wix.data.v2.data_item_deleted",
  "@wix/members members.onMemberCreated": "wix.members.v1.member_created",
  "@wix/members members.onMemberUpdated": "wix.members.v1.member_updated",
  "@wix/members members.onMemberDeleted": "wix.members.v1.member_deleted",
  "@wix/members memberFollowers.onFollowMemberFollowed": "wix.members.v3.follow_member_followed",
  "@wix/members memberFollowers.onFollowMemberUnfollowed": "wix.members.v3.follow_member_unfollowed",
  "@wix/data indexes.onIndexCreated": "wix.data.v2.index_created",
  "@wix/data indexes.onIndexUpdated": "wix.data.v2.index_updated",
  "@wix/data indexes.onIndexDeleted": "wix.data.v2.index_deleted",
  "@wix/data backups.onBackupStateChanged": "wix.data.v2.backup_backup_state_changed",
  "@wix/data backups.onBackupRestorationStateChanged": "wix.data.v2.backup_restoration_state_changed",
  "@wix/data movementJobs.onJobCreated": "wix.hub.v1.job_created",
  "@wix/data movementJobs.onJobUpdated": "wix.hub.v1.job_updated",
  "@wix/data movementJobs.onJobDeleted": "wix.hub.v1.job_deleted",
  "@wix/data scheduledWorkflows.onJobsCreated": "wix.data.sync.v1.jobs_created",
  "@wix/data scheduledWorkflows.onJobsUpdated": "wix.data.sync.v1.jobs_updated",
  "@wix/data scheduledWorkflows.onJobsDeleted": "wix.data.sync.v1.jobs_deleted",
  "@wix/identity signOnPolicy.onSignOnPolicyUpdated": "wix.iam.signon.v1.sign_on_policy_updated",
  "@wix/members badgesV2.onBadgeCreated": "wix.badges.v4.badge_created",
  "@wix/members badgesV2.onBadgeUpdated": "wix.badges.v4.badge_updated",
  "@wix/members badgesV2.onBadgeDeleted": "wix.badges.v4.badge_deleted",
  "@wix/members badgeAssignments.onBadgeAssignmentCreated": "wix.badges.v4.badge_assignment_created",
  "@wix/members badgeAssignments.onBadgeAssignmentDeleted": "wix.badges.v4.badge_assignment_deleted",
  "@wix/members badges.onBadgeAssigned": "wix.badges.v3.badge_badge_assigned",
  "@wix/members badges.onBadgeUnassigned": "wix.badges.v3.badge_badge_unassigned",
  "@wix/members memberReport.onMemberReportCreated": "wix.members.v1.member_report_created",
  "@wix/members memberReport.onMemberReportDeleted": "wix.members.v1.member_report_deleted",
  "@wix/members memberReport.onMemberReportReportedMemberCreated": "wix.members.v1.member_report_reported_member_created",
  "@wix/members memberReport.onMemberReportReportedMemberDeleted": "wix.members.v1.member_report_reported_member_deleted",
  "@wix/members membersAbout.onMemberAboutCreated": "wix.members.about.v2.member_about_created",
  "@wix/members membersAbout.onMemberAboutUpdated": "wix.members.about.v2.member_about_updated",
  "@wix/members membersAbout.onMemberAboutDeleted": "wix.members.about.v2.member_about_deleted",
} as const;

/**
 * A domain event as Wix's webhooks carry it (the `DomainEvent` of the packages' typings): its
 * metadata, and one body — `createdEvent.entity`, `updatedEvent.currentEntity`,
 * `deletedEvent.deletedEntity` or `actionEvent.body` — in the REST shape the platform's API
 * answers with (the SDK renames `id` to `_id` and turns dates as it does for an API answer).
 */
export type DomainEvent = {
  id: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  eventTime: string;
  triggeredByAnonymizeRequest: false;
  createdEvent?: { entity: unknown };
  updatedEvent?: { currentEntity: unknown };
  deletedEvent?: { deletedEntity?: unknown };
  actionEvent?: { body: unknown };
};

/** An event, with who caused it (`IdentificationData` as JSON) when someone did. */
export type WebhookEvent = { eventType: string; payload: DomainEvent; identity: string | null };

/** What building events reads of the platform's state when they are sent. */
export type EventLookups = { member(id: string): Member | null; badge(id: string): Badge | null };

function event(entityFqdn: string, slug: string, entityId: string, change: Change, body: Partial<DomainEvent>): WebhookEvent {
  return {
    eventType: `${entityFqdn}_${slug}`,
    payload: { id: randomUUID(), entityFqdn, slug, entityId, eventTime: change.at, triggeredByAnonymizeRequest: false, ...body },
    identity: change.identity,
  };
}

/** An entity's created, updated or deleted event, the entity being the record as written (a deletion carries none, but a data item's). */
function entityEvent(entityFqdn: string, change: Change, entityId: string, entity: unknown, deletedEntity?: unknown): WebhookEvent {
  const body: Record<Change["action"], Partial<DomainEvent>> = {
    created: { createdEvent: { entity } },
    updated: { updatedEvent: { currentEntity: entity } },
    deleted: { deletedEvent: deletedEntity === undefined ? {} : { deletedEntity } },
  };
  return event(entityFqdn, change.action, entityId, change, body[change.action]);
}

/**
 * A member's writes in one batch become one event: created (however often it was then changed),
 * updated, or deleted. The member is read as it is now, in the full fieldset an app with the
 * members permission reads; one created or changed and then deleted in the same batch is only
 * deleted, since there is nothing left to show.
 */
function memberEvent(memberId: string, own: Change[], lookups: EventLookups): WebhookEvent[] {
  const member = lookups.member(memberId);
  const last = own[own.length - 1];
  if (!member)
    return own.some((change) => change.action === "deleted") ? [event("wix.members.v1.member", "deleted", memberId, last, { deletedEvent: {} })] : [];
  const entity = toMemberWire(member, ["FULL"]);
  return own[0].action === "created"
    ? [event("wix.members.v1.member", "created", memberId, own[0], { createdEvent: { entity } })]
    : [event("wix.members.v1.member", "updated", memberId, last, { updatedEvent: { currentEntity: entity } })];
}

/** The events of one change of anything but a member: each is its own event, built from the record as written. */
function changeEvents(change: Change, lookups: EventLookups): WebhookEvent[] {
  const record = JSON.parse(change.snapshot ?? "null") as never;
  switch (change.source) {
    case "data_item": {
      const [dataCollectionId, id] = [change.key1, change.key2 ?? ""];
      const entity = record && toWireItem({ collection_id: dataCollectionId, id, data: change.snapshot! });
      return [entityEvent("wix.data.v2.data_item", change, id, entity, { id, dataCollectionId })];
    }
    case "follow": {
      // An unfollow because a member was deleted is no one's act, and is not sent.
      const [memberId, affectedMemberId] = [change.key1, change.key2 ?? ""];
      if (change.action === "deleted" && (!lookups.member(memberId) || !lookups.member(affectedMemberId))) return [];
      const slug = change.action === "created" ? "member_followed" : "member_unfollowed";
      return [event("wix.members.v3.follow", slug, affectedMemberId, change, { actionEvent: { body: { memberConnection: { memberId, affectedMemberId } } } })];
    }
    case "scheduled_workflow":
      // With its next run, as `getScheduledDataWorkflow` answers when asked for it.
      return [entityEvent("wix.data.sync.v1.jobs", change, change.key1, record && wireWorkflow(record as WorkflowRecord, ["NEXT_SCHEDULE_EXECUTION"]))];
    case "sign_on_policy":
      return [entityEvent("wix.iam.signon.v1.sign_on_policy", change, change.key1, record)];
    case "badge":
      return [entityEvent("wix.badges.v4.badge", change, change.key1, record && badgeV4Wire(badgeOf(record as BadgeRow)))];
    case "badge_assignment": {
      // Both generations hear of it: v4 as the assignment, v3 as the badge's member. An assignment
      // that went with its badge or its member is no one's act, as an unfollow is, and is not sent.
      const assignment = assignmentOf(record as AssignmentRow);
      if (change.action === "deleted" && (!lookups.badge(assignment.badgeId) || !lookups.member(assignment.memberId))) return [];
      const wire = assignmentWire(assignment);
      const slug = change.action === "created" ? "badge_assigned" : "badge_unassigned";
      return [
        entityEvent("wix.badges.v4.badge_assignment", change, assignment.id, wire, wire),
        event("wix.badges.v3.badge", slug, assignment.badgeId, change, { actionEvent: { body: { memberId: assignment.memberId } } }),
      ];
    }
    case "member_report": {
      // A member is a reported member from their first report to the last one deleted. Reports
      // that went with their reported member are no one's act, and are not sent.
      const { reports, ...row } = record as ReportRow & { reports: number };
      const report = reportOf(row);
      const reported = report.reportedMemberId;
      if (change.action === "deleted" && !lookups.member(reported)) return [];
      const own = entityEvent("wix.members.v1.member_report", change, report.id, reportWire(report));
      if (change.action === "created" && reports === 1) {
        const reportedMember = reportedMemberWire({
          reportedMemberId: reported,
          reportCount: 1,
          firstReportAt: report.createdAt,
          lastReportAt: report.createdAt,
        });
        return [own, event("wix.members.v1.member_report", "reported_member_created", reported, change, { actionEvent: { body: { reportedMember } } })];
      }
      if (change.action === "deleted" && reports === 0) {
        return [
          own,
          event("wix.members.v1.member_report", "reported_member_deleted", reported, change, { actionEvent: { body: { reportedMemberId: reported } } }),
        ];
      }
      return [own];
    }
    case "member_about": {
      // An About section that went with its member is no one's act, and is not sent.
      const about = aboutOf(record as AboutRow);
      if (change.action === "deleted" && !lookups.member(about.memberId)) return [];
      return [entityEvent("wix.members.about.v2.member_about", change, about.id, aboutWire(about))];
    }
    case "index":
      return [entityEvent("wix.data.v2.index", change, change.key1, wireIndex(fromRow(record as IndexRow)))];
    case "movement_job":
      return [entityEvent("wix.hub.v1.job", change, change.key1, record)];
    case "backup":
      return [event("wix.data.v2.backup", "backup_state_changed", change.key1, change, { actionEvent: { body: { backup: wireBackup(record) } } })];
    case "restoration":
      return [
        event("wix.data.v2.backup", "restoration_state_changed", change.key1, change, { actionEvent: { body: { restoration: wireRestoration(record) } } }),
      ];
    default:
      return [];
  }
}

/** The events for a batch of changes, in the order they happened (a member's at its first change). */
export function eventsOf(changes: Change[], lookups: EventLookups): WebhookEvent[] {
  const placed: Array<[number, WebhookEvent]> = [];
  const members = new Map<string, { first: number; own: Change[] }>();
  changes.forEach((change, index) => {
    if (change.source !== "member") for (const built of changeEvents(change, lookups)) placed.push([index, built]);
    else if (members.has(change.key1)) members.get(change.key1)!.own.push(change);
    else members.set(change.key1, { first: index, own: [change] });
  });
  for (const [memberId, { first, own }] of members) for (const built of memberEvent(memberId, own, lookups)) placed.push([first, built]);
  return placed.sort((a, b) => a[0] - b[0]).map(([, built]) => built);
}
