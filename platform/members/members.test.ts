import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { members } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../identity/passwords";
import { memberSiteClient, signInThroughHostedPage, type SiteClient } from "../identity/test-browser";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

let platform: TestPlatform;
let dana: SiteClient;
let rowan: SiteClient;
let danaId: string;
let rowanId: string;
let admin: ReturnType<typeof adminMembersClient>;

function adminMembersClient(apiKey: string) {
  return createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey, siteId: "local-site" }) });
}

/** The SDK error's status and application code, for asserting refusals. */
async function failure(call: Promise<unknown>) {
  const error = (await call.then(
    () => null,
    (e: unknown) => e,
  )) as { status?: number; details?: { applicationError?: { code?: string } } } | null;
  expect(error, "the call should have failed").not.toBeNull();
  return { status: error?.status, code: error?.details?.applicationError?.code };
}

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ client: dana } = await signInThroughHostedPage(platform.callbackUrl));
  ({ client: rowan } = await signInThroughHostedPage(platform.callbackUrl, SECOND_DEMO_MEMBER));
  admin = adminMembersClient(platform.config.apiKey);
  danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
  rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
});
afterAll(() => platform.close());

describe("members.getCurrentMember through the real @wix/members client", () => {
  it("returns the demo member with the PUBLIC fieldset by default", async () => {
    const { member } = await dana.members.getCurrentMember();
    expect(member).toMatchObject({
      _id: danaId,
      profile: { nickname: "Dana", slug: "dana", title: "Trail steward", photo: { url: "/media/demo/forest.svg" } },
      status: "UNKNOWN",
      privacyStatus: "UNKNOWN",
      activityStatus: "UNKNOWN",
    });
    expect(member?.contactId).toMatch(/^[0-9a-f-]{36}$/);
    expect(member?._createdDate).toBeInstanceOf(Date);
    expect(member?._updatedDate).toBeInstanceOf(Date);
    expect(member).not.toHaveProperty("loginEmail");
    expect(member).not.toHaveProperty("contact");
  });

  it("adds the login email and statuses with EXTENDED", async () => {
    const { member } = await dana.members.getCurrentMember({ fieldsets: ["EXTENDED"] });
    expect(member).toMatchObject({ loginEmail: DEMO_MEMBER.email, status: "APPROVED", privacyStatus: "PUBLIC", activityStatus: "ACTIVE" });
    expect(member).not.toHaveProperty("contact");
  });

  it("adds the contact, email verification and last login with FULL", async () => {
    const { member } = await dana.members.getCurrentMember({ fieldsets: ["FULL"] });
    expect(member).toMatchObject({
      loginEmail: DEMO_MEMBER.email,
      loginEmailVerified: true,
      status: "APPROVED",
      contact: { firstName: "Dana", lastName: "Demo", emails: [DEMO_MEMBER.email], phones: [], addresses: [] },
    });
    expect(member?.lastLoginDate).toBeInstanceOf(Date);
  });

  it("refuses a visitor with a clear error", async () => {
    expect(await failure(memberSiteClient().members.getCurrentMember())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
  });

  it("refuses an unknown fieldset with a 400, not a 500", async () => {
    const { accessToken } = dana.auth.getTokens();
    const response = await fetch("https://edge.wixapis.com/members/v1/members/my?fieldsets=SECRET", {
      headers: { authorization: accessToken.value },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: "INVALID_ARGUMENT" } } });
  });
});

