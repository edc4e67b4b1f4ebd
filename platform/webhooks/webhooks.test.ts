import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { AppStrategy, ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk";
import { backups, indexes, items, movementJobs, scheduledWorkflows } from "@wix/data";
import { signOnPolicy } from "@wix/identity";
import { badgeAssignments, badges, badgesV2, memberFollowers, memberReport, members, membersAbout } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { createCollection } from "../data/test-support";
import { signInThroughHostedPage } from "../identity/test-browser";
import { LOCAL_INSTANCE_ID } from "../oauth/access-token";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { WebhookKeys } from "./keys";

/**
 * The platform's webhooks reach a real HTTP server standing in for an app, which checks and
 * dispatches them with the real `@wix/sdk` (`AppStrategy({ publicKey })` and
 * `client.webhooks.process`) and the `on…` functions of `@wix/data` and `@wix/members`.
 */

const APP_ID = "webhook-app";
const SECRET = "webhook-app-secret-0123456789";

type Received = { type: string; event: Record<string, unknown> };

/** An app's webhook endpoint: answers 200 when the SDK took the call, 401 when it refused it, or the next scripted status. */
async function startApp(publicKey: () => string) {
  const received: Received[] = [];
  const refused: string[] = [];
  const script: number[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", async () => {
      const scripted = script.shift();
      if (scripted) return void response.writeHead(scripted).end();
      const app = createClient({
        auth: AppStrategy({ appId: APP_ID, publicKey: publicKey() }),
        modules: {
          items,
          members,
          memberFollowers,
          indexes,
          backups,
          movementJobs,
          badges,
          badgesV2,
          badgeAssignments,
          memberReport,
          membersAbout,
          scheduledWorkflows,
          signOnPolicy,
        },
      });
      const record = (type: string) => (event: object) => void received.push({ type, event: event as Record<string, unknown> });
      app.items.onDataItemCreated(record("item created"));
      app.items.onDataItemUpdated(record("item updated"));
      app.items.onDataItemDeleted(record("item deleted"));
      app.members.onMemberCreated(record("member created"));
      app.members.onMemberUpdated(record("member updated"));
      app.members.onMemberDeleted(record("member deleted"));
      app.memberFollowers.onFollowMemberFollowed(record("followed"));
      app.memberFollowers.onFollowMemberUnfollowed(record("unfollowed"));
      app.indexes.onIndexCreated(record("index created"));
      app.indexes.onIndexUpdated(record("index updated"));
      app.indexes.onIndexDeleted(record("index deleted"));
      app.backups.onBackupStateChanged(record("backup"));
      app.backups.onBackupRestorationStateChanged(record("restoration"));
      app.movementJobs.onJobCreated(record("job created"));
      app.movementJobs.onJobUpdated(record("job updated"));
      app.movementJobs.onJobDeleted(record("job deleted"));
      app.scheduledWorkflows.onJobsCreated(record("workflow created"));
      app.scheduledWorkflows.onJobsUpdated(record("workflow updated"));
      app.scheduledWorkflows.onJobsDeleted(record("workflow deleted"));
      app.signOnPolicy.onSignOnPolicyUpdated(record("policy updated"));
      app.badgesV2.onBadgeCreated(record("badge created"));
      app.badgesV2.onBadgeUpdated(record("badge updated"));
      app.badgesV2.onBadgeDeleted(record("badge deleted"));
      app.badgeAssignments.onBadgeAssignmentCreated(record("assignment created"));
      app.badgeAssignments.onBadgeAssignmentDeleted(record("assignment deleted"));
      app.badges.onBadgeAssigned(record("badge assigned"));
      app.badges.onBadgeUnassigned(record("badge unassigned"));
      app.memberReport.onMemberReportCreated(record("report created"));
      app.memberReport.onMemberReportDeleted(record("report deleted"));
      app.memberReport.onMemberReportReportedMemberCreated(record("reported member created"));
      app.memberReport.onMemberReportReportedMemberDeleted(record("reported member deleted"));
      app.membersAbout.onMemberAboutCreated(record("about created"));
      app.membersAbout.onMemberAboutUpdated(record("about updated"));
      app.membersAbout.onMemberAboutDeleted(record("about deleted"));
      try {
        await app.webhooks.process(body);
        response.writeHead(200).end();
      } catch (error) {
        refused.push((error as Error).message);
        response.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return { url, received, refused, script, close: () => new Promise((resolve) => server.close(resolve)) };
}
type App = Awaited<ReturnType<typeof startApp>>;

/** Waits for `count` events, then a little more to see that no other follows. */
async function eventsAfter(app: App, count: number, waitMs = 5000): Promise<Received[]> {
  const deadline = Date.now() + waitMs;
  while (app.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 200));
  return app.received.splice(0);
}

let app: App;
let platform: TestPlatform;
let publicKey = "";
const admin = () =>
  createClient({
    modules: { items, members, indexes, backups, movementJobs, badgesV2, badgeAssignments, memberReport, membersAbout, scheduledWorkflows, signOnPolicy },
    auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }),
  });

