import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppStrategy, createClient } from "@wix/sdk";
import { collections, items } from "@wix/data";
import { members } from "@wix/members";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { LOCAL_INSTANCE_ID } from "./access-token";

/**
 * The client_credentials grant through the real `AppStrategy` (what `@wix/astro`'s elevated client
 * uses, with WIX_CLIENT_ID, WIX_CLIENT_SECRET and WIX_CLIENT_INSTANCE_ID): an app registered with a
 * secret gets its own token, with the site owner's rights on the site's APIs.
 */

const APP = { id: "astro-app", secret: "astro-app-secret-0123456789" };

let platform: TestPlatform;

const appClient = (overrides: { appSecret?: string; instanceId?: string; appId?: string } = {}) =>
  createClient({
    modules: { items, collections, members },
    auth: AppStrategy({
      appId: overrides.appId ?? APP.id,
      appSecret: overrides.appSecret ?? APP.secret,
      instanceId: overrides.instanceId ?? LOCAL_INSTANCE_ID,
    }),
  });

/** The token endpoint's raw answer, for the OAuth error fields the SDK folds into its message. */
async function grant(body: Record<string, unknown>) {
  const response = await fetch("https://www.wixapis.com/oauth2/token", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", ...body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  platform = await startTestPlatform({
    oauthClientsJson: JSON.stringify([{ id: APP.id, redirectUris: ["http://localhost:4321/api/auth/callback"], secret: APP.secret }]),
  });
});
afterAll(() => platform.close());

describe("client_credentials through AppStrategy", () => {
  it("lets the app do what needs the site owner's rights", async () => {
    const client = appClient();
    const created = await client.collections.createDataCollection({
      _id: "AppNotes",
      fields: [{ key: "title", type: "TEXT" }],
      permissions: { read: "ADMIN", insert: "ADMIN", update: "ADMIN", remove: "ADMIN" },
    });
    expect(created._id).toBe("AppNotes");
    const note = await client.items.insert("AppNotes", { title: "from the app" });
    expect((await client.items.query("AppNotes").find()).items.map((item) => item._id)).toEqual([note._id]);
    // Every member with the full fieldset, private ones included, as only the owner may read them.
    const listed = await client.members.listMembers({ fieldsets: ["FULL"] });
    expect(listed.members?.length).toBeGreaterThan(0);
    expect(listed.members?.every((member) => typeof member.loginEmail === "string")).toBe(true);
    // The header the strategy sends is the app's own token.
    const { headers } = await client.auth.getAuthHeaders();
    const info = await AppStrategy({ appId: APP.id, appSecret: APP.secret, accessToken: headers.Authorization }).getTokenInfo();
    expect(info).toMatchObject({ active: true, subjectType: "APP", subjectId: APP.id });
  });

  it("has no member of its own", async () => {
    await expect(appClient().members.getCurrentMember()).rejects.toMatchObject({ details: { applicationError: { code: "PERMISSION_DENIED" } } });
  });

  it("refuses a wrong secret, a client without one and an unknown client", async () => {
    await expect(appClient({ appSecret: "not-the-secret-at-all" }).items.query("Trails").find()).rejects.toThrow(
      /Unexpected status code from Wix OAuth API: 401/,
    );
    await expect(appClient({ appId: LOCAL_CLIENT_ID }).items.query("Trails").find()).rejects.toThrow(/401/);
    expect(await grant({ client_id: APP.id, client_secret: "wrong-secret-wrong-secret", instance_id: LOCAL_INSTANCE_ID })).toEqual({
      status: 401,
      body: { error: "invalid_client", error_description: expect.any(String) },
    });
    expect((await grant({ client_id: "no-such-app", client_secret: APP.secret, instance_id: LOCAL_INSTANCE_ID })).body.error).toBe("invalid_client");
    expect((await grant({ client_id: LOCAL_CLIENT_ID, client_secret: APP.secret, instance_id: LOCAL_INSTANCE_ID })).body.error).toBe("invalid_client");
  });

  it("refuses another instance and a malformed request", async () => {
    await expect(appClient({ instanceId: "00000000-0000-0000-0000-000000000000" }).items.query("Trails").find()).rejects.toThrow(/400/);
    expect(await grant({ client_id: APP.id, client_secret: APP.secret })).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    // A grant the platform does not answer is named as such (strip_bound_session needs Wix's dashboard).
    expect(await grant({ grant_type: "strip_bound_session", access_token: "t" })).toMatchObject({ status: 400, body: { error: "unsupported_grant_type" } });
  });

  it("answers a token without a refresh token, which token-info names as the app's", async () => {
    const { status, body } = await grant({ client_id: APP.id, client_secret: APP.secret, instance_id: LOCAL_INSTANCE_ID });
    expect(status).toBe(200);
    expect(body).toEqual({ access_token: expect.stringMatching(/^OauthNG\.JWS\./), token_type: "Bearer", expires_in: platform.config.tokenTtlSeconds });
    // `elevated()` is how @wix/astro turns a token it was handed into the app's own client: it reads token-info.
    const elevated = await AppStrategy({ appId: APP.id, appSecret: APP.secret, accessToken: body.access_token as string }).elevated();
    const info = await AppStrategy({ appId: APP.id, appSecret: APP.secret, accessToken: body.access_token as string }).getTokenInfo();
    expect(info).toMatchObject({ active: true, subjectType: "APP", subjectId: APP.id, clientId: APP.id, instanceId: LOCAL_INSTANCE_ID });
    const trails = await createClient({ modules: { items }, auth: elevated }).items.query("Trails").limit(1).find();
    expect(trails.items).toHaveLength(1);
  });

  it("is not the platform's API key: the /_local endpoints stay closed to it", async () => {
    const { body } = await grant({ client_id: APP.id, client_secret: APP.secret, instance_id: LOCAL_INSTANCE_ID });
    const response = await fetch(`${platform.url}/_local/stats`, { headers: { authorization: body.access_token as string } });
    expect(response.status).toBe(403);
  });
});
