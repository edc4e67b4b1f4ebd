import { createClient, OAuthStrategy } from "@wix/sdk";
import { membersAbout, memberPrivacySettings } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { demoMembersWith } from "../identity/test-browser";
import { refusalOf, startTestPlatform, type TestPlatform } from "../testing";

// `@wix/members` membersAbout through the real client (docs/platform/member-abouts.md).

const modules = { membersAbout, memberPrivacySettings };
type Demo = Awaited<ReturnType<typeof demoMembersWith<typeof modules>>>;
let platform: TestPlatform;
let admin: Demo["admin"];
let dana: Demo["dana"];
let rowan: Demo["rowan"];
let danaId: string;
let rowanId: string;

const visitor = () => createClient({ modules, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });

const paragraph = (text: string) => ({
  nodes: [{ type: "PARAGRAPH" as const, _id: "p1", nodes: [{ type: "TEXT" as const, _id: "", nodes: [], textData: { text, decorations: [] } }] }],
});
const textOf = (about: { content?: unknown } | undefined) => (about?.content as ReturnType<typeof paragraph> | undefined)?.nodes[0].nodes[0].textData.text;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ admin, dana, rowan, danaId, rowanId } = await demoMembersWith(platform, modules));
});
afterAll(() => platform.close());

describe("a member's own About section", () => {
  let aboutId: string;

  it("is created by the member for themselves, rich content kept as sent, at revision 1; one per member", async () => {
    expect(await dana.membersAbout.getMyMemberAbout()).toEqual({});
    const created = await dana.membersAbout.createMemberAbout({ content: paragraph("Hiking since 2009") });
    expect(created).toMatchObject({ _id: expect.stringMatching(/^[0-9a-f-]{36}$/), memberId: danaId, revision: "1" });
    expect(created.content).toEqual(paragraph("Hiking since 2009"));
    aboutId = created._id!;
    expect((await dana.membersAbout.getMyMemberAbout()).memberAbout).toEqual(created);
    expect(await refusalOf(dana.membersAbout.createMemberAbout({ content: paragraph("Twice") }))).toEqual({ status: 409, code: "ALREADY_EXISTS" });
  });

  it("is updated with the current revision only, and read by anyone who may see the member", async () => {
    const updated = await dana.membersAbout.updateMemberAbout(aboutId, { content: paragraph("Hiking since 2008"), revision: "1" });
    expect(updated).toMatchObject({ _id: aboutId, revision: "2" });
    expect(textOf(updated)).toBe("Hiking since 2008");
    expect(await refusalOf(dana.membersAbout.updateMemberAbout(aboutId, { content: paragraph("Stale"), revision: "1" }))).toEqual({
      status: 409,
      code: "INVALID_REVISION",
    });
    expect(textOf(await visitor().membersAbout.getMemberAbout(aboutId))).toBe("Hiking since 2008");
    expect(textOf(await rowan.membersAbout.getMemberAbout(aboutId))).toBe("Hiking since 2008");
  });

  it("cannot be changed or deleted by another member; a visitor cannot write at all", async () => {
    expect(await refusalOf(rowan.membersAbout.updateMemberAbout(aboutId, { content: paragraph("Mine now"), revision: "2" }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
    expect(await refusalOf(rowan.membersAbout.deleteMemberAbout(aboutId))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalOf(visitor().membersAbout.createMemberAbout({ content: paragraph("Anonymous") }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
    expect(await refusalOf(rowan.membersAbout.createMemberAbout({ memberId: danaId, content: paragraph("For Dana") }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
    expect(await refusalOf(visitor().membersAbout.getMyMemberAbout())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
  });
});

describe("the site owner and queries", () => {
  it("the site owner writes anyone's section, naming the member; an unknown member is 404", async () => {
    const created = await admin.membersAbout.createMemberAbout({ memberId: rowanId, content: paragraph("Trail crew lead") });
    expect(created.memberId).toBe(rowanId);
    expect(await refusalOf(admin.membersAbout.createMemberAbout({ content: paragraph("Whose?") }))).toMatchObject({ status: 400 });
    expect(await refusalOf(admin.membersAbout.createMemberAbout({ memberId: "00000000-0000-0000-0000-000000000000", content: paragraph("Nobody") }))).toEqual({
      status: 404,
      code: "MEMBER_NOT_FOUND",
    });
  });

  it("queries by member, pages with cursors that keep the filter, and leaves out members the caller may not see", async () => {
    const byMember = await visitor().membersAbout.queryMemberAbouts().eq("memberId", rowanId).find();
    expect(byMember.items.map((about) => textOf(about))).toEqual(["Trail crew lead"]);

    const first = await visitor().membersAbout.queryMemberAbouts().limit(1).find();
    expect(first.items.map((about) => about.memberId)).toEqual([danaId]);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    expect(second.items.map((about) => about.memberId)).toEqual([rowanId]);
    expect(second.hasNext()).toBe(false);

    const filteredFirst = await visitor().membersAbout.queryMemberAbouts().ne("memberId", danaId).limit(1).find();
    expect(filteredFirst.items.map((about) => about.memberId)).toEqual([rowanId]);
    expect(filteredFirst.hasNext()).toBe(false);

    // Public profiles shown to members only: a visitor's query and get find nothing.
    await admin.memberPrivacySettings.setMemberPrivacySettings({ publicMemberVisibility: "VISIBLE_TO_MEMBERS_ONLY", revision: "0" });
    expect((await visitor().membersAbout.queryMemberAbouts().find()).items).toEqual([]);
    expect((await rowan.membersAbout.queryMemberAbouts().find()).items).toHaveLength(2);
  });

  it("deletes a section: the member's own, or anyone's for the site owner; gone with its member too", async () => {
    const mine = (await dana.membersAbout.getMyMemberAbout()).memberAbout!;
    await dana.membersAbout.deleteMemberAbout(mine._id!);
    expect(await dana.membersAbout.getMyMemberAbout()).toEqual({});
    expect(await refusalOf(admin.membersAbout.getMemberAbout(mine._id!))).toEqual({ status: 404, code: "NOT_FOUND" });

    const rowans = (await rowan.membersAbout.getMyMemberAbout()).memberAbout!;
    platform.ctx.identities.delete(rowanId);
    expect(await refusalOf(admin.membersAbout.getMemberAbout(rowans._id!))).toEqual({ status: 404, code: "NOT_FOUND" });
  });
});