describe("getMember, listMembers and queryMembers", () => {
  it("shows another member's public profile and keeps the rest for the admin", async () => {
    const seen = await dana.members.getMember(rowanId);
    expect(seen).toMatchObject({ _id: rowanId, profile: { nickname: "Rowan", slug: "rowan", title: "Weekend scrambler" }, status: "UNKNOWN" });
    expect(await failure(dana.members.getMember(rowanId, { fieldsets: ["FULL"] }))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    const full = await admin.members.getMember(rowanId, { fieldsets: ["FULL"] });
    expect(full).toMatchObject({ loginEmail: SECOND_DEMO_MEMBER.email, contact: { firstName: "Rowan", lastName: "Reyes" } });
    expect(await failure(admin.members.getMember("00000000-0000-0000-0000-000000000000"))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
  });

  it("lists members with paging, sorting and a total", async () => {
    const firstPage = await admin.members.listMembers({ paging: { limit: 1, offset: 0 }, sorting: [{ fieldName: "profile.nickname", order: "DESC" }] });
    expect(firstPage.members?.map((m) => m.profile?.nickname)).toEqual(["Rowan"]);
    expect(firstPage.metadata).toMatchObject({ count: 1, offset: 0, total: 2 });
    const secondPage = await admin.members.listMembers({ paging: { limit: 1, offset: 1 }, sorting: [{ fieldName: "profile.nickname", order: "DESC" }] });
    expect(secondPage.members?.map((m) => m.profile?.nickname)).toEqual(["Dana"]);
    const everyone = await dana.members.listMembers();
    expect(everyone.members?.map((m) => m.profile?.slug)).toEqual(["dana", "rowan"]);
  });

  it("queries with the builder: filters, paging and totalCount", async () => {
    const byNickname = await dana.members.queryMembers().eq("profile.nickname", "Rowan").find();
    expect(byNickname.items.map((m) => m._id)).toEqual([rowanId]);
    expect(byNickname.totalCount).toBe(1);

    // The builder has no sort; members come oldest first.
    const byIds = await admin.members.queryMembers().in("_id", [danaId, rowanId]).limit(1).find();
    expect(byIds.items.map((m) => m._id)).toEqual([danaId]);
    expect(byIds.totalCount).toBe(2);
    expect(byIds.hasNext()).toBe(true);
    expect((await byIds.next()).items.map((m) => m._id)).toEqual([rowanId]);

    const startsWith = await admin.members.queryMembers().startsWith("profile.slug", "da").find();
    expect(startsWith.items.map((m) => m.profile?.slug)).toEqual(["dana"]);
  });

  it("lets a filter see only the fields the caller may read", async () => {
    const byEmail = (client: SiteClient | typeof admin) => client.members.queryMembers().eq("loginEmail", SECOND_DEMO_MEMBER.email).find();
    expect((await byEmail(dana)).items).toEqual([]);
    expect((await byEmail(admin)).items.map((m) => m._id)).toEqual([rowanId]);
  });

  it("refuses an unknown filter operator with a 400", async () => {
    const response = await fetch("https://www.wixapis.com/members/v1/members/query", {
      method: "POST",
      headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ query: { filter: { "profile.nickname": { $regex: ".*" } } } }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: "INVALID_ARGUMENT" } } });
  });
});

