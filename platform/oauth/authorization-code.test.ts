import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { memberSiteClient, signInThroughHostedPage, TestBrowser } from "../identity/test-browser";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

/** Signs the demo member in on the hosted page and returns the code, without exchanging it. */
async function codeFor(responseMode: "query" | "fragment" = "query") {
  const client = memberSiteClient();
  const oauthData = client.auth.generateOAuthData(platform.callbackUrl);
  const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode });
  const browser = new TestBrowser();
  const submitted = await browser.submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
  expect(submitted.status).toBe(303);
  const { code, state } = client.auth.parseFromUrl(submitted.location!, responseMode);
  return { client, oauthData, code: code!, state: state!, location: submitted.location!, browser };
}

async function postToken(body: Record<string, unknown>) {
  const response = await fetch("https://www.wixapis.com/oauth2/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("hosted sign-in and the authorization_code grant, through the real OAuthStrategy", () => {
  it("signs the demo member in and issues a member token pair", async () => {
    const { client, tokens } = await signInThroughHostedPage(platform.callbackUrl);
    expect(tokens.refreshToken.role).toBe("member");
    expect(client.auth.loggedIn()).toBe(true);
    const { member } = await client.members.getCurrentMember();
    expect(member?.profile?.nickname).toBe("Dana");
  });

  it("returns code and state in the query, on exactly the registered callback", async () => {
    const { location, state, oauthData } = await codeFor("query");
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(platform.callbackUrl);
    expect(url.searchParams.get("code")).toMatch(/^OAC\./);
    expect(state).toBe(oauthData.state);
  });

  it("returns code and state in the fragment when asked to", async () => {
    const { client, location, code, state, oauthData } = await codeFor("fragment");
    expect(new URL(location).search).toBe("");
    expect(new URLSearchParams(new URL(location).hash.slice(1)).get("code")).toBe(code);
    const tokens = await client.auth.getMemberTokens(code, state, oauthData);
    expect(tokens.refreshToken.role).toBe("member");
  });

  it("renews the member's access token with renewToken, for the same member, and refuses a revoked refresh token", async () => {
    const { client, tokens } = await signInThroughHostedPage(platform.callbackUrl);
    const renewed = await client.auth.renewToken(tokens.refreshToken);
    expect(renewed.accessToken.value).not.toBe(tokens.accessToken.value);
    client.auth.setTokens(renewed);
    expect((await client.members.getCurrentMember()).member?._id).toBe(platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id);
    platform.ctx.tokens.revokeSessionOf(tokens.refreshToken.value);
    await expect(client.auth.renewToken(tokens.refreshToken)).rejects.toThrow();
  });

  it("refuses a wrong PKCE verifier, and the code is then used up", async () => {
    const { client, code, state, oauthData } = await codeFor();
    const wrong = { ...oauthData, codeVerifier: client.auth.generateOAuthData(platform.callbackUrl).codeVerifier };
    await expect(client.auth.getMemberTokens(code, state, wrong)).rejects.toThrow(/invalid_grant.*verifier/);
    await expect(client.auth.getMemberTokens(code, state, oauthData)).rejects.toThrow(/already been used/);
  });

  it("refuses a reused code and revokes the tokens it first issued", async () => {
    const { client, code, state, oauthData } = await codeFor();
    const first = await client.auth.getMemberTokens(code, state, oauthData);
    await expect(client.auth.getMemberTokens(code, state, oauthData)).rejects.toThrow(/already been used/);
    const refresh = await postToken({ clientId: LOCAL_CLIENT_ID, grantType: "refresh_token", refreshToken: first.refreshToken.value });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe("invalid_grant");
  });

  it("refuses a redirect URI other than the one the code was issued for", async () => {
    const { client, code, state, oauthData } = await codeFor();
    const other = { ...oauthData, redirectUri: `${platform.config.siteUrl}/api/auth/other` };
    await expect(client.auth.getMemberTokens(code, state, other)).rejects.toThrow(/redirectUri does not match/);
  });

  it("refuses the exchange without a redirect URI when the code was issued with one", async () => {
    const { code, oauthData } = await codeFor();
    const result = await postToken({ clientId: LOCAL_CLIENT_ID, grantType: "authorization_code", code, codeVerifier: oauthData.codeVerifier });
    expect(result).toEqual({ status: 400, body: { error: "invalid_grant", error_description: expect.stringMatching(/redirectUri/) } });
  });

  it("refuses an unknown client at the token endpoint", async () => {
    const { code, oauthData } = await codeFor();
    const result = await postToken({
      clientId: "someone-else",
      grantType: "authorization_code",
      redirectUri: platform.callbackUrl,
      code,
      codeVerifier: oauthData.codeVerifier,
    });
    expect(result.status).toBe(401);
    expect(result.body.error).toBe("invalid_client");
  });

  it("refuses an unknown code and a malformed request with clear errors", async () => {
    const unknown = await postToken({
      clientId: LOCAL_CLIENT_ID,
      grantType: "authorization_code",
      redirectUri: platform.callbackUrl,
      code: "OAC.nope",
      codeVerifier: "x".repeat(43),
    });
    expect(unknown).toEqual({ status: 400, body: { error: "invalid_grant", error_description: "The authorization code is unknown." } });
    const malformed = await postToken({ clientId: LOCAL_CLIENT_ID, grantType: "authorization_code", code: "OAC.x" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe("invalid_request");
  });
});

describe("code expiry", () => {
  let shortLived: TestPlatform;
  beforeAll(async () => {
    // The test platform replaces the global fetch; the outer platform's routing is restored on close.
    shortLived = await startTestPlatform({ authCodeTtlSeconds: 1 });
  });
  afterAll(() => shortLived.close());

  it("refuses a code after its lifetime", async () => {
    const siteCallback = shortLived.callbackUrl;
    const client = memberSiteClient();
    const oauthData = client.auth.generateOAuthData(siteCallback);
    const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode: "query" });
    expect(authUrl.startsWith(shortLived.url)).toBe(true);
    const submitted = await new TestBrowser().submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    const { code, state } = client.auth.parseFromUrl(submitted.location!, "query");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expect(client.auth.getMemberTokens(code!, state!, oauthData)).rejects.toThrow(/expired/);
  });
});
