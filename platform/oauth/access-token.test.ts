import { AppStrategy } from "@wix/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { LOCAL_INSTANCE_ID, LOCAL_SITE_ID, createAccessTokenSigner, readAccessToken } from "./access-token";

/** Access tokens shaped like the platform's, and `getTokenInfo` through the real SDK. */

const decodePayload = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[3], "base64url").toString("utf8")) as { data: string; iat: number; exp: number };

describe("the token's shape, on its own", () => {
  const sign = createAccessTokenSigner();
  const member = { role: "member" as const, subjectId: "m-1", clientId: "client-1" };

  it("is OauthNG.JWS. and a three-part JWT whose payload carries the instance", () => {
    const token = sign(member, Date.UTC(2026, 10, 23, 12), Date.UTC(2026, 10, 23, 16));
    expect(token).toMatch(/^OauthNG\.JWS\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const header = JSON.parse(Buffer.from(token.split(".")[2], "base64url").toString("utf8"));
    expect(header).toMatchObject({ alg: "RS256", typ: "JWT" });
    const payload = decodePayload(token);
    expect(payload).toMatchObject({ iat: 1795435200, exp: 1795449600 });
    expect(JSON.parse(payload.data).instance).toMatchObject({
      instanceId: LOCAL_INSTANCE_ID,
      metaSiteId: LOCAL_SITE_ID,
      appDefId: "client-1",
      siteMemberId: "m-1",
    });
  });

  it("differs for every issue, even within one second", () => {
    expect(sign(member, 0, 1000)).not.toBe(sign(member, 0, 1000));
  });

  it("reads back as the claims apps see, and nothing from a token of another shape", () => {
    expect(readAccessToken(sign({ ...member, role: "visitor", subjectId: "v-1" }, 0, 60_000))).toEqual({
      subjectType: "VISITOR",
      subjectId: "v-1",
      clientId: "client-1",
      siteId: LOCAL_SITE_ID,
      instanceId: LOCAL_INSTANCE_ID,
      iat: 0,
      exp: 60,
    });
    expect(readAccessToken("OAT.random")).toBeNull();
    expect(readAccessToken("OauthNG.JWS.a.!!!.c")).toBeNull();
  });
});

describe("tokens the platform issues", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform.close());

  const tokenInfo = (token: string) => AppStrategy({ appId: LOCAL_CLIENT_ID, appSecret: "unused", accessToken: token }).getTokenInfo();

  it("are shaped like the platform's and still open the data service", async () => {
    const pair = platform.ctx.tokens.newVisitor(LOCAL_CLIENT_ID);
    expect(pair.accessToken.startsWith("OauthNG.JWS.")).toBe(true);
    const response = await fetch(`${platform.url}/wix-data/v2/items/query`, {
      method: "POST",
      headers: { authorization: pair.accessToken, "content-type": "application/json" },
      body: JSON.stringify({ dataCollectionId: "Trails", query: { paging: { limit: 1 } } }),
    });
    expect(response.status).toBe(200);
  });

  it("getTokenInfo tells a member's live token, its site and instance; a renewed token says the same", async () => {
    const pair = platform.ctx.tokens.issuePair({ role: "member", subjectId: "member-7", clientId: LOCAL_CLIENT_ID });
    const info = await tokenInfo(pair.accessToken);
    expect(info).toMatchObject({
      active: true,
      subjectType: "MEMBER",
      subjectId: "member-7",
      clientId: LOCAL_CLIENT_ID,
      siteId: LOCAL_SITE_ID,
      instanceId: LOCAL_INSTANCE_ID,
    });
    expect(info.exp - info.iat).toBe(platform.config.tokenTtlSeconds);
    const renewed = platform.ctx.tokens.refresh(pair.refreshToken, LOCAL_CLIENT_ID)!;
    expect(await tokenInfo(renewed.accessToken)).toMatchObject({ active: true, subjectType: "MEMBER", subjectId: "member-7" });
  });

  it("reports a revoked, tampered or unknown token inactive, and refuses a malformed request", async () => {
    const pair = platform.ctx.tokens.newVisitor(LOCAL_CLIENT_ID);
    const [prefix, jws, header, payload, signature] = pair.accessToken.split(".");
    const forged = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    forged.data = forged.data.replace(/"visitorId":"[^"]+"/, '"siteMemberId":"someone-else"');
    const tampered = [prefix, jws, header, Buffer.from(JSON.stringify(forged)).toString("base64url"), signature].join(".");
    expect(await tokenInfo(tampered)).toMatchObject({ active: false });
    expect(await tokenInfo("OAT.unknown")).toMatchObject({ active: false });
    platform.ctx.tokens.revokeSessionOf(pair.accessToken);
    expect(await tokenInfo(pair.accessToken)).toMatchObject({ active: false });
    const malformed = await fetch(`${platform.url}/oauth2/token-info`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: "invalid_request" });
  });
});
