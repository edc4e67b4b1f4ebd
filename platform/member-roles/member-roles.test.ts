import { authorization, memberRoleDefinition } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoMembersWith } from "../identity/test-browser";
import { refusalOf, startTestPlatform, type TestPlatform } from "../testing";

// `@wix/members` memberRoleDefinition and authorization through the real client (docs/platform/member-roles.md).

const modules = { authorization, memberRoleDefinition };
type Demo = Awaited<ReturnType<typeof demoMembersWith<typeof modules>>>;
let platform: TestPlatform;
let admin: Demo["admin"];
let dana: Demo["dana"];
let danaId: string;
let rowanId: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ admin, dana, danaId, rowanId } = await demoMembersWith(platform, modules));
});
afterAll(() => platform.close());

describe("memberRoleDefinition", () => {
  it("defines roles with an upper-case key, lists and gets them; a key is defined once", async () => {
    const { role } = await admin.memberRoleDefinition.createMemberRoleDefinition("TRAIL_LEADER", { roleTitle: "Trail leader", blockable: true });
    expect(role).toEqual({ _id: expect.stringMatching(/^[0-9a-f-]{36}$/), roleKey: "TRAIL_LEADER", title: "Trail leader", blockable: true, revision: "1" });
    await admin.memberRoleDefinition.createMemberRoleDefinition("WRITER", { roleTitle: "Writer" });
    expect((await admin.memberRoleDefinition.listMemberRoleDefinitions()).roles?.map((r) => [r.roleKey, r.blockable])).toEqual([
      ["TRAIL_LEADER", true],
      ["WRITER", false],
    ]);
    expect((await admin.memberRoleDefinition.getMemberRoleDefinition("WRITER")).role).toMatchObject({ title: "Writer" });
    expect(await refusalOf(admin.memberRoleDefinition.createMemberRoleDefinition("WRITER", { roleTitle: "Again" }))).toEqual({
      status: 409,
      code: "ALREADY_EXISTS",
    });
    expect((await refusalOf(admin.memberRoleDefinition.createMemberRoleDefinition("writer", { roleTitle: "Lower" }))).status).toBe(400);
    expect(await refusalOf(admin.memberRoleDefinition.getMemberRoleDefinition("NOBODY"))).toEqual({ status: 404, code: "NOT_FOUND" });
  });

  it("updates only blockable, with the current revision", async () => {
    const { role } = await admin.memberRoleDefinition.updateMemberRoleDefinition("WRITER", { blockable: true, revision: "1" });
    expect(role).toMatchObject({ roleKey: "WRITER", title: "Writer", blockable: true, revision: "2" });
    expect(await refusalOf(admin.memberRoleDefinition.updateMemberRoleDefinition("WRITER", { blockable: false, revision: "1" }))).toEqual({
      status: 409,
      code: "INVALID_REVISION",
    });
    expect((await admin.memberRoleDefinition.updateMemberRoleDefinition("WRITER", { blockable: false, revision: "2" })).role?.blockable).toBe(false);
  });

  it("is the site owner's alone", async () => {
    expect(await refusalOf(dana.memberRoleDefinition.listMemberRoleDefinitions())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalOf(dana.memberRoleDefinition.createMemberRoleDefinition("MINE", { roleTitle: "Mine" }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
  });
});

describe("authorization", () => {
  it("assigns defined roles, reads a member's roles and queries them by role", async () => {
    expect(await admin.authorization.assignRole(danaId, "TRAIL_LEADER")).toEqual({ roleKey: "TRAIL_LEADER" });
    await admin.authorization.assignRole(danaId, "WRITER");
    await admin.authorization.assignRole(rowanId, "WRITER");
    // Again is no change.
    await admin.authorization.assignRole(rowanId, "WRITER");
    expect((await admin.authorization.getRoles(danaId)).roles).toEqual([
      { roleKey: "TRAIL_LEADER", title: "Trail leader" },
      { roleKey: "WRITER", title: "Writer" },
    ]);
    const leaders = await admin.authorization.queryRoles({ query: { filter: { roleKey: "TRAIL_LEADER" } } });
    expect(leaders.rolesByMemberId).toEqual({
      [danaId]: {
        roles: [
          { roleKey: "TRAIL_LEADER", title: "Trail leader" },
          { roleKey: "WRITER", title: "Writer" },
        ],
      },
    });
    expect(Object.keys((await admin.authorization.queryRoles()).rolesByMemberId ?? {})).toEqual([danaId, rowanId]);
  });

  it("refuses an undefined role, a blockable role for a blocked member, and a role the member lacks", async () => {
    expect(await refusalOf(admin.authorization.assignRole(danaId, "NOBODY"))).toEqual({ status: 404, code: "ROLE_DOES_NOT_EXIST" });
    platform.ctx.identities.update(rowanId, { status: "BLOCKED" });
    expect(await refusalOf(admin.authorization.assignRole(rowanId, "TRAIL_LEADER"))).toEqual({ status: 400, code: "MEMBER_BLOCKED" });
    platform.ctx.identities.update(rowanId, { status: "APPROVED" });
    expect(await refusalOf(admin.authorization.unassignRole(rowanId, "TRAIL_LEADER"))).toEqual({ status: 400, code: "INVALID_ROLE" });
    expect(await refusalOf(admin.authorization.getRoles("00000000-0000-0000-0000-000000000000"))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    expect(await refusalOf(dana.authorization.assignRole(danaId, "WRITER"))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
  });

  it("unassigns; a deleted definition can no longer be given, and members who have it keep it", async () => {
    expect(await admin.authorization.unassignRole(rowanId, "WRITER")).toEqual({ roleKey: "WRITER" });
    expect((await admin.authorization.getRoles(rowanId)).roles).toEqual([]);
    await admin.memberRoleDefinition.deleteMemberRoleDefinition("TRAIL_LEADER");
    expect(await refusalOf(admin.authorization.assignRole(rowanId, "TRAIL_LEADER"))).toEqual({ status: 404, code: "ROLE_DOES_NOT_EXIST" });
    expect((await admin.authorization.getRoles(danaId)).roles?.map((r) => r.roleKey)).toEqual(["TRAIL_LEADER", "WRITER"]);
    expect(await refusalOf(admin.memberRoleDefinition.deleteMemberRoleDefinition("TRAIL_LEADER"))).toEqual({ status: 404, code: "NOT_FOUND" });
  });
});