beforeAll(async () => {
  app = await startApp(() => publicKey);
  platform = await startTestPlatform({ oauthClientsJson: JSON.stringify([{ id: APP_ID, secret: SECRET, webhookUrl: app.url }]) });
  publicKey = platform.ctx.webhookKeys.publicKeyBase64();
  await createCollection(platform, "Notes", [{ key: "title", type: "TEXT" }], { read: "ANYONE", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" });
});
afterAll(async () => {
  await platform.close();
  await app.close();
});

const metadataOf = (received: Received) => received.event.metadata as Record<string, unknown>;

describe("data item events", () => {
  it("reach the app's onDataItemCreated, onDataItemUpdated and onDataItemDeleted with the item as written", async () => {
    await admin().items.insert("Notes", { _id: "n1", title: "first" });
    const [created] = await eventsAfter(app, 1);
    expect(created.type).toBe("item created");
    expect(created.event.entity).toMatchObject({ _id: "n1", dataCollectionId: "Notes", data: { _id: "n1", title: "first" } });
    expect((created.event.entity as { data: { _createdDate: unknown } }).data._createdDate).toBeInstanceOf(Date);
    expect(metadataOf(created)).toMatchObject({
      instanceId: LOCAL_INSTANCE_ID,
      entityId: "n1",
      entityFqdn: "wix.data.v2.data_item",
      slug: "created",
    });
    expect(metadataOf(created).eventTime).toBeInstanceOf(Date);
    // Written with the admin key: the site's owner.
    expect(metadataOf(created).identity).toEqual({ identityType: "WIX_USER" });

    await admin().items.update("Notes", { _id: "n1", title: "second" });
    await admin().items.remove("Notes", "n1");
    const [updated, deleted] = await eventsAfter(app, 2);
    expect(updated.type).toBe("item updated");
    expect(updated.event.entity).toMatchObject({ _id: "n1", data: { title: "second" } });
    expect(deleted).toMatchObject({ type: "item deleted", event: { entity: { _id: "n1", dataCollectionId: "Notes" } } });
    expect(app.refused).toEqual([]);
  });

  it("name the app that wrote with its own token", async () => {
    const elevated = createClient({ auth: AppStrategy({ appId: APP_ID, appSecret: SECRET, instanceId: LOCAL_INSTANCE_ID }), modules: { items } });
    await elevated.items.insert("Notes", { _id: "by-app", title: "from the app" });
    const [created] = await eventsAfter(app, 1);
    expect(metadataOf(created).identity).toEqual({ identityType: "APP", appId: APP_ID });
  });

  it("send each item of a bulk write, in order, and nothing for a write that failed", async () => {
    await admin().items.bulkInsert("Notes", [
      { _id: "b1", title: "one" },
      { _id: "b2", title: "two" },
    ]);
    await expect(admin().items.insert("Notes", { _id: "b1", title: "again" })).rejects.toThrow();
    const events = await eventsAfter(app, 2);
    expect(events.map((received) => [received.type, (received.event.entity as { _id: string })._id])).toEqual([
      ["item created", "b1"],
      ["item created", "b2"],
    ]);
  });
});

describe("member events", () => {
  it("reach onMemberCreated, onMemberUpdated and onMemberDeleted with the member in full", async () => {
    const member = await admin().members.createMember({ member: { loginEmail: "hooked@ridgeline.example", profile: { nickname: "Hooked" } } });
    const [created] = await eventsAfter(app, 1);
    expect(created.type).toBe("member created");
    expect(created.event.entity).toMatchObject({ _id: member._id, loginEmail: "hooked@ridgeline.example", profile: { nickname: "Hooked" } });
    expect(metadataOf(created)).toMatchObject({ entityFqdn: "wix.members.v1.member", slug: "created", entityId: member._id });

    await admin().members.updateMember(member._id!, { profile: { nickname: "Renamed" } });
    const [updated] = await eventsAfter(app, 1);
    expect(updated).toMatchObject({ type: "member updated", event: { entity: { _id: member._id, profile: { nickname: "Renamed" } } } });

    await admin().members.deleteMember(member._id!);
    const [deleted] = await eventsAfter(app, 1);
    expect(deleted.type).toBe("member deleted");
    expect(metadataOf(deleted)).toMatchObject({ entityFqdn: "wix.members.v1.member", slug: "deleted", entityId: member._id });
  });

  it("reach onFollowMemberFollowed and onFollowMemberUnfollowed with both members", async () => {
    const tokens = (await signInThroughHostedPage(platform.callbackUrl, DEMO_MEMBER)).tokens;
    await eventsAfter(app, 1, 500); // signing in is no event; any member update it made is dropped here
    const dana = createClient({ modules: { memberFollowers }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, tokens }) });
    const danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
    await dana.memberFollowers.followMember(rowanId);
    await dana.memberFollowers.unfollowMember(rowanId);
    const events = await eventsAfter(app, 2);
    expect(metadataOf(events[0]).identity).toEqual({ identityType: "MEMBER", memberId: danaId });
    expect(events).toEqual([
      expect.objectContaining({
        type: "followed",
        event: expect.objectContaining({ data: { memberConnection: { memberId: danaId, affectedMemberId: rowanId } } }),
      }),
      expect.objectContaining({
        type: "unfollowed",
        event: expect.objectContaining({ data: { memberConnection: { memberId: danaId, affectedMemberId: rowanId } } }),
      }),
    ]);
  });
});

