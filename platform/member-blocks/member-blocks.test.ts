import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyStrategy, createClient, OAuthStrategy, type Tokens } from "@wix/sdk";
import { memberToMemberBlock } from "@wix/members";
import { LOCAL_CLIENT_ID } from "../config";
import { signInThroughHostedPage } from "../identity/test-browser";
import { DEMO_MEMBER, SECOND_DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

/** `memberToMemberBlock` through the real `@wix/members` client: members for themselves, the site owner for anyone. */

let platform: TestPlatform;
let dana: ReturnType<typeof blocksClient>;
let danaId: string;
let rowanId: string;

const blocksClient = (tokens?: Tokens) =>
  createClient({ modules: { memberToMemberBlock }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, ...(tokens && { tokens }) }) });
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
