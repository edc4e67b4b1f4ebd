import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { getAuthUrl, memberSiteClient } from "../identity/test-browser";
import { startTestPlatform, type TestPlatform } from "../testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

async function createSession(body: unknown) {
  const response = await fetch("https://www.wixapis.com/_api/redirects-api/v1/redirect-session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  type Reply = { redirectSession: { id: string; fullUrl: string }; message: string; details: { applicationError: { code: string } } };
  return { status: response.status, body: (await response.json()) as Reply };
}

function authBody(overrides: Record<string, unknown> = {}) {
  const oauthData = memberSiteClient().auth.generateOAuthData(platform.callbackUrl);
  return {
    auth: {
      authRequest: {
        redirectUri: platform.callbackUrl,
        clientId: LOCAL_CLIENT_ID,
        codeChallenge: oauthData.codeChallenge,
        codeChallengeMethod: "S256",
        responseMode: "query",
        responseType: "code",
        scope: "offline_access",
        state: oauthData.state,
        ...overrides,
      },
      prompt: "login",
    },
  };
}

describe("POST /_api/redirects-api/v1/redirect-session", () => {
  it("answers getAuthUrl with a hosted page on the platform's own origin", async () => {
    const client = memberSiteClient();
    const result = await getAuthUrl(client, client.auth.generateOAuthData(platform.callbackUrl));
    expect(result.authUrl).toMatch(new RegExp(`^${platform.url}/hosted/login\\?rs=`));
    expect(result.authorizationEndpoint).toBe(`${platform.url}/hosted/login`);
    expect(result.sessionToken).toBeNull();
  });

  it("answers the login and logout intents", async () => {
    const login = await createSession({ login: {} });
    expect(login.status).toBe(200);
    const id = login.body.redirectSession.id;
    expect(login.body.redirectSession).toEqual({
      id,
      fullUrl: `${platform.url}/hosted/login?rs=${id}`,
      shortUrl: `${platform.url}/hosted/login?rs=${id}`,
      urlDetails: { endpoint: `${platform.url}/hosted/login`, searchParams: { rs: id } },
      sessionToken: null,
    });
    const page = await fetch(login.body.redirectSession.fullUrl);
    expect(page.status).toBe(200);

    const { logoutUrl } = await memberSiteClient().auth.logout(`${platform.config.siteUrl}/`);
    expect(logoutUrl).toMatch(new RegExp(`^${platform.url}/hosted/logout\\?rs=`));
  });

  it("refuses a redirect URI the client did not register, before any page exists", async () => {
    const client = memberSiteClient();
    for (const uri of ["https://evil.example/api/auth/callback", `${platform.callbackUrl}/`, `${platform.callbackUrl}?next=/`, "unused://"]) {
      const error = await client.auth.getAuthUrl(client.auth.generateOAuthData(uri)).catch((e: unknown) => e);
      expect(error).toMatchObject({ details: { applicationError: { code: "INVALID_REDIRECT_URI" } } });
    }
  });

  it("refuses an unknown client", async () => {
    const result = await createSession(authBody({ clientId: "someone-else" }));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ details: { applicationError: { code: "INVALID_CLIENT" } } });
    const logout = await createSession({ logout: { clientId: "someone-else" } });
    expect(logout.body).toMatchObject({ details: { applicationError: { code: "INVALID_CLIENT" } } });
  });

  it("refuses malformed and unsupported requests with clear errors", async () => {
    const cases: [unknown, string, RegExp][] = [
      [authBody({ codeChallengeMethod: "plain" }), "INVALID_ARGUMENT", /codeChallengeMethod must be "S256"/],
      [authBody({ codeChallenge: undefined }), "INVALID_ARGUMENT", /codeChallenge/],
      [authBody({ responseType: "token" }), "INVALID_ARGUMENT", /responseType must be "code"/],
      [authBody({ redirectUri: undefined }), "INVALID_ARGUMENT", /responseMode "query" needs a redirectUri/],
      [authBody({ idp: "0e6a50f5-b523-4e29-990d-f37fa2ffdd69" }), "UNSUPPORTED_IDP", /identity providers/],
      [{ ecomCheckout: { checkoutId: "c" } }, "UNSUPPORTED_INTENT", /ecomCheckout/],
      [{}, "INVALID_ARGUMENT", /exactly one intent/],
      [{ login: {}, logout: { clientId: LOCAL_CLIENT_ID } }, "INVALID_ARGUMENT", /exactly one intent/],
    ];
    for (const [body, code, message] of cases) {
      const result = await createSession(body);
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.details.applicationError.code).toBe(code);
      expect(result.body.message).toMatch(message);
    }
  });
});