describe("the data service's other events", () => {
  it("follow an index from its creation through its build to its drop", async () => {
    const index = await admin().indexes.createIndex("Notes", { name: "by-title", fields: [{ path: "title" }] });
    const [created, built] = await eventsAfter(app, 2);
    expect(created).toMatchObject({ type: "index created", event: { entity: { _id: index._id, name: "by-title", status: "BUILDING" } } });
    expect(built).toMatchObject({ type: "index updated", event: { entity: { _id: index._id, status: "ACTIVE" } } });
    // The build runs after the request that asked for it, and names who asked.
    expect(metadataOf(built).identity).toEqual({ identityType: "WIX_USER" });
    await admin().indexes.dropIndex("Notes", "by-title");
    const events = await eventsAfter(app, 2);
    expect(events.map((received) => received.type)).toEqual(["index updated", "index deleted"]);
    expect(metadataOf(events[1])).toMatchObject({ entityId: index._id });
  });

  it("tell each state of a backup and of a movement job", async () => {
    const { backup } = await admin().backups.createBackup();
    const states = await eventsAfter(app, 2);
    expect(states.map((received) => received.type)).toEqual(["backup", "backup"]);
    expect(states.map((received) => (received.event.data as { backup: { _id: string; status: string } }).backup)).toEqual([
      expect.objectContaining({ _id: backup!._id, status: "PENDING" }),
      expect.objectContaining({ _id: backup!._id, status: "READY" }),
    ]);

    await admin().backups.restoreBackup(backup!._id!);
    // A restoration rewrites the items too, whose own events come among its two.
    const restorations: Received[] = [];
    for (let batch = await eventsAfter(app, 1); batch.length > 0 && restorations.length < 2; batch = await eventsAfter(app, 1)) {
      restorations.push(...batch.filter((received) => received.type === "restoration"));
    }
    expect(restorations.map((received) => (received.event.data as { restoration: { backup: { _id: string }; status: string } }).restoration)).toEqual([
      expect.objectContaining({ backup: expect.objectContaining({ _id: backup!._id }), status: "PENDING" }),
      expect.objectContaining({ status: "COMPLETED" }),
    ]);

    const { job } = await admin().movementJobs.submitJob({ wixDataCollection: { collectionId: "Notes" } }, { file: { format: "CSV" } });
    const jobEvents = await eventsAfter(app, 2);
    expect(jobEvents[0]).toMatchObject({ type: "job created", event: { entity: { _id: job!._id } } });
    expect(jobEvents.at(-1)).toMatchObject({ type: "job updated", event: { entity: { _id: job!._id, status: "COMPLETED" } } });
  });
});

