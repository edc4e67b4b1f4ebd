import { badgeAssignments, badges, badgesV2 } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMembersWith } from "../identity/test-browser";
import { refusalOf, startTestPlatform, type TestPlatform } from "../testing";

// `@wix/members` badgesV2, badgeAssignments and the older badges (v3) through the real client,
// over the same badges (docs/platform/badges.md).

const modules = { badges, badgesV2, badgeAssignments };
type Demo = Awaited<ReturnType<typeof demoMembersWith<typeof modules>>>;
let platform: TestPlatform;
let admin: Demo["admin"];
let dana: Demo["dana"];
let danaId: string;
let rowanId: string;

const titles = async () => (await admin.badgesV2.queryBadges().find()).items.map((badge) => badge.title);

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ admin, dana, danaId, rowanId } = await demoMembersWith(platform, modules));
});
afterAll(() => platform.close());

describe("badgesV2", () => {
  it("creates badges with a slug from the title, last in the display order, at revision 1", async () => {
    const guide = await admin.badgesV2.createBadge({ title: "Trail Guide!", backgroundColor: "#2E7D32", textColor: "#FFFFFF", description: "Leads walks" });
    expect(guide).toMatchObject({ title: "Trail Guide!", slug: "trail-guide", revision: "1", permissionsEnabled: false, description: "Leads walks" });
    expect(guide._createdDate).toBeInstanceOf(Date);
    await admin.badgesV2.createBadge({ title: "Trail guide", backgroundColor: "#000000", textColor: "#FFFFFF" });
    await admin.badgesV2.createBadge({ title: "Founder", backgroundColor: "#795548", textColor: "#FFFFFF" });
    const found = await admin.badgesV2.queryBadges().find();
    expect(found.items.map((badge) => badge.slug)).toEqual(["trail-guide", "trail-guide-2", "founder"]);
    expect((await admin.badgesV2.getBadge(guide._id!)).title).toBe("Trail Guide!");
    expect((await refusalOf(admin.badgesV2.createBadge({ title: "Bad", backgroundColor: "purple", textColor: "#FFFFFF" }))).status).toBe(400);
  });

  it("updates with the current revision, a new title giving a new slug", async () => {
    const [guide] = (await admin.badgesV2.queryBadges().eq("slug", "trail-guide").find()).items;
    const updated = await admin.badgesV2.updateBadge(guide._id!, { title: "Ranger", revision: "1" });
    expect(updated).toMatchObject({ title: "Ranger", slug: "ranger", revision: "2", backgroundColor: "#2E7D32" });
    expect(await refusalOf(admin.badgesV2.updateBadge(guide._id!, { title: "Stale", revision: "1" }))).toEqual({ status: 409, code: "INVALID_REVISION" });
  });

  it("orders badges: a list first, and one badge first, last or after another", async () => {
    const ids = Object.fromEntries((await admin.badgesV2.queryBadges().find()).items.map((badge) => [badge.title, badge._id!]));
    const { badges: ordered } = await admin.badgesV2.updateBadgesDisplayOrder([ids.Founder]);
    expect(ordered?.map((badge) => badge.title)).toEqual(["Founder", "Ranger", "Trail guide"]);
    await admin.badgesV2.moveBadge(ids.Founder, { position: "LAST" });
    expect(await titles()).toEqual(["Ranger", "Trail guide", "Founder"]);
    await admin.badgesV2.moveBadge(ids.Ranger, { position: "AFTER", moveAfterBadgeId: ids["Trail guide"] });
    expect(await titles()).toEqual(["Trail guide", "Ranger", "Founder"]);
    await admin.badgesV2.moveBadge(ids.Founder, { position: "FIRST" });
    expect(await titles()).toEqual(["Founder", "Trail guide", "Ranger"]);
  });

  it("is the site owner's alone", async () => {
    expect(await refusalOf(dana.badgesV2.queryBadges().find())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalOf(dana.badgesV2.createBadge({ title: "Mine", backgroundColor: "#000000", textColor: "#FFFFFF" }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
  });
});

describe("badgeAssignments", () => {
  it("assigns a badge to a member once, with tags; bulk creation reports each item", async () => {
    const [founder, trail] = (await admin.badgesV2.queryBadges().find()).items;
    const assignment = await admin.badgeAssignments.createBadgeAssignment({ badgeId: founder._id!, memberId: danaId, tags: { tags: { tagIds: ["t1"] } } });
    expect(assignment).toMatchObject({ badgeId: founder._id, memberId: danaId, tags: { tags: { tagIds: ["t1"] }, privateTags: { tagIds: [] } } });
    expect(await refusalOf(admin.badgeAssignments.createBadgeAssignment({ badgeId: founder._id!, memberId: danaId }))).toEqual({
      status: 409,
      code: "ALREADY_EXISTS",
    });
    const bulk = await admin.badgeAssignments.bulkCreateBadgeAssignments(
      [
        { badgeId: founder._id!, memberId: rowanId },
        { badgeId: trail._id!, memberId: "00000000-0000-0000-0000-000000000000" },
      ],
      { returnEntity: true },
    );
    expect(bulk.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    expect(bulk.results?.[0].item?.memberId).toBe(rowanId);
    expect(bulk.results?.[1].itemMetadata?.error?.code).toBe("MEMBER_NOT_FOUND");
  });

  it("queries newest first, retags by id and by filter, and deletes", async () => {
    const all = await admin.badgeAssignments.queryBadgeAssignments().find();
    expect(all.items.map((a) => a.memberId)).toEqual([rowanId, danaId]);
    const [rowans, danas] = all.items;
    const retagged = await admin.badgeAssignments.bulkUpdateBadgeAssignmentTags([danas._id!], {
      assignTags: { tags: { tagIds: ["t2"] } },
      unassignTags: { tags: { tagIds: ["t1"] } },
    });
    expect(retagged.bulkActionMetadata?.totalSuccesses).toBe(1);
    const { jobId } = await admin.badgeAssignments.bulkUpdateBadgeAssignmentTagsByFilter(
      { memberId: rowanId },
      { assignTags: { privateTags: { tagIds: ["p1"] } } },
    );
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const tagged = (await admin.badgeAssignments.queryBadgeAssignments().find()).items;
    expect(tagged.map((a) => [a.tags?.tags?.tagIds, a.tags?.privateTags?.tagIds])).toEqual([
      [[], ["p1"]],
      [["t2"], []],
    ]);
    await admin.badgeAssignments.deleteBadgeAssignment(rowans._id!);
    const deleted = await admin.badgeAssignments.bulkDeleteBadgeAssignments([danas._id!, rowans._id!]);
    expect(deleted.results?.map((r) => r.itemMetadata?.success)).toEqual([true, false]);
    expect((await admin.badgeAssignments.queryBadgeAssignments().find()).items).toEqual([]);
  });
});

describe("badges (v3) over the same badges", () => {
  it("lists, assigns, counts and lists per member and per badge", async () => {
    const listed = await admin.badges.listBadges();
    const listedBadges = listed.badges ?? [];
    expect(listedBadges.map((badge) => badge.title)).toEqual(await titles());
    expect(listed.metadata).toMatchObject({ count: 3, offset: 0, total: 3 });
    const founder = listedBadges[0];
    expect(await admin.badges.assignBadge(founder._id!, [danaId, rowanId])).toEqual({ memberIds: [danaId, rowanId] });
    expect((await admin.badges.listMembersByBadge(founder._id!)).memberIds).toEqual([danaId, rowanId]);
    expect((await admin.badges.listBadgesPerMember([danaId])).memberBadgeIds).toEqual([{ memberId: danaId, badgeIds: [founder._id] }]);
    expect((await admin.badges.getMemberCountsPerBadge()).badgeMemberCounts?.map((count) => count.memberCount)).toEqual([2, 0, 0]);
    // The v4 assignments are these.
    expect((await admin.badgeAssignments.queryBadgeAssignments().eq("badgeId", founder._id!).find()).items).toHaveLength(2);
    await admin.badges.unassignBadge(founder._id!, [rowanId]);
    expect((await admin.badges.listMembersByBadge(founder._id!)).memberIds).toEqual([danaId]);
  });

  it("creates with default colors, updates, reorders and deletes (with the badge's assignments)", async () => {
    const created = await admin.badges.createBadge({ title: "Helper" } as Parameters<typeof admin.badges.createBadge>[0]);
    expect(created).toMatchObject({ title: "Helper", backgroundColor: "#796EFF", textColor: "#FFFFFF", slug: "helper" });
    expect((await admin.badges.updateBadge(created._id!, { permissionsEnabled: true })).permissionsEnabled).toBe(true);
    const { badges: ordered } = await admin.badges.updateBadgesDisplayOrder([created._id!]);
    expect(ordered?.[0].title).toBe("Helper");
    const founder = (await admin.badges.listBadges()).badges?.find((badge) => badge.title === "Founder");
    await admin.badges.deleteBadge(founder!._id!);
    expect(await refusalOf(admin.badges.getBadge(founder!._id!))).toEqual({ status: 404, code: "NOT_FOUND" });
    expect((await admin.badgeAssignments.queryBadgeAssignments().find()).items).toEqual([]);
    expect(await refusalOf(dana.badges.listBadges())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
  });
});
