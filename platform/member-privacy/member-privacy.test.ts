import { createClient, OAuthStrategy } from "@wix/sdk";
import { defaultPrivacy, memberPrivacySettings, members } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { signInThroughHostedPage, type SiteClient } from "../identity/test-browser";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { refusalOf, siteOwnerClient, startTestPlatform, type TestPlatform } from "../testing";

// `@wix/members` defaultPrivacy and memberPrivacySettings through the real client, and what they
// change: the privacy new members start with, and who sees public profiles
// (docs/platform/member-privacy.md).

const modules = { members, defaultPrivacy, memberPrivacySettings };
let platform: TestPlatform;
let admin: ReturnType<typeof adminClient>;
let dana: SiteClient;
let rowanId: string;

const adminClient = (apiKey: string) => siteOwnerClient(apiKey, modules);
const visitor = () => createClient({ modules, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
const asMember = (client: SiteClient) => createClient({ modules, auth: client.auth });

const nicknames = async (client: { members: SiteClient["members"] }) =>
  ((await client.members.listMembers({ paging: { limit: 100 } })).members ?? []).map((member) => member.profile?.nickname);

/** Signs up through the SDK's own-form helper, as a headless site does, and answers the new member's privacy. */
async function signUp(nickname: string, privacyStatus?: "PUBLIC" | "PRIVATE") {
  const email = `${nickname.toLowerCase()}@ridgeline.example`;
  await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).register({ email, password: "switchbacks-9", profile: { nickname, privacyStatus } });
  return platform.ctx.identities.findForLogin(email)!.identity.privacyStatus;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  admin = adminClient(platform.config.apiKey);
  ({ client: dana } = await signInThroughHostedPage(platform.callbackUrl));
  rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
});
afterAll(() => platform.close());

describe("defaultPrivacy", () => {
  it("starts private at revision 0, and new members start private", async () => {
    const { defaultPrivacy: current } = await admin.defaultPrivacy.getDefaultPrivacyStatus();
    expect(current).toEqual({ _id: expect.stringMatching(/^[0-9a-f-]{36}$/), defaultPrivacy: "PRIVATE", revision: "0" });
    expect(await signUp("Quiet")).toBe("PRIVATE");
    expect(await nicknames(visitor())).not.toContain("Quiet");
  });

  it("set to public with the current revision, new members start public unless they ask otherwise; older ones keep theirs", async () => {
    const before = (await admin.defaultPrivacy.getDefaultPrivacyStatus()).defaultPrivacy!;
    const { defaultPrivacy: set } = await admin.defaultPrivacy.setDefaultPrivacyStatus({ defaultPrivacy: "PUBLIC", revision: "0" });
    expect(set).toEqual({ _id: before._id, defaultPrivacy: "PUBLIC", revision: "1" });
    expect(await signUp("Open")).toBe("PUBLIC");
    expect(await signUp("Shy", "PRIVATE")).toBe("PRIVATE");
    const created = await admin.members.createMember({ member: { loginEmail: "made@ridgeline.example", profile: { nickname: "Made" } } });
    expect(created.privacyStatus).toBe("PUBLIC");
    expect(await nicknames(visitor())).toEqual(expect.arrayContaining(["Open", "Made"]));
    expect(await nicknames(visitor())).not.toContain("Quiet");
  });

  it("refuses a stale revision, and anyone but the site owner", async () => {
    expect(await refusalOf(admin.defaultPrivacy.setDefaultPrivacyStatus({ defaultPrivacy: "PRIVATE", revision: "0" }))).toEqual({
      status: 409,
      code: "INVALID_REVISION",
    });
    expect(await refusalOf(asMember(dana).defaultPrivacy.getDefaultPrivacyStatus())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalOf(visitor().defaultPrivacy.setDefaultPrivacyStatus({ defaultPrivacy: "PRIVATE", revision: "1" }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
    expect((await admin.defaultPrivacy.getDefaultPrivacyStatus()).defaultPrivacy?.defaultPrivacy).toBe("PUBLIC");
  });
});

describe("memberPrivacySettings", () => {
  it("reads the same for visitors, members and the site owner: public profiles seen by all, anyone may have one", async () => {
    const read = await visitor().memberPrivacySettings.getMemberPrivacySettings();
    expect(read.memberPrivacySettings).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      publicMemberVisibility: "VISIBLE_TO_ALL",
      publicMemberCandidates: "ANYONE",
      revision: "0",
    });
    expect(await asMember(dana).memberPrivacySettings.getMemberPrivacySettings()).toEqual(read);
    expect(await admin.memberPrivacySettings.getMemberPrivacySettings()).toEqual(read);
  });

  it("visible to members only: visitors no longer see public profiles, members still do", async () => {
    const { memberPrivacySettings: set } = await admin.memberPrivacySettings.setMemberPrivacySettings({
      publicMemberVisibility: "VISIBLE_TO_MEMBERS_ONLY",
      revision: "0",
    });
    expect(set).toMatchObject({ publicMemberVisibility: "VISIBLE_TO_MEMBERS_ONLY", publicMemberCandidates: "ANYONE", revision: "1" });
    expect(set?._updatedDate).toBeInstanceOf(Date);
    expect(await nicknames(visitor())).toEqual([]);
    expect(await refusalOf(visitor().members.getMember(rowanId))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    expect(await nicknames(dana)).toEqual(expect.arrayContaining(["Dana", "Rowan", "Open"]));
  });

  it("no one public: every profile is out of other members' sight, joining is impossible, new members start private", async () => {
    await admin.memberPrivacySettings.setMemberPrivacySettings({ publicMemberCandidates: "NO_ONE", revision: "1" });
    expect(await nicknames(dana)).toEqual(["Dana"]);
    expect(await refusalOf(dana.members.joinCommunity())).toEqual({ status: 400, code: "COMMUNITY_JOIN_IMPOSSIBLE" });
    const danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    expect(await refusalOf(dana.members.updateMember(danaId, { privacyStatus: "PUBLIC" }))).toEqual({ status: 400, code: "COMMUNITY_JOIN_IMPOSSIBLE" });
    expect(await signUp("Eager", "PUBLIC")).toBe("PRIVATE");
    // The profiles keep their own privacy: letting members be public again shows the public ones.
    await admin.memberPrivacySettings.setMemberPrivacySettings({ publicMemberCandidates: "ANYONE", publicMemberVisibility: "VISIBLE_TO_ALL", revision: "2" });
    expect(await nicknames(visitor())).toEqual(expect.arrayContaining(["Dana", "Rowan", "Open"]));
  });

  it("refuses UNKNOWN values, a stale revision, and anyone but the site owner", async () => {
    expect(await refusalOf(admin.memberPrivacySettings.setMemberPrivacySettings({ publicMemberVisibility: "UNKNOWN", revision: "3" }))).toEqual({
      status: 400,
      code: "INVALID_SETTINGS",
    });
    expect(await refusalOf(admin.memberPrivacySettings.setMemberPrivacySettings({ publicMemberCandidates: "NO_ONE", revision: "1" }))).toEqual({
      status: 409,
      code: "INVALID_REVISION",
    });
    expect(await refusalOf(asMember(dana).memberPrivacySettings.setMemberPrivacySettings({ publicMemberCandidates: "NO_ONE", revision: "3" }))).toEqual({
      status: 403,
      code: "PERMISSION_DENIED",
    });
    expect((await admin.memberPrivacySettings.getMemberPrivacySettings()).memberPrivacySettings?.revision).toBe("3");
  });
});
