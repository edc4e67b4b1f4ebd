import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberSiteClient } from "../identity/test-browser";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

/** `getMemberTokensForExternalLogin` (the `authorized_client` grant) and the admin key check. */

let platform: TestPlatform;
let danaId: string;

async function visitor() {
  const client = memberSiteClient();
  client.auth.setTokens(await client.auth.generateVisitorTokens());
  return client;
}

beforeAll(async () => {
  platform = await startTestPlatform();
  danaId = platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id;
});
afterAll(() => platform.close());

describe("authorized_client grant through the real OAuthStrategy", () => {
  it("turns a visitor into the given member with the site's API key", async () => {
    const client = await visitor();
    const tokens = await client.auth.getMemberTokensForExternalLogin(danaId, platform.config.apiKey);
    expect(tokens.refreshToken.role).toBe("member");
    client.auth.setTokens(tokens);
    expect(client.auth.loggedIn()).toBe(true);
    const { member } = await client.members.getCurrentMember();
    expect(member?._id).toBe(danaId);
  });

  it("refuses a wrong or partial key, an unknown member and a blocked one", async () => {
    const client = await visitor();
    const { apiKey } = platform.config;
    for (const key of ["wrong", apiKey.slice(0, -1), `${apiKey}x`, ""]) {
      await expect(client.auth.getMemberTokensForExternalLogin(danaId, key)).rejects.toBeDefined();
    }
    await expect(client.auth.getMemberTokensForExternalLogin("no-such-member", apiKey)).rejects.toBeDefined();
    platform.ctx.identities.update(danaId, { status: "BLOCKED" });
    try {
      await expect(client.auth.getMemberTokensForExternalLogin(danaId, apiKey)).rejects.toBeDefined();
    } finally {
      platform.ctx.identities.update(danaId, { status: "APPROVED" });
    }
  });

  it("answers the token endpoint's error shape on the wire", async () => {
    const { accessToken } = (await visitor()).auth.getTokens();
    const grant = (authorization: string, body: Record<string, unknown> = { grant_type: "authorized_client", member_id: danaId }) =>
      fetch("https://www.wixapis.com/oauth2/token", {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    const noKey = await grant(accessToken.value);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error: "invalid_client" });

    const badToken = await grant(`not-a-token,${platform.config.apiKey}`);
    expect(badToken.status).toBe(401);

    const noMember = await grant(`${accessToken.value},${platform.config.apiKey}`, { grant_type: "authorized_client" });
    expect(noMember.status).toBe(400);
    expect(await noMember.json()).toMatchObject({ error: "invalid_request" });

    const foreignSession = await grant(`${accessToken.value},${platform.config.apiKey}`, {
      grant_type: "authorized_client",
      member_id: danaId,
      session_token: "PLS.nothing",
    });
    expect(await foreignSession.json()).toMatchObject({ error: "invalid_grant" });

    const ok = await grant(`${accessToken.value},${platform.config.apiKey}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: "Bearer" });
  });
});

describe("the admin key outside the token endpoint", () => {
  const list = (authorization: string) => fetch("https://www.wixapis.com/members/v1/members?fieldsets=FULL", { headers: { authorization } });

  it("is honoured only as the exact, whole header", async () => {
    const { accessToken } = (await visitor()).auth.getTokens();
    expect((await list(platform.config.apiKey)).status).toBe(200);
    for (const header of [`${accessToken.value},${platform.config.apiKey}`, `${platform.config.apiKey},${accessToken.value}`, `x${platform.config.apiKey}`]) {
      expect((await list(header)).status).toBe(401);
    }
    // A visitor's own token reads public profiles but not the FULL fieldset.
    expect((await list(accessToken.value)).status).toBe(403);
  });
});

describe("getMemberTokensForExternalLoginWithSession: sign-on, then the grant with its session", () => {
  it("signs an existing member on by e-mail, in any case, and the pair ends with that session", async () => {
    const client = await visitor();
    const tokens = await client.auth.getMemberTokensForExternalLoginWithSession(DEMO_MEMBER.email.toUpperCase(), platform.config.apiKey);
    client.auth.setTokens(tokens);
    expect((await client.members.getCurrentMember()).member?._id).toBe(danaId);
    // Logging out of the platform session the sign-on started ends the pair.
    const subject = platform.ctx.tokens.resolveAccess(tokens.accessToken.value)!;
    expect(subject.loginSessionId).toBeTruthy();
    platform.ctx.tokens.revokeLoginSession(subject.loginSessionId!);
    expect(platform.ctx.tokens.resolveAccess(tokens.accessToken.value)).toBeNull();
  });

  it("creates a member on first sign-on, with the profile given and the e-mail still to verify unless vouched for", async () => {
    const email = `new-${Date.now()}@elsewhere.example`;
    const client = await visitor();
    const tokens = await client.auth.getMemberTokensForExternalLoginWithSession(email, platform.config.apiKey, { profile: { nickname: "Outsider" } });
    client.auth.setTokens(tokens);
    const { member } = await client.members.getCurrentMember({ fieldsets: ["FULL"] });
    expect(member).toMatchObject({ loginEmail: email, profile: { nickname: "Outsider" } });
    expect(platform.ctx.identities.findForLogin(email)!.identity.emailVerified).toBe(false);

    const vouched = `vouched-${Date.now()}@elsewhere.example`;
    await (await visitor()).auth.getMemberTokensForExternalLoginWithSession(vouched, platform.config.apiKey, { verifyEmail: true });
    expect(platform.ctx.identities.findForLogin(vouched)!.identity.emailVerified).toBe(true);
    // A second sign-on finds the same member.
    const again = await (await visitor()).auth.getMemberTokensForExternalLoginWithSession(email, platform.config.apiKey);
    expect(platform.ctx.tokens.resolveAccess(again.accessToken.value)?.subjectId).toBe(member?._id);
  });

  it("refuses a wrong key, a malformed e-mail and a blocked member, and the sign-on endpoint without the key", async () => {
    const client = await visitor();
    await expect(client.auth.getMemberTokensForExternalLoginWithSession(DEMO_MEMBER.email, "wrong")).rejects.toBeDefined();
    await expect(client.auth.getMemberTokensForExternalLoginWithSession("not-an-email", platform.config.apiKey)).rejects.toBeDefined();
    platform.ctx.identities.update(danaId, { status: "BLOCKED" });
    try {
      await expect(client.auth.getMemberTokensForExternalLoginWithSession(DEMO_MEMBER.email, platform.config.apiKey)).rejects.toBeDefined();
    } finally {
      platform.ctx.identities.update(danaId, { status: "APPROVED" });
    }
    const { accessToken } = client.auth.getTokens();
    const signOn = (authorization: string) =>
      fetch("https://www.wixapis.com/_api/iam/authentication/v2/sign-on", {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ loginId: { email: DEMO_MEMBER.email } }),
      });
    expect((await signOn(accessToken.value)).status).toBe(403);
    expect((await signOn(platform.config.apiKey)).status).toBe(403);
    const malformed = await fetch("https://www.wixapis.com/_api/iam/authentication/v2/sign-on", {
      method: "POST",
      headers: { authorization: `${accessToken.value},${platform.config.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ loginId: "dana" }),
    });
    expect(malformed.status).toBe(400);
  });
});
