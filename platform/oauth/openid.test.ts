import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk";
import { oauth } from "@wix/identity";
import { LOCAL_CLIENT_ID } from "../config";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

/** The OpenID answers of `@wix/identity` `oauth`: `userInfo` for a member's token, through the real client. */

let platform: TestPlatform;
let danaId: string;

const visitorClient = () => createClient({ modules: { oauth }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });

async function memberClient() {
  const client = visitorClient();
  client.auth.setTokens(await client.auth.generateVisitorTokens());
  client.auth.setTokens(await client.auth.getMemberTokensForExternalLogin(danaId, platform.config.apiKey));
  return client;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
});
afterAll(() => platform.close());

describe("oauth.userInfo", () => {
  it("answers the signed-in member's claims", async () => {
    const info = await (await memberClient()).oauth.userInfo();
    expect(info).toEqual({
      sub: danaId,
      givenName: DEMO_MEMBER.firstName,
      familyName: DEMO_MEMBER.lastName,
      name: `${DEMO_MEMBER.firstName} ${DEMO_MEMBER.lastName}`,
      email: DEMO_MEMBER.email,
      emailVerified: true,
      picture: DEMO_MEMBER.details.photo.url,
    });
  });

  it("refuses a visitor's token, the admin key and no token at all", async () => {
    const visitor = visitorClient();
    visitor.auth.setTokens(await visitor.auth.generateVisitorTokens());
    await expect(visitor.oauth.userInfo()).rejects.toMatchObject({ details: { applicationError: { code: "PERMISSION_DENIED" } } });
    const admin = createClient({ modules: { oauth }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });
    await expect(admin.oauth.userInfo()).rejects.toMatchObject({ details: { applicationError: { code: "PERMISSION_DENIED" } } });
    const anonymous = await fetch("https://www.wixapis.com/oauth2/user-info");
    expect(anonymous.status).toBe(401);
  });
});