describe("scheduled workflow events", () => {
  it("reach onJobsCreated, onJobsUpdated and onJobsDeleted with the workflow and its next run", async () => {
    const step = { source: { wixDataCollection: { collectionId: "Notes" } }, destination: { file: { format: "CSV" } } };
    const workflows = admin().scheduledWorkflows;
    await workflows.createScheduledDataWorkflow({ _id: "nightly", name: "Nightly", cronExpression: "0 3 * * *", workflow: { steps: [step] } } as never);
    const [created] = await eventsAfter(app, 1);
    expect(created).toMatchObject({ type: "workflow created", event: { entity: { _id: "nightly", name: "Nightly", revision: "1", enabled: true } } });
    expect((created.event.entity as { nextExecutionDate: unknown }).nextExecutionDate).toBeInstanceOf(Date);
    expect(metadataOf(created)).toMatchObject({ entityFqdn: "wix.data.sync.v1.jobs", slug: "created", entityId: "nightly" });

    await workflows.updateScheduledDataWorkflow({ _id: "nightly", revision: "1", enabled: false } as never);
    const [updated] = await eventsAfter(app, 1);
    expect(updated).toMatchObject({ type: "workflow updated", event: { entity: { _id: "nightly", revision: "2", enabled: false } } });
    expect((updated.event.entity as { nextExecutionDate?: unknown }).nextExecutionDate ?? null).toBeNull();

    await workflows.deleteScheduledDataWorkflow("nightly");
    const [deleted] = await eventsAfter(app, 1);
    expect(deleted.type).toBe("workflow deleted");
    expect(metadataOf(deleted)).toMatchObject({ entityFqdn: "wix.data.sync.v1.jobs", slug: "deleted", entityId: "nightly" });
    expect(app.refused).toEqual([]);
  });
});

