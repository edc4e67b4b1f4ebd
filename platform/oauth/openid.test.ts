import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPublicKey, generateKeyPairSync, verify, type JsonWebKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk";
import { oauth } from "@wix/identity";
import { LOCAL_CLIENT_ID } from "../config";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { EC_SIGNING_KEY_FILE, publicJwk, SIGNING_KEY_FILE, storedSigningKey } from "./access-token";

/** The OpenID answers of `@wix/identity` `oauth` through the real client: `userInfo` for a member's token, and `jwks`. */

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

describe("oauth.tokenInfo", () => {
  // The installed client sends the introspection request's raw body as bytes: `{"body": "<base64>"}` on the wire.
  const bytes = (text: string) => new TextEncoder().encode(text);

  it("reads the token from the raw body the client sends, as JSON or as a form (RFC 7662)", async () => {
    const token = (await memberClient()).auth.getTokens().accessToken.value;
    const expected = { active: true, subjectType: "MEMBER", subjectId: danaId, clientId: LOCAL_CLIENT_ID };
    expect(await visitorClient().oauth.tokenInfo({ body: bytes(JSON.stringify({ token })) })).toMatchObject(expected);
    expect(await visitorClient().oauth.tokenInfo({ body: bytes(new URLSearchParams({ token }).toString()) })).toMatchObject(expected);
  });

  it("answers an unknown token inactive, and a body without a token 400", async () => {
    expect(await visitorClient().oauth.tokenInfo({ body: bytes(JSON.stringify({ token: "OAT.unknown" })) })).toMatchObject({ active: false });
    // An OAuth error body (RFC 6749 §5.2), as the token endpoint's: the client reports its status and keeps the body as the data.
    const invalidRequest = { details: { applicationError: { code: 400, data: { details: { error: "invalid_request" } } } } };
    await expect(visitorClient().oauth.tokenInfo({ body: bytes("{}") })).rejects.toMatchObject(invalidRequest);
  });
});

// The raw HTTP form: the token request's body as bytes, and the answer as a RawHttpResponse whose body is the token endpoint's.
const rawToken = (request: Record<string, string> | string) =>
  visitorClient().oauth.token({ body: new TextEncoder().encode(typeof request === "string" ? request : JSON.stringify(request)) });
const answerOf = (raw: { body?: Uint8Array; statusCode?: number | null }) => ({
  statusCode: raw.statusCode,
  body: JSON.parse(new TextDecoder().decode(raw.body)) as Record<string, unknown>,
});

describe("oauth.token", () => {
  it("issues a visitor's pair from a raw JSON or form body, which token-info names as the visitor's", async () => {
    const json = answerOf(await rawToken({ clientId: LOCAL_CLIENT_ID, grantType: "anonymous" }));
    expect(json).toMatchObject({ statusCode: 200, body: { access_token: expect.stringMatching(/^OauthNG\.JWS\./), token_type: "Bearer" } });
    const info = await visitorClient().oauth.tokenInfo({ body: new TextEncoder().encode(JSON.stringify({ token: json.body.access_token })) });
    expect(info).toMatchObject({ active: true, subjectType: "VISITOR", clientId: LOCAL_CLIENT_ID });

    const form = answerOf(
      await rawToken(
        new URLSearchParams({ grant_type: "refresh_token", client_id: LOCAL_CLIENT_ID, refresh_token: String(json.body.refresh_token) }).toString(),
      ),
    );
    expect(form).toMatchObject({ statusCode: 200, body: { access_token: expect.stringMatching(/^OauthNG\.JWS\./) } });
  });

  it("answers a refused grant inside the RawHttpResponse, with the OAuth error body", async () => {
    expect(answerOf(await rawToken({ clientId: LOCAL_CLIENT_ID, grantType: "refresh_token", refreshToken: "not-a-token" }))).toEqual({
      statusCode: 400,
      body: { error: "invalid_grant", error_description: expect.any(String) },
    });
  });
});

describe("oauth.jwks", () => {
  it("publishes the RSA key (RS256, as Wix's typings describe it) that checks the platform's access tokens, and no other", async () => {
    const answer = (await visitorClient().oauth.jwks()) as unknown as { keys: (JsonWebKey & { kid: string; alg: string })[] };
    expect(answer.keys).toHaveLength(1);
    const [jwk] = answer.keys;
    expect(jwk).toMatchObject({ kty: "RSA", e: "AQAB", alg: "RS256", use: "sig" });
    expect(Buffer.from(jwk.n!, "base64url")).toHaveLength(256);
    expect(jwk).not.toHaveProperty("d");

    const token = (await memberClient()).auth.getTokens().accessToken.value;
    const [header, payload, signature] = token.slice("OauthNG.JWS.".length).split(".");
    expect(JSON.parse(Buffer.from(header, "base64url").toString("utf8"))).toMatchObject({ alg: "RS256", kid: jwk.kid });
    const key = createPublicKey({ key: jwk, format: "jwk" });
    expect(verify("sha256", Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, "base64url"))).toBe(true);
    expect(verify("sha256", Buffer.from(`${header}.${payload.slice(0, -2)}AA`), key, Buffer.from(signature, "base64url"))).toBe(false);
  });

  it("keeps the key in the data folder, readable by its owner only, so a restart publishes the same one", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-key-"));
    const first = publicJwk(storedSigningKey(dataDir));
    expect(publicJwk(storedSigningKey(dataDir))).toEqual(first);
    expect(fs.statSync(path.join(dataDir, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it("replaces the P-256 key an older platform kept in the data folder with an RSA one", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-key-"));
    const ecKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "pem", type: "pkcs8" });
    fs.writeFileSync(path.join(dataDir, EC_SIGNING_KEY_FILE), ecKey, { mode: 0o600 });
    const key = storedSigningKey(dataDir);
    expect(key.asymmetricKeyType).toBe("rsa");
    expect(publicJwk(storedSigningKey(dataDir))).toEqual(publicJwk(key));
    expect(fs.existsSync(path.join(dataDir, EC_SIGNING_KEY_FILE))).toBe(false);
  });
});
