import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { members } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../identity/passwords";
import { memberSiteClient, signInThroughHostedPage, type SiteClient } from "../identity/test-browser";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

// The community, search, mute and bulk-delete calls of `@wix/members`, through the real client
// (docs/platform/members.md §4 and §5).

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

/** The slugs a caller finds in the directory (listMembers) and by query, which must agree. */
async function listedSlugs(client: SiteClient | typeof admin) {
  const listed = (await client.members.listMembers()).members?.map((member) => member.profile?.slug);
  const queried = (await client.members.queryMembers().find()).items.map((member) => member.profile?.slug);
  expect(queried).toEqual(listed);
  return listed;
}

async function createMember(email: string, nickname: string) {
  platform.ctx.identities.create({ email, passwordHash: await hashPassword("community-walks-42"), nickname });
  return signInThroughHostedPage(platform.callbackUrl, { email, password: "community-walks-42" });
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

describe("joinCommunity and leaveCommunity", () => {
  it("leaving makes the member's profile private: hidden from other members and visitors, still theirs to read", async () => {
    const { member } = await rowan.members.leaveCommunity();
    expect(member).toMatchObject({ _id: rowanId, privacyStatus: "PRIVATE", profile: { slug: "rowan" } });
    expect(member?._updatedDate).toBeInstanceOf(Date);
    expect(platform.ctx.identities.get(rowanId)?.privacyStatus).toBe("PRIVATE");

    const visitor = memberSiteClient();
    expect(await listedSlugs(visitor)).toEqual(["dana"]);
    expect(await listedSlugs(dana)).toEqual(["dana"]);
    expect(await failure(visitor.members.getMember(rowanId))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    expect(await failure(dana.members.getMember(rowanId))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    // The member and the site owner still see them.
    expect((await rowan.members.getCurrentMember({ fieldsets: ["EXTENDED"] })).member?.privacyStatus).toBe("PRIVATE");
    expect(await listedSlugs(admin)).toEqual(["dana", "rowan"]);
  });

  it("joining makes it public again, for everyone", async () => {
    const { member } = await rowan.members.joinCommunity();
    expect(member).toMatchObject({ _id: rowanId, privacyStatus: "PUBLIC" });
    const visitor = memberSiteClient();
    expect(await listedSlugs(visitor)).toEqual(["dana", "rowan"]);
    expect((await visitor.members.getMember(rowanId)).profile?.nickname).toBe("Rowan");
    // Joining twice changes nothing.
    expect((await rowan.members.joinCommunity()).member?.privacyStatus).toBe("PUBLIC");
  });

  it("is the signed-in member's own call: a visitor and the site's API key are refused", async () => {
    expect(await failure(memberSiteClient().members.joinCommunity())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(admin.members.leaveCommunity())).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(platform.ctx.identities.get(rowanId)?.privacyStatus).toBe("PUBLIC");
  });
});

describe("queryMembers with a plain-text search", () => {
  it("looks in the nickname by default, in any case and inside a word", async () => {
    const found = await dana.members.queryMembers({ search: { expression: "OWA" } }).find();
    expect(found.items.map((member) => member._id)).toEqual([rowanId]);
    expect(found.totalCount).toBe(1);
    expect((await dana.members.queryMembers({ search: { expression: "nobody here" } }).find()).items).toEqual([]);
  });

  it("looks in the named fields, every word somewhere, together with the filter", async () => {
    const byName = await admin.members.queryMembers({ search: { expression: "reyes ro", fields: ["contact.lastName", "profile.nickname"] } }).find();
    expect(byName.items.map((member) => member._id)).toEqual([rowanId]);
    const bySlug = await admin.members.queryMembers({ search: { expression: "a", fields: ["profile.slug"] } }).find();
    expect(bySlug.items.map((member) => member._id)).toEqual([danaId, rowanId]);
    const narrowed = await admin.members
      .queryMembers({ search: { expression: "a", fields: ["profile.slug"] } })
      .eq("profile.nickname", "Dana")
      .find();
    expect(narrowed.items.map((member) => member._id)).toEqual([danaId]);
  });

  it("searches only what the caller may read: the login email is the site owner's", async () => {
    const byEmail = (client: SiteClient | typeof admin) =>
      client.members.queryMembers({ search: { expression: "rowan@ridgeline", fields: ["loginEmail"] } }).find();
    expect((await byEmail(admin)).items.map((member) => member._id)).toEqual([rowanId]);
    expect((await byEmail(dana)).items).toEqual([]);
  });

  it("refuses a field it cannot search and an empty expression with a 400", async () => {
    const search = (body: unknown) =>
      fetch("https://www.wixapis.com/members/v1/members/query", {
        method: "POST",
        headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const body of [{ search: { expression: "a", fields: ["contact.phones"] } }, { search: { expression: "  " } }]) {
      const response = await search(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ details: { applicationError: { code: "INVALID_ARGUMENT" } } });
    }
  });
});

describe("muteMember and unmuteMember", () => {
  it("mutes and unmutes a member: the site owner's call, seen in the EXTENDED activity status", async () => {
    const muted = await admin.members.muteMember(rowanId);
    expect(muted.member).toMatchObject({ _id: rowanId, activityStatus: "MUTED", status: "APPROVED" });
    expect((await rowan.members.getCurrentMember({ fieldsets: ["EXTENDED"] })).member?.activityStatus).toBe("MUTED");
    // The public profile does not tell.
    expect((await dana.members.getMember(rowanId)).activityStatus).toBe("UNKNOWN");
    const listed = await admin.members.listMembers({ fieldsets: ["EXTENDED"] });
    expect(listed.members?.map((member) => [member.profile?.slug, member.activityStatus])).toEqual([
      ["dana", "ACTIVE"],
      ["rowan", "MUTED"],
    ]);

    expect((await admin.members.unmuteMember(rowanId)).member?.activityStatus).toBe("ACTIVE");
    expect((await admin.members.getMember(rowanId, { fieldsets: ["FULL"] })).activityStatus).toBe("ACTIVE");
  });

  it("refuses members and unknown ids", async () => {
    expect(await failure(dana.members.muteMember(rowanId))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(rowan.members.unmuteMember(rowanId))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await failure(admin.members.muteMember("00000000-0000-0000-0000-000000000000"))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
  });
});

describe("bulkDeleteMembers", () => {
  it("deletes each member named, reports an unknown id alone, and ends the deleted members' tokens", async () => {
    const { client: first } = await createMember("first@ridgeline.example", "First");
    const { client: second } = await createMember("second@ridgeline.example", "Second");
    const firstId = (await first.members.getCurrentMember()).member!._id!;
    const secondId = (await second.members.getCurrentMember()).member!._id!;
    await admin.members.muteMember(secondId);
    const unknown = "00000000-0000-0000-0000-000000000000";

    const { results, bulkActionMetadata } = await admin.members.bulkDeleteMembers([firstId, unknown, secondId]);
    expect(results).toEqual([
      { itemMetadata: { _id: firstId, originalIndex: 0, success: true } },
      {
        itemMetadata: {
          _id: unknown,
          originalIndex: 1,
          success: false,
          error: { code: "MEMBER_NOT_FOUND", description: `Member with id ${unknown} not found.`, data: { _id: unknown } },
        },
      },
      { itemMetadata: { _id: secondId, originalIndex: 2, success: true } },
    ]);
    expect(bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 1, undetailedFailures: 0 });
    expect(platform.ctx.identities.get(firstId)).toBeNull();
    expect((await failure(second.members.getCurrentMember())).status).toBe(401);
    expect(await listedSlugs(admin)).toEqual(["dana", "rowan"]);
  });

  it("is the site owner's call, and needs one to a hundred ids", async () => {
    expect(await failure(dana.members.bulkDeleteMembers([rowanId]))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect((await failure(admin.members.bulkDeleteMembers([]))).status).toBe(400);
    expect(platform.ctx.identities.get(rowanId)).not.toBeNull();
  });
});
