import type { EffectTest } from "./effect-check";

/**
 * For each function the platform answers, the test that shows its effect through the installed
 * client (docs/platform/client-coverage.md): `file` from the repository's root, `test` the title as
 * written. Only functions named here count as answered; a function the platform has a route for
 * but that is not named here is "answered, effect not tested". client-coverage.test.ts checks
 * each entry (effect-check.ts says what that check proves) and fails on one for a function that
 * is not answered or no longer installed.
 */
export const EFFECT_TESTS: Record<string, EffectTest> = {
  "@wix/data backups.createBackup": {
    file: "platform/data/backups.test.ts",
    test: "are taken (PENDING → READY) into a file, restored whole (PENDING → COMPLETED) exactly as they were",
  },
  "@wix/data backups.deleteBackup": { file: "platform/data/backups.test.ts", test: "are deleted (DELETED, file removed) and then cannot be restored" },
  "@wix/data backups.listBackups": { file: "platform/data/backups.test.ts", test: "are deleted (DELETED, file removed) and then cannot be restored" },
  "@wix/data backups.onBackupStateChanged": { file: "platform/webhooks/webhooks.test.ts", test: "tell each state of a backup and of a movement job" },
  "@wix/data backups.restoreBackup": {
    file: "platform/data/backups.test.ts",
    test: "are taken (PENDING → READY) into a file, restored whole (PENDING → COMPLETED) exactly as they were",
  },
  "@wix/data backups.restorePartialBackup": {
    file: "platform/data/backups.test.ts",
    test: "restore chosen collections only, also under another id and display name",
  },
  "@wix/data collections.addCmsPlugin": {
    file: "platform/data/plugins.test.ts",
    test: "adds each plugin with its options, replaces them on a second add, and keeps the others",
  },
  "@wix/data collections.addDataCollectionPlugin": {
    file: "platform/data/plugins.test.ts",
    test: "adds and removes through the generic calls, which refuse a type the collection has",
  },
  "@wix/data collections.addDraftItemsPlugin": {
    file: "platform/data/draft-items.test.ts",
    test: "pairs a collection with its drafts collection, readable only at the collection's update level",
  },
  "@wix/data collections.addMultilingualPlugin": {
    file: "platform/data/plugins.test.ts",
    test: "adds each plugin with its options, replaces them on a second add, and keeps the others",
  },
  "@wix/data collections.addPublishPlugin": {
    file: "platform/data/publishing.test.ts",
    test: "addPublishPlugin and deletePublishPlugin change the plugin as an update naming it does; only the admin key may",
  },
  "@wix/data collections.addUrlizedPlugin": {
    file: "platform/data/plugins.test.ts",
    test: "adds each plugin with its options, replaces them on a second add, and keeps the others",
  },
  "@wix/data collections.createDataCollection": { file: "platform/data/access.test.ts", test: "only the admin key may create collections" },
  "@wix/data collections.createDataCollectionField": {
    file: "platform/data/collections.test.ts",
    test: "creates, patches, updates and deletes a field, and the new field is queryable at once",
  },
  "@wix/data collections.deleteCmsPlugin": {
    file: "platform/data/plugins.test.ts",
    test: "keeps them through an update of the collection, and removes each by its own call",
  },
  "@wix/data collections.deleteDataCollection": { file: "platform/data/access.test.ts", test: "deletes a collection and its items" },
  "@wix/data collections.deleteDataCollectionField": {
    file: "platform/data/collections.test.ts",
    test: "creates, patches, updates and deletes a field, and the new field is queryable at once",
  },
  "@wix/data collections.deleteDataCollectionPlugin": {
    file: "platform/data/plugins.test.ts",
    test: "adds and removes through the generic calls, which refuse a type the collection has",
  },
  "@wix/data collections.deleteDraftItemsPlugin": {
    file: "platform/data/draft-items.test.ts",
    test: "refuses while drafts exist unless told to discard or publish them",
  },
  "@wix/data collections.deleteMultilingualPlugin": {
    file: "platform/data/plugins.test.ts",
    test: "keeps them through an update of the collection, and removes each by its own call",
  },
  "@wix/data collections.deletePublishPlugin": {
    file: "platform/data/publishing.test.ts",
    test: "addPublishPlugin and deletePublishPlugin change the plugin as an update naming it does; only the admin key may",
  },
  "@wix/data collections.deleteUrlizedPlugin": {
    file: "platform/data/plugins.test.ts",
    test: "keeps them through an update of the collection, and removes each by its own call",
  },
  "@wix/data collections.getDataCollection": { file: "platform/data/access.test.ts", test: "gets and lists collections" },
  "@wix/data collections.listDataCollections": { file: "platform/data/access.test.ts", test: "gets and lists collections" },
  "@wix/data collections.patchDataCollection": {
    file: "platform/data/collections.test.ts",
    test: "changes the parts sent, keeps the rest, and moves the revision on",
  },
  "@wix/data collections.patchDataCollectionField": {
    file: "platform/data/collections.test.ts",
    test: "creates, patches, updates and deletes a field, and the new field is queryable at once",
  },
  "@wix/data collections.restoreDataCollection": {
    file: "platform/data/restore.test.ts",
    test: "brings a deleted collection back with its items and the links into it",
  },
  "@wix/data collections.updateDataCollection": { file: "platform/data/access.test.ts", test: "updates with the current revision, and refuses a stale one" },
  "@wix/data collections.updateDataCollectionField": {
    file: "platform/data/field-ranges.test.ts",
    test: "go with the field: a field updated without its range takes any length again",
  },
  "@wix/data indexes.createIndex": { file: "platform/data/backups.test.ts", test: "a restoration that breaks a unique index FAILS and changes nothing" },
  "@wix/data indexes.dropIndex": { file: "platform/webhooks/webhooks.test.ts", test: "follow an index from its creation through its build to its drop" },
  "@wix/data indexes.listIndexes": { file: "platform/data/backups.test.ts", test: "a restoration that breaks a unique index FAILS and changes nothing" },
  "@wix/data indexes.onIndexCreated": { file: "platform/webhooks/webhooks.test.ts", test: "follow an index from its creation through its build to its drop" },
  "@wix/data indexes.onIndexDeleted": { file: "platform/webhooks/webhooks.test.ts", test: "follow an index from its creation through its build to its drop" },
  "@wix/data indexes.onIndexUpdated": { file: "platform/webhooks/webhooks.test.ts", test: "follow an index from its creation through its build to its drop" },
  "@wix/data items.aggregate": {
    file: "platform/data/publishing.test.ts",
    test: "are hidden from query, get, count, distinct, aggregate and references unless the admin key asks with showDrafts",
  },
  "@wix/data items.aggregatePipeline": { file: "platform/data/pipeline.test.ts", test: "pages results and counts them" },
  "@wix/data items.asyncPatchByFilter": {
    file: "platform/data/async-jobs.test.ts",
    test: "patches every matching item once, even when the patch changes whether it matches",
  },
  "@wix/data items.asyncRemoveByFilter": {
    file: "platform/data/async-jobs.test.ts",
    test: "removes exactly the matching items in batches and reports SUCCEEDED with the count",
  },
  "@wix/data items.bulkInsert": { file: "platform/data/items.test.ts", test: "bulkInsert reports inserted ids and skips existing ids (WDE0074)" },
  "@wix/data items.bulkPatch": { file: "platform/data/conditions.test.ts", test: "bulkPatch and bulkRemove reach only the matching items" },
  "@wix/data items.bulkRemove": { file: "platform/data/access.test.ts", test: "SITE_MEMBER_AUTHOR: bulkRemove skips other members' items" },
  "@wix/data items.bulkSave": { file: "platform/data/items.test.ts", test: "bulkSave inserts and updates" },
  "@wix/data items.bulkUpdate": { file: "platform/data/conditions.test.ts", test: "bulkUpdate writes the matching items and skips the rest" },
  "@wix/data items.count": { file: "platform/data/aggregate-errors.test.ts", test: "groups with count, sum, avg, min and max" },
  "@wix/data items.createDataItemDraft": {
    file: "platform/data/draft-items.test.ts",
    test: "keeps the published item live while its draft is edited, then publishes the draft over it",
  },
  "@wix/data items.distinct": { file: "platform/data/items.test.ts", test: "counts, and lists distinct values with order" },
  "@wix/data items.get": { file: "platform/data/access.test.ts", test: "includes single references in queries and get" },
  "@wix/data items.getAsyncJobStatus": {
    file: "platform/data/async-jobs.test.ts",
    test: "removes exactly the matching items in batches and reports SUCCEEDED with the count",
  },
  "@wix/data items.insert": { file: "platform/data/access.test.ts", test: "SITE_MEMBER_AUTHOR: insert stamps the member as _owner" },
  "@wix/data items.insertReference": { file: "platform/data/access.test.ts", test: "insertReference, isReferenced and queryReferenced in link order" },
  "@wix/data items.isReferenced": { file: "platform/data/access.test.ts", test: "insertReference, isReferenced and queryReferenced in link order" },
  "@wix/data items.onDataItemCreated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach the app's onDataItemCreated, onDataItemUpdated and onDataItemDeleted with the item as written",
  },
  "@wix/data items.onDataItemDeleted": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach the app's onDataItemCreated, onDataItemUpdated and onDataItemDeleted with the item as written",
  },
  "@wix/data items.onDataItemUpdated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach the app's onDataItemCreated, onDataItemUpdated and onDataItemDeleted with the item as written",
  },
  "@wix/data items.patch": { file: "platform/data/field-ranges.test.ts", test: "hold on update, save and patch, and nothing is written when refused" },
  "@wix/data items.publishDataItemDraft": {
    file: "platform/data/draft-items.test.ts",
    test: "keeps the published item live while its draft is edited, then publishes the draft over it",
  },
  "@wix/data items.query": { file: "platform/data/query.test.ts", test: "sends the query as a GET with .r and answers with a request id" },
  "@wix/data items.queryReferenced": { file: "platform/data/access.test.ts", test: "insertReference, isReferenced and queryReferenced in link order" },
  "@wix/data items.remove": { file: "platform/data/access.test.ts", test: "SITE_MEMBER_AUTHOR: the owner may update and remove their item" },
  "@wix/data items.removeReference": { file: "platform/data/access.test.ts", test: "removeReference and replaceReferences" },
  "@wix/data items.replaceReferences": { file: "platform/data/access.test.ts", test: "removeReference and replaceReferences" },
  "@wix/data items.save": { file: "platform/data/field-ranges.test.ts", test: "hold on update, save and patch, and nothing is written when refused" },
  "@wix/data items.search": {
    file: "platform/data/offset-cursors.test.ts",
    test: "pages search, distinct values, aggregations and referenced items by cursor",
  },
  "@wix/data items.truncate": { file: "platform/data/access.test.ts", test: "truncate needs the admin key" },
  "@wix/data items.unpublishDataItem": { file: "platform/data/draft-items.test.ts", test: "unpublishes an item, keeping it as a draft when asked" },
  "@wix/data items.update": { file: "platform/data/field-ranges.test.ts", test: "hold on update, save and patch, and nothing is written when refused" },
  "@wix/data movementJobs.createFileUploadUrl": {
    file: "platform/data/movement-jobs.test.ts",
    test: "go UNINITIALIZED → INITIALIZING → IN_PROGRESS → COMPLETED, in batches, while other requests are answered",
  },
  "@wix/data movementJobs.getJob": {
    file: "platform/data/movement-jobs.test.ts",
    test: "go UNINITIALIZED → INITIALIZING → IN_PROGRESS → COMPLETED, in batches, while other requests are answered",
  },
  "@wix/data movementJobs.listJobs": { file: "platform/data/movement-jobs.test.ts", test: "lists jobs newest first with cursors, and queries them by status" },
  "@wix/data movementJobs.listMovementLogs": {
    file: "platform/data/movement-jobs.test.ts",
    test: "reject bad rows one by one, logged with their line: PARTIALLY_SUCCESSFUL, the good rows imported",
  },
  "@wix/data movementJobs.onJobCreated": { file: "platform/webhooks/webhooks.test.ts", test: "tell each state of a backup and of a movement job" },
  "@wix/data movementJobs.onJobUpdated": { file: "platform/webhooks/webhooks.test.ts", test: "tell each state of a backup and of a movement job" },
  "@wix/data movementJobs.queryJobs": { file: "platform/data/movement-jobs.test.ts", test: "lists jobs newest first with cursors, and queries them by status" },
  "@wix/data movementJobs.submitJob": { file: "platform/webhooks/webhooks.test.ts", test: "tell each state of a backup and of a movement job" },
  "@wix/data movementJobs.terminateJob": {
    file: "platform/data/movement-jobs.test.ts",
    test: "stop when terminated: FAILED with CANCELLED, what was moved stays; a finished job cannot be terminated",
  },
  "@wix/data permissions.addSpecialPermissions": {
    file: "platform/data/permissions.test.ts",
    test: "ALLOWED lets one member do what the collection's level refuses, and no one else",
  },
  "@wix/data permissions.getMyPermissions": { file: "platform/data/permissions.test.ts", test: "getMyPermissions answers for the caller" },
  "@wix/data permissions.getPermissions": {
    file: "platform/data/permissions.test.ts",
    test: "getPermissions lists the sets; a second set for the same member is ALREADY_EXISTS",
  },
  "@wix/data permissions.removeSpecialPermissions": {
    file: "platform/data/permissions.test.ts",
    test: "updating a set to UNSPECIFIED takes the action back; removing it takes all back",
  },
  "@wix/data permissions.updatePermissions": {
    file: "platform/data/permissions.test.ts",
    test: "PRIVILEGED is the collections API's ADMIN: both APIs read the same levels",
  },
  "@wix/data permissions.updateSpecialPermissions": {
    file: "platform/data/permissions.test.ts",
    test: "updating a set to UNSPECIFIED takes the action back; removing it takes all back",
  },
  "@wix/data scheduledWorkflows.createScheduledDataWorkflow": {
    file: "platform/data/scheduled-workflows.test.ts",
    test: "creates a workflow whose next run the cron expression gives, in the site's time zone",
  },
  "@wix/data scheduledWorkflows.deleteScheduledDataWorkflow": {
    file: "platform/data/scheduled-workflows.test.ts",
    test: "runs on its timetable, with no request asking, its steps one after the other",
  },
  "@wix/data scheduledWorkflows.getScheduledDataWorkflow": {
    file: "platform/data/scheduled-workflows.test.ts",
    test: "creates a workflow whose next run the cron expression gives, in the site's time zone",
  },
  "@wix/data scheduledWorkflows.listScheduledDataWorkflows": {
    file: "platform/data/scheduled-workflows.test.ts",
    test: "lists, updates (with the revision), reschedules and disables",
  },
  "@wix/data scheduledWorkflows.onJobsCreated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onJobsCreated, onJobsUpdated and onJobsDeleted with the workflow and its next run",
  },
  "@wix/data scheduledWorkflows.onJobsDeleted": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onJobsCreated, onJobsUpdated and onJobsDeleted with the workflow and its next run",
  },
  "@wix/data scheduledWorkflows.onJobsUpdated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onJobsCreated, onJobsUpdated and onJobsDeleted with the workflow and its next run",
  },
  "@wix/data scheduledWorkflows.rescheduleScheduledDataWorkflow": {
    file: "platform/data/scheduled-workflows.test.ts",
    test: "lists, updates (with the revision), reschedules and disables",
  },
  "@wix/data scheduledWorkflows.triggerScheduledDataWorkflowNow": {
    file: "platform/data/scheduled-workflows.test.ts",
    test: "runs now on request: each step becomes a movement job named after the run",
  },
  "@wix/data scheduledWorkflows.updateScheduledDataWorkflow": {
    file: "platform/data/scheduled-workflows.test.ts",
    test: "lists, updates (with the revision), reschedules and disables",
  },
  "@wix/data tasks.cancelTask": {
    file: "platform/data/tasks.test.ts",
    test: "cancel stops a running task (FAILED with the cancellation); a finished task cannot be cancelled",
  },
  "@wix/data tasks.createTask": { file: "platform/data/publishing.test.ts", test: "set the status of the matching items, drafts included" },
  "@wix/data tasks.getTask": {
    file: "platform/data/tasks.test.ts",
    test: "DELETE_BY_QUERY removes the matching items in batches (NEW when created, then COMPLETED) with the counts",
  },
  "@wix/data tasks.listTasks": {
    file: "platform/data/tasks.test.ts",
    test: "DELETE_BY_QUERY removes the matching items in batches (NEW when created, then COMPLETED) with the counts",
  },
  "@wix/members authorization.assignRole": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members authorization.getRoles": {
    file: "platform/member-roles/member-roles.test.ts",
    test: "assigns defined roles, reads a member's roles and queries them by role",
  },
  "@wix/members authorization.queryRoles": {
    file: "platform/member-roles/member-roles.test.ts",
    test: "assigns defined roles, reads a member's roles and queries them by role",
  },
  "@wix/members authorization.unassignRole": {
    file: "platform/member-roles/member-roles.test.ts",
    test: "unassigns; a deleted definition can no longer be given, and members who have it keep it",
  },
  "@wix/members badgeAssignments.bulkCreateBadgeAssignments": {
    file: "platform/badges/badges.test.ts",
    test: "assigns a badge to a member once, with tags; bulk creation reports each item",
  },
  "@wix/members badgeAssignments.bulkDeleteBadgeAssignments": {
    file: "platform/badges/badges.test.ts",
    test: "queries newest first, retags by id and by filter, and deletes",
  },
  "@wix/members badgeAssignments.bulkUpdateBadgeAssignmentTags": {
    file: "platform/badges/badges.test.ts",
    test: "queries newest first, retags by id and by filter, and deletes",
  },
  "@wix/members badgeAssignments.bulkUpdateBadgeAssignmentTagsByFilter": {
    file: "platform/badges/badges.test.ts",
    test: "queries newest first, retags by id and by filter, and deletes",
  },
  "@wix/members badgeAssignments.createBadgeAssignment": {
    file: "platform/badges/badges.test.ts",
    test: "assigns a badge to a member once, with tags; bulk creation reports each item",
  },
  "@wix/members badgeAssignments.deleteBadgeAssignment": {
    file: "platform/badges/badges.test.ts",
    test: "queries newest first, retags by id and by filter, and deletes",
  },
  "@wix/members badgeAssignments.onBadgeAssignmentCreated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "follow a badge and its assignments, as v4 entities and as v3's assigned and unassigned",
  },
  "@wix/members badgeAssignments.onBadgeAssignmentDeleted": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "follow a badge and its assignments, as v4 entities and as v3's assigned and unassigned",
  },
  "@wix/members badgeAssignments.queryBadgeAssignments": {
    file: "platform/badges/badges.test.ts",
    test: "queries newest first, retags by id and by filter, and deletes",
  },
  "@wix/members badges.assignBadge": { file: "platform/badges/badges.test.ts", test: "lists, assigns, counts and lists per member and per badge" },
  "@wix/members badges.createBadge": {
    file: "platform/badges/badges.test.ts",
    test: "creates with default colors, updates, reorders and deletes (with the badge's assignments)",
  },
  "@wix/members badges.deleteBadge": {
    file: "platform/badges/badges.test.ts",
    test: "creates with default colors, updates, reorders and deletes (with the badge's assignments)",
  },
  "@wix/members badges.getBadge": {
    file: "platform/badges/badges.test.ts",
    test: "creates with default colors, updates, reorders and deletes (with the badge's assignments)",
  },
  "@wix/members badges.getMemberCountsPerBadge": { file: "platform/badges/badges.test.ts", test: "lists, assigns, counts and lists per member and per badge" },
  "@wix/members badges.listBadges": { file: "platform/badges/badges.test.ts", test: "lists, assigns, counts and lists per member and per badge" },
  "@wix/members badges.listBadgesPerMember": { file: "platform/badges/badges.test.ts", test: "lists, assigns, counts and lists per member and per badge" },
  "@wix/members badges.listMembersByBadge": { file: "platform/badges/badges.test.ts", test: "lists, assigns, counts and lists per member and per badge" },
  "@wix/members badges.onBadgeAssigned": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "follow a badge and its assignments, as v4 entities and as v3's assigned and unassigned",
  },
  "@wix/members badges.onBadgeUnassigned": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "follow a badge and its assignments, as v4 entities and as v3's assigned and unassigned",
  },
  "@wix/members badges.unassignBadge": { file: "platform/badges/badges.test.ts", test: "lists, assigns, counts and lists per member and per badge" },
  "@wix/members badges.updateBadge": {
    file: "platform/badges/badges.test.ts",
    test: "creates with default colors, updates, reorders and deletes (with the badge's assignments)",
  },
  "@wix/members badges.updateBadgesDisplayOrder": {
    file: "platform/badges/badges.test.ts",
    test: "creates with default colors, updates, reorders and deletes (with the badge's assignments)",
  },
  "@wix/members badgesV2.createBadge": {
    file: "platform/badges/badges.test.ts",
    test: "creates badges with a slug from the title, last in the display order, at revision 1",
  },
  "@wix/members badgesV2.deleteBadge": {
    file: "platform/badges/badges.test.ts",
    test: "creates with default colors, updates, reorders and deletes (with the badge's assignments)",
  },
  "@wix/members badgesV2.getBadge": {
    file: "platform/badges/badges.test.ts",
    test: "creates badges with a slug from the title, last in the display order, at revision 1",
  },
  "@wix/members badgesV2.moveBadge": {
    file: "platform/badges/badges.test.ts",
    test: "orders badges: a list first, and one badge first, last or after another",
  },
  "@wix/members badgesV2.onBadgeCreated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "follow a badge and its assignments, as v4 entities and as v3's assigned and unassigned",
  },
  "@wix/members badgesV2.onBadgeDeleted": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "follow a badge and its assignments, as v4 entities and as v3's assigned and unassigned",
  },
  "@wix/members badgesV2.onBadgeUpdated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "follow a badge and its assignments, as v4 entities and as v3's assigned and unassigned",
  },
  "@wix/members badgesV2.queryBadges": {
    file: "platform/badges/badges.test.ts",
    test: "creates badges with a slug from the title, last in the display order, at revision 1",
  },
  "@wix/members badgesV2.updateBadge": { file: "platform/badges/badges.test.ts", test: "updates with the current revision, a new title giving a new slug" },
  "@wix/members badgesV2.updateBadgesDisplayOrder": {
    file: "platform/badges/badges.test.ts",
    test: "orders badges: a list first, and one badge first, last or after another",
  },
  "@wix/members customFieldApplications.createCustomFieldApplication": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members customFieldApplications.deleteCustomFieldApplication": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members customFieldApplications.getCustomFieldApplication": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members customFieldApplications.getCustomFieldApplications": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members customFieldApplications.getMembersCustomFieldApplications": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members customFieldApplications.getRolesCustomFieldApplications": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members customFieldApplications.updateCustomFieldApplication": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members customFieldSuggestions.listCustomFieldSuggestions": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "suggests the hidden fields, to bring back",
  },
  "@wix/members customFieldSuggestions.queryCustomFieldSuggestions": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "suggests the hidden fields, to bring back",
  },
  "@wix/members customFields.createCustomField": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "creates fields with a key from the name, private text by default, social ones in their own section",
  },
  "@wix/members customFields.deleteCustomField": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "reorders a section, hides and deletes fields with their revision",
  },
  "@wix/members customFields.getCustomField": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "reorders a section, hides and deletes fields with their revision",
  },
  "@wix/members customFields.hideCustomField": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "reorders a section, hides and deletes fields with their revision",
  },
  "@wix/members customFields.listCustomFields": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "creates fields with a key from the name, private text by default, social ones in their own section",
  },
  "@wix/members customFields.updateCustomField": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "updates the name and privacy with the current revision; the type stays",
  },
  "@wix/members customFields.updateCustomFieldsOrder": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "reorders a section, hides and deletes fields with their revision",
  },
  "@wix/members defaultPrivacy.getDefaultPrivacyStatus": {
    file: "platform/member-privacy/member-privacy.test.ts",
    test: "starts private at revision 0, and new members start private",
  },
  "@wix/members defaultPrivacy.setDefaultPrivacyStatus": {
    file: "platform/member-privacy/member-privacy.test.ts",
    test: "set to public with the current revision, new members start public unless they ask otherwise; older ones keep theirs",
  },
  "@wix/members memberFollowers.followMember": {
    file: "platform/followers/followers.test.ts",
    test: "follows and unfollows, and the lists and connections say so to both members and to visitors",
  },
  "@wix/members memberFollowers.listCurrentMemberFollowers": {
    file: "platform/followers/followers.test.ts",
    test: "follows and unfollows, and the lists and connections say so to both members and to visitors",
  },
  "@wix/members memberFollowers.listCurrentMemberFollowing": {
    file: "platform/followers/followers.test.ts",
    test: "follows and unfollows, and the lists and connections say so to both members and to visitors",
  },
  "@wix/members memberFollowers.listMemberFollowers": {
    file: "platform/followers/followers.test.ts",
    test: "follows and unfollows, and the lists and connections say so to both members and to visitors",
  },
  "@wix/members memberFollowers.listMemberFollowing": {
    file: "platform/followers/followers.test.ts",
    test: "follows and unfollows, and the lists and connections say so to both members and to visitors",
  },
  "@wix/members memberFollowers.onFollowMemberFollowed": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onFollowMemberFollowed and onFollowMemberUnfollowed with both members",
  },
  "@wix/members memberFollowers.onFollowMemberUnfollowed": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onFollowMemberFollowed and onFollowMemberUnfollowed with both members",
  },
  "@wix/members memberFollowers.queryCurrentMemberConnections": {
    file: "platform/followers/followers.test.ts",
    test: "follows and unfollows, and the lists and connections say so to both members and to visitors",
  },
  "@wix/members memberFollowers.queryMemberConnections": {
    file: "platform/followers/followers.test.ts",
    test: "follows and unfollows, and the lists and connections say so to both members and to visitors",
  },
  "@wix/members memberFollowers.unfollowMember": {
    file: "platform/followers/followers.test.ts",
    test: "follows and unfollows, and the lists and connections say so to both members and to visitors",
  },
  "@wix/members memberPrivacySettings.getMemberPrivacySettings": {
    file: "platform/member-privacy/member-privacy.test.ts",
    test: "reads the same for visitors, members and the site owner: public profiles seen by all, anyone may have one",
  },
  "@wix/members memberPrivacySettings.setMemberPrivacySettings": {
    file: "platform/member-privacy/member-privacy.test.ts",
    test: "visible to members only: visitors no longer see public profiles, members still do",
  },
  "@wix/members memberReport.deleteMemberReports": {
    file: "platform/member-reports/member-reports.test.ts",
    test: "deletes a member's reports; reading and deleting are the site owner's alone",
  },
  "@wix/members memberReport.listReportedMembers": {
    file: "platform/member-reports/member-reports.test.ts",
    test: "lists and queries the reported members with their counts",
  },
  "@wix/members memberReport.onMemberReportCreated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "tell each report, and when a member becomes a reported member and stops being one",
  },
  "@wix/members memberReport.onMemberReportDeleted": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "tell each report, and when a member becomes a reported member and stops being one",
  },
  "@wix/members memberReport.onMemberReportReportedMemberCreated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "tell each report, and when a member becomes a reported member and stops being one",
  },
  "@wix/members memberReport.onMemberReportReportedMemberDeleted": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "tell each report, and when a member becomes a reported member and stops being one",
  },
  "@wix/members memberReport.queryMemberReports": {
    file: "platform/member-reports/member-reports.test.ts",
    test: "queries the reports, with a filter the cursor keeps",
  },
  "@wix/members memberReport.queryReportedMembers": {
    file: "platform/member-reports/member-reports.test.ts",
    test: "lists and queries the reported members with their counts",
  },
  "@wix/members memberReport.reportMember": {
    file: "platform/member-reports/member-reports.test.ts",
    test: "records a member's report with its reason, the reporter and the date",
  },
  "@wix/members memberRoleDefinition.createMemberRoleDefinition": {
    file: "platform/custom-fields/custom-fields.test.ts",
    test: "narrows a field to members with a role or badge, or named, less exclusions; deleting it widens it again",
  },
  "@wix/members memberRoleDefinition.deleteMemberRoleDefinition": {
    file: "platform/member-roles/member-roles.test.ts",
    test: "unassigns; a deleted definition can no longer be given, and members who have it keep it",
  },
  "@wix/members memberRoleDefinition.getMemberRoleDefinition": {
    file: "platform/member-roles/member-roles.test.ts",
    test: "defines roles with an upper-case key, lists and gets them; a key is defined once",
  },
  "@wix/members memberRoleDefinition.listMemberRoleDefinitions": {
    file: "platform/member-roles/member-roles.test.ts",
    test: "defines roles with an upper-case key, lists and gets them; a key is defined once",
  },
  "@wix/members memberRoleDefinition.updateMemberRoleDefinition": {
    file: "platform/member-roles/member-roles.test.ts",
    test: "updates only blockable, with the current revision",
  },
  "@wix/members memberToMemberBlock.blockMember": {
    file: "platform/member-blocks/member-blocks.test.ts",
    test: "hides each member from the other in list, query and getMember, and keeps the blocked member from blocking back",
  },
  "@wix/members memberToMemberBlock.listCurrentMemberBlocking": {
    file: "platform/member-blocks/member-blocks.test.ts",
    test: "blocks, lists and unblocks, with the typed errors for a repeat, oneself and a block that is not there",
  },
  "@wix/members memberToMemberBlock.listMemberBlocks": {
    file: "platform/member-blocks/member-blocks.test.ts",
    test: "blocks, lists and unblocks, with the typed errors for a repeat, oneself and a block that is not there",
  },
  "@wix/members memberToMemberBlock.unblockMember": {
    file: "platform/member-blocks/member-blocks.test.ts",
    test: "blocks, lists and unblocks, with the typed errors for a repeat, oneself and a block that is not there",
  },
  "@wix/members members.approveMember": { file: "platform/members/members.test.ts", test: "creates a member with a status and privacy, for the admin only" },
  "@wix/members members.blockMember": { file: "platform/members/members.test.ts", test: "creates a member with a status and privacy, for the admin only" },
  "@wix/members members.bulkApproveMembers": {
    file: "platform/members/owner-actions.test.ts",
    test: "approve every member the filter matches, and only those; the reply names a job",
  },
  "@wix/members members.bulkBlockMembers": {
    file: "platform/members/owner-actions.test.ts",
    test: "block by any field the site owner reads, the login email too; approving unblocks",
  },
  "@wix/members members.bulkDeleteMembers": {
    file: "platform/members/community.test.ts",
    test: "deletes each member named, reports an unknown id alone, and ends the deleted members' tokens",
  },
  "@wix/members members.bulkDeleteMembersByFilter": {
    file: "platform/members/owner-actions.test.ts",
    test: "deletes the members the filter and the search both match, and ends their tokens",
  },
  "@wix/members members.createMember": { file: "platform/members/members.test.ts", test: "creates a member with a status and privacy, for the admin only" },
  "@wix/members members.deleteMember": {
    file: "platform/member-reports/member-reports.test.ts",
    test: "deletes a member's reports; reading and deleting are the site owner's alone",
  },
  "@wix/members members.deleteMemberAddresses": {
    file: "platform/members/owner-actions.test.ts",
    test: "empty the contact's lists, the login e-mail included, and leave the login e-mail itself alone",
  },
  "@wix/members members.deleteMemberEmails": {
    file: "platform/members/owner-actions.test.ts",
    test: "empty the contact's lists, the login e-mail included, and leave the login e-mail itself alone",
  },
  "@wix/members members.deleteMemberPhones": {
    file: "platform/members/owner-actions.test.ts",
    test: "empty the contact's lists, the login e-mail included, and leave the login e-mail itself alone",
  },
  "@wix/members members.deleteMyMember": { file: "platform/members/members.test.ts", test: "deletes the current member, whose tokens then stop working" },
  "@wix/members members.disconnectMember": {
    file: "platform/members/owner-actions.test.ts",
    test: "sets the status to OFFLINE for good: tokens end, login is refused, only the site owner still sees the member",
  },
  "@wix/members members.getCurrentMember": {
    file: "platform/members/community.test.ts",
    test: "leaving makes the member's profile private: hidden from other members and visitors, still theirs to read",
  },
  "@wix/members members.getMember": {
    file: "platform/member-blocks/member-blocks.test.ts",
    test: "hides each member from the other in list, query and getMember, and keeps the blocked member from blocking back",
  },
  "@wix/members members.joinCommunity": { file: "platform/members/community.test.ts", test: "joining makes it public again, for everyone" },
  "@wix/members members.leaveCommunity": {
    file: "platform/members/community.test.ts",
    test: "leaving makes the member's profile private: hidden from other members and visitors, still theirs to read",
  },
  "@wix/members members.listMembers": {
    file: "platform/members/community.test.ts",
    test: "mutes and unmutes a member: the site owner's call, seen in the EXTENDED activity status",
  },
  "@wix/members members.muteMember": {
    file: "platform/members/community.test.ts",
    test: "mutes and unmutes a member: the site owner's call, seen in the EXTENDED activity status",
  },
  "@wix/members members.onMemberCreated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onMemberCreated, onMemberUpdated and onMemberDeleted with the member in full",
  },
  "@wix/members members.onMemberDeleted": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onMemberCreated, onMemberUpdated and onMemberDeleted with the member in full",
  },
  "@wix/members members.onMemberUpdated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onMemberCreated, onMemberUpdated and onMemberDeleted with the member in full",
  },
  "@wix/members members.queryMembers": { file: "platform/members/community.test.ts", test: "looks in the nickname by default, in any case and inside a word" },
  "@wix/members members.unmuteMember": {
    file: "platform/members/community.test.ts",
    test: "mutes and unmutes a member: the site owner's call, seen in the EXTENDED activity status",
  },
  "@wix/members members.updateCurrentMemberSlug": {
    file: "platform/members/members.test.ts",
    test: "changes the current member's slug and refuses a taken one",
  },
  "@wix/members members.updateMember": {
    file: "platform/members/members.test.ts",
    test: "changes only the given fields, replaces arrays whole, and the identity shows the edit",
  },
  "@wix/members members.updateMemberSlug": { file: "platform/members/members.test.ts", test: "changes the current member's slug and refuses a taken one" },
  "@wix/members membersAbout.createMemberAbout": {
    file: "platform/member-abouts/member-abouts.test.ts",
    test: "is created by the member for themselves, rich content kept as sent, at revision 1; one per member",
  },
  "@wix/members membersAbout.deleteMemberAbout": {
    file: "platform/member-abouts/member-abouts.test.ts",
    test: "cannot be changed or deleted by another member; a visitor cannot write at all",
  },
  "@wix/members membersAbout.getMemberAbout": {
    file: "platform/member-abouts/member-abouts.test.ts",
    test: "is updated with the current revision only, and read by anyone who may see the member",
  },
  "@wix/members membersAbout.getMyMemberAbout": {
    file: "platform/member-abouts/member-abouts.test.ts",
    test: "is created by the member for themselves, rich content kept as sent, at revision 1; one per member",
  },
  "@wix/members membersAbout.onMemberAboutCreated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onMemberAboutCreated, onMemberAboutUpdated and onMemberAboutDeleted with the section as written",
  },
  "@wix/members membersAbout.onMemberAboutDeleted": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onMemberAboutCreated, onMemberAboutUpdated and onMemberAboutDeleted with the section as written",
  },
  "@wix/members membersAbout.onMemberAboutUpdated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onMemberAboutCreated, onMemberAboutUpdated and onMemberAboutDeleted with the section as written",
  },
  "@wix/members membersAbout.queryMemberAbouts": {
    file: "platform/member-abouts/member-abouts.test.ts",
    test: "queries by member, pages with cursors that keep the filter, and leaves out members the caller may not see",
  },
  "@wix/members membersAbout.updateMemberAbout": {
    file: "platform/member-abouts/member-abouts.test.ts",
    test: "is updated with the current revision only, and read by anyone who may see the member",
  },
  "@wix/identity authentication.changePassword": {
    file: "platform/identity/iam.test.ts",
    test: "changes the signed-in member's password, refusing a weak one",
  },
  "@wix/identity authentication.loginV2": {
    file: "platform/identity/mfa.test.ts",
    test: "goes on with a new code through loginV2 with the state token alone; the previous code stops working",
  },
  "@wix/identity authentication.logout": {
    file: "platform/identity/identity-calls.test.ts",
    test: "ends the member's session through the SDK's authentication.logout, answering a RawHttpResponse",
  },
  "@wix/identity authentication.validateEmail": {
    file: "platform/identity/iam.test.ts",
    test: "answers an address's format through the real client, whoever asks",
  },
  "@wix/identity oauth.jwks": {
    file: "platform/oauth/openid.test.ts",
    test: "publishes the RSA key (RS256, as Wix's typings describe it) that checks the platform's access tokens, and no other",
  },
  "@wix/identity oauth.token": {
    file: "platform/oauth/openid.test.ts",
    test: "issues a visitor's pair from a raw JSON or form body, which token-info names as the visitor's",
  },
  "@wix/identity oauth.tokenInfo": {
    file: "platform/oauth/openid.test.ts",
    test: "reads the token from the raw body the client sends, as JSON or as a form (RFC 7662)",
  },
  "@wix/identity oauth.userInfo": { file: "platform/oauth/openid.test.ts", test: "answers the signed-in member's claims" },
  "@wix/identity recovery.recover": {
    file: "platform/identity/iam.test.ts",
    test: "recover() through the API gives a blocked member no session and asks owner approval for a pending one, as a login would",
  },
  "@wix/identity recovery.sendActivationEmail": {
    file: "platform/identity/identity-calls.test.ts",
    test: "mails an activation link (admin key only) that sets a password once and signs the member in",
  },
  "@wix/identity signOnPolicy.getSignOnPolicy": { file: "platform/identity/sign-on-policy.test.ts", test: "answers the site's sign-up requirements" },
  "@wix/identity signOnPolicy.onSignOnPolicyUpdated": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "reach onSignOnPolicyUpdated when a requirement changes, by the API or elsewhere, and not for the captcha",
  },
  "@wix/identity signOnPolicy.updateSignOnPolicy": {
    file: "platform/identity/sign-on-policy.test.ts",
    test: "changes only the requirements sent, for the platform's sign-up too",
  },
  "@wix/identity verification.start": {
    file: "platform/identity/identity-calls.test.ts",
    test: "starts a verification for the member themselves or, with the admin key, for anyone; a code goes by e-mail",
  },
  "@wix/headless-site-assets scripts.getEssentialProperties": {
    file: "platform/site-assets/site-scripts.test.ts",
    test: "answers an English (US) site billed in dollars on UTC with one language by default",
  },
  "@wix/headless-site-assets scripts.getSiteMetadata": {
    file: "platform/site-assets/site-scripts.test.ts",
    test: "answers the configured locale, currency, time zone and languages, with the scripts in the metadata",
  },
  "@wix/headless-site-assets scripts.listSiteScripts": {
    file: "platform/site-assets/site-scripts.test.ts",
    test: "answers a site without embedded scripts with an empty list, as the integration expects",
  },
  "@wix/sdk OAuthStrategy.generateVisitorTokens": { file: "platform/oauth/openid.test.ts", test: "answers the signed-in member's claims" },
  "@wix/sdk OAuthStrategy.getAuthUrl": {
    file: "platform/oauth/authorization-code.test.ts",
    test: "returns code and state in the query, on exactly the registered callback",
  },
  "@wix/sdk OAuthStrategy.getMemberTokens": { file: "platform/oauth/authorization-code.test.ts", test: "returns code and state in the fragment when asked to" },
  "@wix/sdk OAuthStrategy.getMemberTokensForExternalLogin": {
    file: "platform/oauth/external-login.test.ts",
    test: "turns a visitor into the given member with the site's API key",
  },
  "@wix/sdk OAuthStrategy.getMemberTokensForExternalLoginWithSession": {
    file: "platform/oauth/external-login.test.ts",
    test: "signs an existing member on by e-mail, in any case, and the pair ends with that session",
  },
  "@wix/sdk OAuthStrategy.login": { file: "platform/identity/iam.test.ts", test: "a session token works for the exchange only while its login session lasts" },
  "@wix/sdk OAuthStrategy.logout": {
    file: "platform/identity/identity-calls.test.ts",
    test: "ends the member's session through the SDK's authentication.logout, answering a RawHttpResponse",
  },
  "@wix/sdk OAuthStrategy.processVerification": {
    file: "platform/identity/iam.test.ts",
    test: "asks for the e-mailed code, refuses a wrong one, and signs in with the right one",
  },
  "@wix/sdk OAuthStrategy.register": {
    file: "platform/identity/iam.test.ts",
    test: "registers, answers SUCCESS with a session token that becomes member tokens, and gives the identity a member record",
  },
  "@wix/sdk OAuthStrategy.renewToken": {
    file: "platform/oauth/authorization-code.test.ts",
    test: "renews the member's access token with renewToken, for the same member, and refuses a revoked refresh token",
  },
  "@wix/sdk AppStrategy({instanceId}).getAuthHeaders": {
    file: "platform/oauth/client-credentials.test.ts",
    test: "lets the app do what needs the site owner's rights",
  },
  "@wix/sdk OAuthStrategy.sendPasswordResetEmail": {
    file: "platform/identity/iam.test.ts",
    test: "e-mails a reset link for a known address only, and the link sets a new password once, returning to the site",
  },
  "@wix/sdk AppStrategy({accessToken}).elevated": {
    file: "platform/oauth/client-credentials.test.ts",
    test: "answers a token without a refresh token, which token-info names as the app's",
  },
  "@wix/sdk AppStrategy({accessToken}).getTokenInfo": {
    file: "platform/oauth/client-credentials.test.ts",
    test: "answers a token without a refresh token, which token-info names as the app's",
  },
  "@wix/data backups.listRestorations": {
    file: "platform/data/backups.test.ts",
    test: "are taken (PENDING → READY) into a file, restored whole (PENDING → COMPLETED) exactly as they were",
  },
  "@wix/data indexes.listAvailableIndexes": {
    file: "platform/data/indexes.test.ts",
    test: "lists indexes and what is left of the limits, and refuses a second index on the same name or fields",
  },
  "@wix/data items.queryReferencedItems": {
    file: "platform/data/access.test.ts",
    test: "queryReferencedItems answers each linked item with the item that links it",
  },
  "@wix/data backups.onBackupRestorationStateChanged": {
    file: "platform/webhooks/webhooks.test.ts",
    test: "tell each state of a backup and of a movement job",
  },
};
