import { createClient, OAuthStrategy } from "@wix/sdk";
import { items } from "@wix/data";
import { members } from "@wix/members";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { hashPassword } from "../identity/passwords";
import { codeOf, createCollection } from "../data/test-support";
import { getAuthUrl, memberSiteClient, signInThroughHostedPage, type SiteClient, type TestBrowser } from "../identity/test-browser";
import type { MemberStatus } from "../identity/store";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { refusalOf, siteOwnerClient, startTestPlatform, type TestPlatform } from "../testing";

// The site owner's by-filter bulk calls of `@wix/members` (approve, block, delete) and
// disconnectMember, through the real client (docs/platform/members.md §5).

let platform: TestPlatform;
let dana: SiteClient;
let admin: ReturnType<typeof adminMembersClient>;

const adminMembersClient = (apiKey: string) => siteOwnerClient(apiKey, { members });

const statusOf = (email: string) => platform.ctx.identities.findForLogin(email)?.identity.status ?? null;

function addMember(email: string, nickname: string, status: MemberStatus) {
  return platform.ctx.identities.create({ email, passwordHash: "unused", nickname, status })!.id;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ client: dana } = await signInThroughHostedPage(platform.callbackUrl));
  admin = adminMembersClient(platform.config.apiKey);
  await createCollection(platform, "Logbook", [{ key: "text", type: "TEXT" }], { read: "ANYONE", insert: "SITE_MEMBER", update: "ADMIN", remove: "ADMIN" });
});
afterAll(() => platform.close());

