import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, OAuthStrategy, type Tokens } from "@wix/sdk";
import { memberFollowers } from "@wix/members";
import { LOCAL_CLIENT_ID } from "../config";
import { signInThroughHostedPage } from "../identity/test-browser";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

/** `memberFollowers` through the real `@wix/members` client, as members and as a visitor. */

let platform: TestPlatform;
let dana: ReturnType<typeof followersClient>;
let rowan: ReturnType<typeof followersClient>;
let danaId: string;
let rowanId: string;

const followersClient = (tokens?: Tokens) =>
  createClient({ modules: { memberFollowers }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, ...(tokens && { tokens }) }) });

beforeAll(async () => {
  platform = await startTestPlatform();
  dana = followersClient((await signInThroughHostedPage(platform.callbackUrl, DEMO_MEMBER)).tokens);
  rowan = followersClient((await signInThroughHostedPage(platform.callbackUrl, SECOND_DEMO_MEMBER)).tokens);
  danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
  rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
});
afterAll(() => platform.close());

describe("following members", () => {
  it("follows and unfollows, and the lists and connections say so to both members and to visitors", async () => {
    await dana.memberFollowers.followMember(rowanId);
    await dana.memberFollowers.followMember(rowanId);
    expect((await dana.memberFollowers.listCurrentMemberFollowing()).memberIds).toEqual([rowanId]);
    expect((await rowan.memberFollowers.listCurrentMemberFollowers()).memberIds).toEqual([danaId]);
    const visitor = followersClient();
    expect((await visitor.memberFollowers.listMemberFollowers(rowanId)).memberIds).toEqual([danaId]);
    expect((await visitor.memberFollowers.listMemberFollowing(danaId)).memberIds).toEqual([rowanId]);
    expect((await rowan.memberFollowers.queryCurrentMemberConnections([danaId])).connectedMembers).toEqual([
      { connectedMemberId: danaId, followedByMember: false, followingMember: true },
    ]);
    expect((await visitor.memberFollowers.queryMemberConnections(danaId, [rowanId])).connectedMembers).toEqual([
      { connectedMemberId: rowanId, followedByMember: true, followingMember: false },
    ]);

    await dana.memberFollowers.unfollowMember(rowanId);
    expect((await rowan.memberFollowers.listCurrentMemberFollowers()).memberIds).toEqual([]);
  });

  it("pages a long list with cursors", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        platform.ctx.identities.create({ email: `fan-${i}@ridgeline.example`, passwordHash: "none", nickname: `Fan ${i}`, privacyStatus: "PUBLIC" })!.id,
      );
    }
    for (const id of ids) platform.ctx.db.prepare("INSERT INTO member_follows VALUES (?, ?, ?)").run(id, rowanId, Date.now());
    const first = await rowan.memberFollowers.listCurrentMemberFollowers({ paging: { limit: 2 } });
    expect(first.memberIds).toEqual(ids.slice(0, 2));
    const second = await rowan.memberFollowers.listCurrentMemberFollowers({ paging: { limit: 2, cursor: first.metadata.cursors!.next! } });
    expect(second.memberIds).toEqual(ids.slice(2));
    expect(second.metadata.cursors?.next).toBeNull();
    // Deleting a member takes their follows with them.
    platform.ctx.identities.delete(ids[0]);

    expect((await rowan.memberFollowers.listCurrentMemberFollowers()).memberIds).toEqual(ids.slice(1));
  });

  it("keeps private members out of sight, and refuses what needs a member", async () => {
    const quiet = platform.ctx.identities.create({ email: "quiet@ridgeline.example", passwordHash: "none", nickname: "Quiet", privacyStatus: "PRIVATE" })!;
    await expect(dana.memberFollowers.followMember(quiet.id)).rejects.toMatchObject({ details: { applicationError: { code: "MEMBER_NOT_FOUND" } } });
    await expect(followersClient().memberFollowers.listMemberFollowers(quiet.id)).rejects.toMatchObject({
      details: { applicationError: { code: "MEMBER_NOT_FOUND" } },
    });
    await expect(dana.memberFollowers.followMember(danaId)).rejects.toMatchObject({ details: { applicationError: { code: "INVALID_ARGUMENT" } } });
    await expect(followersClient().memberFollowers.followMember(rowanId)).rejects.toMatchObject({
      details: { applicationError: { code: "PERMISSION_DENIED" } },
    });
    await expect(dana.memberFollowers.listCurrentMemberFollowing({ paging: { cursor: "not-a-cursor" } })).rejects.toMatchObject({
      details: { applicationError: { code: "INVALID_ARGUMENT" } },
    });
  });
});
