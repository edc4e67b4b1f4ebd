import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyStrategy, createClient, OAuthStrategy, type Tokens } from "@wix/sdk";
import { members, memberToMemberBlock } from "@wix/members";
import { LOCAL_CLIENT_ID } from "../config";
import { signInThroughHostedPage } from "../identity/test-browser";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { refusalOf, refusalWithData, siteOwnerClient, startTestPlatform, type TestPlatform } from "../testing";

/** `memberToMemberBlock` through the real `@wix/members` client: members for themselves, the site owner for anyone. */

let platform: TestPlatform;
let dana: ReturnType<typeof blocksClient>;
let danaId: string;
let rowanId: string;

const blocksClient = (tokens?: Tokens) =>
  createClient({ modules: { memberToMemberBlock, members }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, ...(tokens && { tokens }) }) });
const code = (code: string) => ({ details: { applicationError: { code } } });

beforeAll(async () => {
  platform = await startTestPlatform();
  dana = blocksClient((await signInThroughHostedPage(platform.callbackUrl, DEMO_MEMBER)).tokens);
  danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
  rowanId = platform.ctx.identities.findForLogin(SECOND_DEMO_MEMBER.email)!.identity.id;
});
afterAll(() => platform.close());

describe("blocks between members", () => {
  it("blocks, lists and unblocks, with the typed errors for a repeat, oneself and a block that is not there", async () => {
    await dana.memberToMemberBlock.blockMember(rowanId);
    await expect(dana.memberToMemberBlock.blockMember(rowanId)).rejects.toMatchObject(code("MEMBER_ALREADY_BLOCKED"));
    await expect(dana.memberToMemberBlock.blockMember(danaId)).rejects.toMatchObject(code("SELF_BLOCKING_FORBIDDEN"));
    await expect(dana.memberToMemberBlock.blockMember("no-such-member")).rejects.toMatchObject(code("MEMBER_NOT_FOUND"));
    expect((await dana.memberToMemberBlock.listCurrentMemberBlocking()).blockedMemberIds).toEqual([rowanId]);

    const owner = createClient({ modules: { memberToMemberBlock }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
    expect((await owner.memberToMemberBlock.listMemberBlocks(rowanId)).memberBlocks).toEqual([{ memberId: danaId, blockDirection: "BLOCKING" }]);
    expect((await owner.memberToMemberBlock.listMemberBlocks(danaId)).memberBlocks).toEqual([{ memberId: rowanId, blockDirection: "BLOCKED" }]);
    await expect(dana.memberToMemberBlock.listMemberBlocks(rowanId)).rejects.toMatchObject(code("PERMISSION_DENIED"));

    await dana.memberToMemberBlock.unblockMember(rowanId);
    await expect(dana.memberToMemberBlock.unblockMember(rowanId)).rejects.toMatchObject(code("BLOCK_DOES_NOT_EXIST"));
    await expect(dana.memberToMemberBlock.unblockMember(danaId)).rejects.toMatchObject(code("SELF_UNBLOCKING_FORBIDDEN"));
    expect((await dana.memberToMemberBlock.listCurrentMemberBlocking()).blockedMemberIds).toEqual([]);
  });

  it("needs a member for a member's own blocks", async () => {
    await expect(blocksClient().memberToMemberBlock.blockMember(rowanId)).rejects.toMatchObject(code("PERMISSION_DENIED"));
    await expect(blocksClient().memberToMemberBlock.listCurrentMemberBlocking()).rejects.toMatchObject(code("PERMISSION_DENIED"));
  });
});

describe("what a block does to the Members API (Wix's member-to-member blocks integration guide)", () => {
  it("hides each member from the other in list, query and getMember, and keeps the blocked member from blocking back", async () => {
    const rowan = blocksClient((await signInThroughHostedPage(platform.callbackUrl, SECOND_DEMO_MEMBER)).tokens);
    const listed = async (client: typeof dana) => ((await client.members.listMembers()).members ?? []).map((member) => member._id);
    const queried = async (client: typeof dana) => (await client.members.queryMembers().find()).items.map((member) => member._id);
    expect(await listed(dana)).toContain(rowanId);
    expect(await queried(rowan)).toContain(danaId);

    await dana.memberToMemberBlock.blockMember(rowanId);
    for (const [client, other] of [
      [dana, rowanId],
      [rowan, danaId],
    ] as const) {
      expect(await listed(client)).not.toContain(other);
      expect(await queried(client)).not.toContain(other);
    }
    // The blocker learns why; the blocked member sees no more than for a member who does not exist.
    expect(await refusalWithData(dana.members.getMember(rowanId))).toEqual({ status: 404, code: "MEMBER_TO_MEMBER_BLOCKED", data: { memberId: rowanId } });
    expect(await refusalOf(rowan.members.getMember(danaId))).toEqual({ status: 404, code: "MEMBER_NOT_FOUND" });
    await expect(rowan.memberToMemberBlock.blockMember(danaId)).rejects.toMatchObject(code("MEMBER_ALREADY_BLOCKED"));

    // Other identities are not affected: a visitor and the site owner still see both.
    const owner = siteOwnerClient(platform.config.apiKey, { members });
    expect((await owner.members.getMember(rowanId))._id).toBe(rowanId);
    expect(((await blocksClient().members.listMembers()).members ?? []).map((member) => member._id)).toEqual(expect.arrayContaining([danaId, rowanId]));

    await dana.memberToMemberBlock.unblockMember(rowanId);
    expect((await rowan.members.getMember(danaId))._id).toBe(danaId);
    expect(await listed(dana)).toContain(rowanId);
  });
});