describe("updateMember", () => {
  it("changes only the given fields, replaces arrays whole, and the identity shows the edit", async () => {
    const address = {
      addressLine: "12 Cedar Rd",
      streetAddress: { number: "12", name: "Cedar Rd", apt: "3" },
      city: "Pinecrest",
      subdivision: "US-OR",
      country: "US",
      postalCode: "97000",
    };
    const updated = await dana.members.updateMember(danaId, {
      profile: { title: "Trail captain" },
      contact: {
        firstName: "Danielle",
        phones: ["+1 555 0100", "+1 555 0101"],
        addresses: [address],
        customFields: { boots: { name: "Boot size", value: "41" } },
      },
    });
    expect(updated).toMatchObject({
      profile: { nickname: "Dana", slug: "dana", title: "Trail captain" },
      contact: {
        firstName: "Danielle",
        lastName: "Demo",
        phones: ["+1 555 0100", "+1 555 0101"],
        addresses: [address],
        customFields: { boots: { name: "Boot size", value: "41" } },
      },
    });
    expect(updated.contact?.addresses?.[0]._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(platform.ctx.identities.get(danaId)).toMatchObject({ firstName: "Danielle", nickname: "Dana" });

    const replaced = await dana.members.updateMember(danaId, { contact: { phones: ["+1 555 0199"], addresses: [] } });
    expect(replaced.contact?.phones).toEqual(["+1 555 0199"]);
    expect(replaced.contact?.addresses).toHaveLength(1);
    expect(replaced.profile?.title).toBe("Trail captain");

    const { member } = await dana.members.getCurrentMember({ fieldsets: ["FULL"] });
    expect(member?.contact).toMatchObject({ firstName: "Danielle", phones: ["+1 555 0199"] });
  });

  it("lets a member change only themselves, and never their status", async () => {
    expect(await failure(dana.members.updateMember(rowanId, { profile: { title: "Hacked" } }))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(dana.members.updateMember(danaId, { status: "BLOCKED" }))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect((await admin.members.getMember(rowanId)).profile?.title).toBe("Weekend scrambler");
  });

  it("lets the admin change anyone, nickname and privacy included", async () => {
    const updated = await admin.members.updateMember(rowanId, { profile: { nickname: "Ro" }, privacyStatus: "PUBLIC" });
    expect(updated.profile?.nickname).toBe("Ro");
    expect(platform.ctx.identities.get(rowanId)?.nickname).toBe("Ro");
  });

  it("refuses bad input with a 400", async () => {
    expect(await failure(dana.members.updateMember(danaId, { contact: { emails: ["not-an-email"] } }))).toEqual({ status: 400, code: "INVALID_ARGUMENT" });
    expect(await failure(dana.members.updateMember(danaId, { profile: { nickname: "   " } }))).toEqual({ status: 400, code: "INVALID_ARGUMENT" });
  });
});

describe("slugs", () => {
  it("changes the current member's slug and refuses a taken one", async () => {
    const { member } = await dana.members.updateCurrentMemberSlug("dana-hikes");
    expect(member?.profile?.slug).toBe("dana-hikes");
    expect(platform.ctx.identities.get(danaId)?.slug).toBe("dana-hikes");
    expect(await failure(rowan.members.updateMemberSlug(rowanId, "dana-hikes"))).toEqual({ status: 409, code: "SLUG_ALREADY_EXISTS" });
    expect((await rowan.members.updateMemberSlug(rowanId, "rowan-r")).member?.profile?.slug).toBe("rowan-r");
  });

  it("refuses another member's slug and a malformed slug", async () => {
    expect(await failure(dana.members.updateMemberSlug(rowanId, "mine-now"))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(dana.members.updateCurrentMemberSlug("Not A Slug"))).toEqual({ status: 400, code: "INVALID_ARGUMENT" });
  });
});

describe("createMember, approveMember, blockMember and deleting", () => {
  it("creates a member with a status and privacy, for the admin only", async () => {
    const created = await admin.members.createMember({
      member: { loginEmail: "new@ridgeline.example", status: "PENDING", privacyStatus: "PRIVATE", profile: { nickname: "Newbie", slug: "newbie" } },
    });
    expect(created).toMatchObject({
      loginEmail: "new@ridgeline.example",
      status: "PENDING",
      privacyStatus: "PRIVATE",
      profile: { nickname: "Newbie", slug: "newbie" },
    });
    expect(platform.ctx.identities.get(created._id!)?.status).toBe("PENDING");

    // A private member is hidden from other members.
    expect(await failure(dana.members.getMember(created._id!))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    expect((await dana.members.listMembers()).members?.map((m) => m._id)).not.toContain(created._id);

    expect((await admin.members.approveMember(created._id!)).member?.status).toBe("APPROVED");
    expect((await admin.members.blockMember(created._id!)).member?.status).toBe("BLOCKED");

    expect(await failure(admin.members.createMember({ member: { loginEmail: "new@ridgeline.example" } }))).toEqual({
      status: 409,
      code: "EMAIL_ALREADY_EXISTS",
    });
    expect(await failure(admin.members.createMember({ member: { loginEmail: "other@ridgeline.example", profile: { slug: "rowan-r" } } }))).toEqual({
      status: 409,
      code: "SLUG_ALREADY_EXISTS",
    });
    expect(platform.ctx.identities.findForLogin("other@ridgeline.example")).toBeNull();
  });

  it("refuses create, approve and block to members", async () => {
    expect(await failure(dana.members.createMember({ member: { loginEmail: "x@ridgeline.example" } }))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(dana.members.approveMember(rowanId))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(dana.members.blockMember(rowanId))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
  });

  it("deletes the current member, whose tokens then stop working", async () => {
    const credentials = { email: "leaving@ridgeline.example", password: "leaving-for-good-42" };
    platform.ctx.identities.create({ email: credentials.email, passwordHash: await hashPassword(credentials.password), nickname: "Leaving" });
    const { client: leaving } = await signInThroughHostedPage(platform.callbackUrl, credentials);
    const { member } = await leaving.members.getCurrentMember();
    await leaving.members.deleteMyMember();
    expect(platform.ctx.identities.get(member!._id!)).toBeNull();
    expect(await failure(admin.members.getMember(member!._id!))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    expect((await failure(leaving.members.getCurrentMember())).status).toBe(401);
  });
});