describe("bulkApproveMembers and bulkBlockMembers", () => {
  it("approve every member the filter matches, and only those; the reply names a job", async () => {
    addMember("wren@ridgeline.example", "Wren", "PENDING");
    addMember("ash@ridgeline.example", "Ash", "PENDING");
    addMember("moss@ridgeline.example", "Moss", "BLOCKED");

    const { jobId } = await admin.members.bulkApproveMembers({ status: "PENDING", "profile.nickname": { $ne: "Ash" } });
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect([statusOf("wren@ridgeline.example"), statusOf("ash@ridgeline.example"), statusOf("moss@ridgeline.example")]).toEqual([
      "APPROVED",
      "PENDING",
      "BLOCKED",
    ]);
  });

  it("block by any field the site owner reads, the login email too; approving unblocks", async () => {
    await admin.members.bulkBlockMembers({ loginEmail: { $in: ["wren@ridgeline.example", DEMO_MEMBER.email] } });
    expect([statusOf("wren@ridgeline.example"), statusOf(DEMO_MEMBER.email), statusOf(SECOND_DEMO_MEMBER.email)]).toEqual(["BLOCKED", "BLOCKED", "APPROVED"]);
    await admin.members.bulkApproveMembers({ status: "BLOCKED" });
    expect([statusOf("wren@ridgeline.example"), statusOf(DEMO_MEMBER.email), statusOf("moss@ridgeline.example")]).toEqual(["APPROVED", "APPROVED", "APPROVED"]);
    // The block ended Dana's session; unblocked, she signs in again.
    expect((await refusalOf(dana.members.getCurrentMember())).status).toBe(401);
    ({ client: dana } = await signInThroughHostedPage(platform.callbackUrl));
  });

  it("are the site owner's calls; a filter is required", async () => {
    expect(await refusalOf(dana.members.bulkBlockMembers({}))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalOf(dana.members.bulkApproveMembers({}))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect((await refusalOf(admin.members.bulkBlockMembers(undefined))).status).toBe(400);
    expect(statusOf(SECOND_DEMO_MEMBER.email)).toBe("APPROVED");
  });
});

/** A new member signed in through the hosted page: their client (members and data), tokens and the browser holding the platform's session cookie. */
async function signedInMember(email: string, nickname: string) {
  const password = "walks-the-ridge-42";
  const { id } = platform.ctx.identities.create({ email, passwordHash: await hashPassword(password), nickname })!;
  const { client, tokens, browser } = await signInThroughHostedPage(platform.callbackUrl, { email, password });
  return { id, client: createClient({ modules: { members, items }, auth: client.auth }), tokens, browser };
}

/** Everything a signed-in member could do before the block is refused: their access token, their refresh token, a data write, the platform's session cookie. */
async function expectAccessEnded(member: Awaited<ReturnType<typeof signedInMember>>) {
  expect((await refusalOf(member.client.members.getCurrentMember())).status).toBe(401);
  await expect(member.client.auth.renewToken(member.tokens.refreshToken)).rejects.toThrow();
  expect(await codeOf(member.client.items.insert("Logbook", { text: "still here" }))).toBe("UNAUTHENTICATED");
  expect(await silentSignIn(member.browser)).toBe("login_required");
}

/** A silent sign-in (prompt=none) with the platform's session cookie the browser holds: the error it comes back with, or null for a code. */
async function silentSignIn(browser: TestBrowser) {
  const client = memberSiteClient();
  const { authUrl } = await getAuthUrl(client, client.auth.generateOAuthData(platform.callbackUrl), { responseMode: "query", prompt: "none" });
  return new URL((await browser.get(authUrl)).location!).searchParams.get("error");
}

describe("a block ends the member's access at once", () => {
  it("blockMember: the access token, the refresh token, data writes and the platform session all end", async () => {
    const lark = await signedInMember("lark@ridgeline.example", "Lark");
    await lark.client.items.insert("Logbook", { text: "before the block" });
    // A pair of no login session, as a server's authorized_client grant issues it, ends too.
    const serverPair = platform.ctx.tokens.issuePair({ role: "member", subjectId: lark.id, clientId: LOCAL_CLIENT_ID });
    expect((await admin.members.blockMember(lark.id)).member?.status).toBe("BLOCKED");
    await expectAccessEnded(lark);
    expect(platform.ctx.tokens.resolveAccess(serverPair.accessToken)).toBeNull();
    expect(platform.ctx.tokens.refresh(serverPair.refreshToken, LOCAL_CLIENT_ID)).toBeNull();
  });

  it("bulkBlockMembers: every member the filter matches loses their access; the others keep theirs", async () => {
    const reed = await signedInMember("reed@ridgeline.example", "Reed");
    const sage = await signedInMember("sage@ridgeline.example", "Sage");
    await admin.members.bulkBlockMembers({ loginEmail: "reed@ridgeline.example" });
    await expectAccessEnded(reed);
    expect((await sage.client.members.getCurrentMember()).member?._id).toBe(sage.id);
    await sage.client.items.insert("Logbook", { text: "not blocked" });
  });

  it("updateMember with the BLOCKED status ends access too; unblocking does not bring the old tokens back", async () => {
    const tarn = await signedInMember("tarn@ridgeline.example", "Tarn");
    await admin.members.updateMember(tarn.id, { status: "BLOCKED" });
    await expectAccessEnded(tarn);
    await admin.members.approveMember(tarn.id);
    expect((await refusalOf(tarn.client.members.getCurrentMember())).status).toBe(401);
  });
});

describe("bulkDeleteMembersByFilter", () => {
  it("deletes the members the filter and the search both match, and ends their tokens", async () => {
    const { client: rowan } = await signInThroughHostedPage(platform.callbackUrl, SECOND_DEMO_MEMBER);
    addMember("ivy-two@ridgeline.example", "Ivy Two", "PENDING");
    const { jobId } = await admin.members.bulkDeleteMembersByFilter(
      { status: { $in: ["APPROVED", "PENDING"] } },
      { search: { expression: "o", fields: ["profile.nickname"] } },
    );
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    // Rowan (the second demo member), Ivy Two and Moss have an "o"; Dana, Wren and Ash do not.
    for (const email of [SECOND_DEMO_MEMBER.email, "ivy-two@ridgeline.example", "moss@ridgeline.example"]) expect(statusOf(email)).toBeNull();
    for (const email of [DEMO_MEMBER.email, "wren@ridgeline.example", "ash@ridgeline.example"]) expect(statusOf(email)).not.toBeNull();
    expect((await refusalOf(rowan.members.getCurrentMember())).status).toBe(401);
  });

  it("is the site owner's call", async () => {
    expect(await refusalOf(dana.members.bulkDeleteMembersByFilter({}))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(statusOf("ash@ridgeline.example")).not.toBeNull();
  });
});

describe("disconnectMember", () => {
  it("sets the status to OFFLINE for good: tokens end, login is refused, only the site owner still sees the member", async () => {
    platform.ctx.identities.create({
      email: "fern@ridgeline.example",
      passwordHash: await hashPassword("fern-walks-42"),
      nickname: "Fern",
      privacyStatus: "PUBLIC",
    });
    const { client: fern, browser } = await signInThroughHostedPage(platform.callbackUrl, { email: "fern@ridgeline.example", password: "fern-walks-42" });
    const fernId = (await fern.members.getCurrentMember()).member!._id!;

    const { member } = await admin.members.disconnectMember(fernId);
    expect(member).toMatchObject({ _id: fernId, status: "OFFLINE", profile: { slug: "fern" } });
    expect((await refusalOf(fern.members.getCurrentMember())).status).toBe(401);
    expect(await silentSignIn(browser)).toBe("login_required");
    const login = await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).login({ email: "fern@ridgeline.example", password: "fern-walks-42" });
    // Refused as a blocked account is (the IAM service's code -19958): the password is right.
    expect(login).toMatchObject({ loginState: "FAILURE", error: expect.stringContaining("blocked") });
    expect(await refusalOf(memberSiteClient().members.getMember(fernId))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    expect((await dana.members.listMembers()).members?.map((m) => m.profile?.slug)).not.toContain("fern");
    expect((await admin.members.getMember(fernId, { fieldsets: ["FULL"] })).status).toBe("OFFLINE");

    // For good: approving or blocking it again is refused, and the by-filter calls pass over it.
    expect(await refusalOf(admin.members.approveMember(fernId))).toEqual({ status: 400, code: "INVALID_ARGUMENT" });
    expect(await refusalOf(admin.members.blockMember(fernId))).toEqual({ status: 400, code: "INVALID_ARGUMENT" });
    await admin.members.bulkApproveMembers({ loginEmail: "fern@ridgeline.example" });
    expect(statusOf("fern@ridgeline.example")).toBe("OFFLINE");
  });

  it("is the site owner's call; an unknown id is 404", async () => {
    const danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
    expect(await refusalOf(dana.members.disconnectMember(danaId))).toEqual({ status: 403, code: "PERMISSION_DENIED" });
    expect(await refusalOf(admin.members.disconnectMember("00000000-0000-0000-0000-000000000000"))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    expect(statusOf(DEMO_MEMBER.email)).toBe("APPROVED");
  });
});

describe("deleteMemberEmails, deleteMemberPhones and deleteMemberAddresses", () => {
  it("empty the contact's lists, the login e-mail included, and leave the login e-mail itself alone", async () => {
    const id = (await admin.members.createMember({ member: { loginEmail: "lists@ridgeline.example", contact: { phones: ["+1 555 0100"] } } }))._id!;
    expect((await admin.members.getMember(id, { fieldsets: ["FULL"] })).contact?.emails).toEqual(["lists@ridgeline.example"]);

    expect((await admin.members.deleteMemberEmails(id)).member?.contact?.emails).toEqual([]);
    expect((await admin.members.deleteMemberPhones(id)).member?.contact?.phones).toEqual([]);
    await admin.members.updateMember(id, { contact: { addresses: [{ city: "Boulder" }] } });
    expect((await admin.members.deleteMemberAddresses(id)).member?.contact?.addresses).toEqual([]);
    const after = await admin.members.getMember(id, { fieldsets: ["FULL"] });
    expect(after.contact?.emails).toEqual([]);
    expect(after.loginEmail).toBe("lists@ridgeline.example");
    // A later update of other fields does not bring the login e-mail back into the list.
    expect((await admin.members.updateMember(id, { profile: { title: "Guide" } })).contact?.emails).toEqual([]);
  });
});