describe("member badge events", () => {
  it("follow a badge and its assignments, as v4 entities and as v3's assigned and unassigned", async () => {
    const danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    const badge = await admin().badgesV2.createBadge({ title: "Hooked", backgroundColor: "#2E7D32", textColor: "#FFFFFF" });
    const [created] = await eventsAfter(app, 1);
    expect(created).toMatchObject({ type: "badge created", event: { entity: { _id: badge._id, title: "Hooked", slug: "hooked", revision: "1" } } });
    expect((created.event.entity as { _createdDate: unknown })._createdDate).toBeInstanceOf(Date);
    expect(metadataOf(created)).toMatchObject({ entityFqdn: "wix.badges.v4.badge", slug: "created", entityId: badge._id });

    await admin().badgesV2.updateBadge(badge._id!, { title: "Caught" });
    expect(await eventsAfter(app, 1)).toMatchObject([{ type: "badge updated", event: { entity: { _id: badge._id, title: "Caught", revision: "2" } } }]);

    const assignment = await admin().badgeAssignments.createBadgeAssignment({ badgeId: badge._id!, memberId: danaId });
    await admin().badgeAssignments.deleteBadgeAssignment(assignment._id!);
    const [assigned, byV3, unassigned, byV3Gone] = await eventsAfter(app, 4);
    const entity = { _id: assignment._id, badgeId: badge._id, memberId: danaId };
    expect(assigned).toMatchObject({ type: "assignment created", event: { entity } });
    expect(byV3).toMatchObject({ type: "badge assigned", event: { data: { memberId: danaId } } });
    expect(metadataOf(byV3)).toMatchObject({ entityFqdn: "wix.badges.v3.badge", entityId: badge._id });
    expect(unassigned).toMatchObject({ type: "assignment deleted", event: { entity } });
    expect((unassigned.event.entity as { _createdDate: unknown })._createdDate).toBeInstanceOf(Date);
    expect(byV3Gone).toMatchObject({ type: "badge unassigned", event: { data: { memberId: danaId } } });

    // Deleting a badge that is still held deletes it alone: its assignment goes with it, unsent.
    await admin().badgeAssignments.createBadgeAssignment({ badgeId: badge._id!, memberId: danaId });
    await eventsAfter(app, 2);
    await admin().badgesV2.deleteBadge(badge._id!);
    const gone = await eventsAfter(app, 1);
    expect(gone.map((received) => received.type)).toEqual(["badge deleted"]);
    expect(metadataOf(gone[0])).toMatchObject({ entityFqdn: "wix.badges.v4.badge", slug: "deleted", entityId: badge._id });
    expect(app.refused).toEqual([]);
  });
});

describe("member report events", () => {
  it("tell each report, and when a member becomes a reported member and stops being one", async () => {
    const rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
    const { memberReport: first } = await admin().memberReport.reportMember({ reportedMemberId: rowanId, reason: { category: "SPAM", description: "Links" } });
    const [created, becameReported] = await eventsAfter(app, 2);
    expect(created).toMatchObject({
      type: "report created",
      event: { entity: { _id: first!._id, reportedMemberId: rowanId, reason: { category: "SPAM", description: "Links" } } },
    });
    expect((created.event.entity as { _createdDate: unknown })._createdDate).toBeInstanceOf(Date);
    expect(becameReported).toMatchObject({
      type: "reported member created",
      event: { data: { reportedMember: { reportedMemberId: rowanId, reportCount: "1" } } },
    });
    expect((becameReported.event.data as { reportedMember: { lastReportDate: unknown } }).reportedMember.lastReportDate).toBeInstanceOf(Date);
    expect(metadataOf(becameReported)).toMatchObject({ entityFqdn: "wix.members.v1.member_report", slug: "reported_member_created", entityId: rowanId });

    // A second report is only a report; deleting both sends each deletion, then the end of the reported member.
    await admin().memberReport.reportMember({ reportedMemberId: rowanId, reason: { category: "OTHER" } });
    expect((await eventsAfter(app, 1)).map((received) => received.type)).toEqual(["report created"]);
    await admin().memberReport.deleteMemberReports(rowanId);
    const deleted = await eventsAfter(app, 3);
    expect(deleted.map((received) => received.type)).toEqual(["report deleted", "report deleted", "reported member deleted"]);
    expect(metadataOf(deleted[0])).toMatchObject({ entityFqdn: "wix.members.v1.member_report", slug: "deleted", entityId: first!._id });
    expect(deleted[2].event.data).toEqual({ reportedMemberId: rowanId });
    expect(app.refused).toEqual([]);
  });
});

describe("About section events", () => {
  it("reach onMemberAboutCreated, onMemberAboutUpdated and onMemberAboutDeleted with the section as written", async () => {
    const rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
    const paragraph = (text: string) => ({
      nodes: [{ type: "PARAGRAPH" as const, _id: "p1", nodes: [{ type: "TEXT" as const, _id: "", nodes: [], textData: { text, decorations: [] } }] }],
    });
    const about = await admin().membersAbout.createMemberAbout({ memberId: rowanId, content: paragraph("Hiking since 2009") });
    await admin().membersAbout.updateMemberAbout(about._id!, { content: paragraph("Hiking since 2008"), revision: "1" });
    await admin().membersAbout.deleteMemberAbout(about._id!);
    const [created, updated, deleted] = await eventsAfter(app, 3);
    expect(created).toMatchObject({
      type: "about created",
      event: { entity: { _id: about._id, memberId: rowanId, revision: "1", content: paragraph("Hiking since 2009") } },
    });
    expect(updated).toMatchObject({ type: "about updated", event: { entity: { _id: about._id, revision: "2", content: paragraph("Hiking since 2008") } } });
    expect(deleted.type).toBe("about deleted");
    expect(metadataOf(deleted)).toMatchObject({ entityFqdn: "wix.members.about.v2.member_about", slug: "deleted", entityId: about._id });
    expect(app.refused).toEqual([]);
  });
});

describe("what goes with a member", () => {
  it("sends only the member's deletion, not their badges, reports and About section", async () => {
    const member = await admin().members.createMember({ member: { loginEmail: "gone@ridgeline.example" } });
    const badge = await admin().badgesV2.createBadge({ title: "Passing", backgroundColor: "#2E7D32", textColor: "#FFFFFF" });
    await admin().badgeAssignments.createBadgeAssignment({ badgeId: badge._id!, memberId: member._id! });
    await admin().memberReport.reportMember({ reportedMemberId: member._id!, reason: { category: "SPAM" } });
    await admin().membersAbout.createMemberAbout({ memberId: member._id!, content: { nodes: [] } });
    expect(await eventsAfter(app, 7)).toHaveLength(7); // the member, the badge, two for the assignment, two for the report, the section
    await admin().members.deleteMember(member._id!);
    expect((await eventsAfter(app, 1)).map((received) => received.type)).toEqual(["member deleted"]);
    await admin().badgesV2.deleteBadge(badge._id!);
    await eventsAfter(app, 1);
  });
});

describe("sign-on policy events", () => {
  it("reach onSignOnPolicyUpdated when a requirement changes, by the API or elsewhere, and not for the captcha", async () => {
    const updated = await admin().signOnPolicy.updateSignOnPolicy({ requireOwnerApproval: true });
    const [byApi] = await eventsAfter(app, 1);
    expect(byApi).toMatchObject({ type: "policy updated", event: { entity: { _id: updated._id, revision: updated.revision, requireOwnerApproval: true } } });
    expect((byApi.event.entity as { _updatedDate: unknown })._updatedDate).toBeInstanceOf(Date);
    expect(metadataOf(byApi)).toMatchObject({ entityFqdn: "wix.iam.signon.v1.sign_on_policy", slug: "updated", entityId: updated._id });
    expect(metadataOf(byApi).identity).toEqual({ identityType: "WIX_USER" });

    // The same settings changed without a request (as the Studio's and /_local/settings' stores do); a captcha setting is no part of the policy.
    platform.ctx.settings.update({ requireCaptcha: true });
    platform.ctx.settings.update({ requireCaptcha: false, requireOwnerApproval: false });
    const elsewhere = await eventsAfter(app, 1);
    expect(elsewhere).toMatchObject([{ type: "policy updated", event: { entity: { requireOwnerApproval: false, requireEmailVerification: false } } }]);
    expect(metadataOf(elsewhere[0]).identity).toBeUndefined();
    expect(app.refused).toEqual([]);
  });
});

describe("delivery", () => {
  it("tries again when the app does not answer 2xx, and the SDK refuses a call signed with another key", async () => {
    app.script.push(503);
    await admin().items.insert("Notes", { _id: "r1", title: "retried" });
    expect((await eventsAfter(app, 1)).map((received) => received.type)).toEqual(["item created"]);

    const genuine = publicKey;
    const otherFolder = `${platform.config.dataDir}-other`;
    publicKey = new WebhookKeys(otherFolder).publicKeyBase64();
    try {
      await admin().items.insert("Notes", { _id: "r2", title: "forged?" });
      expect(await eventsAfter(app, 1, 1500)).toEqual([]);
      // Refused with 401, so not tried again.
      expect(app.refused).toEqual([expect.stringContaining("signature")]);
    } finally {
      publicKey = genuine;
      fs.rmSync(otherFolder, { recursive: true, force: true });
    }
  });
});
