import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_API_KEY } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";

/**
 * Who may reach what (docs/platform/operations.md §1): no CORS, the admin key and `/_local/*`
 * refused to pages of other origins, the default key only from this machine, anonymous grants
 * limited per address, and the health check. Real HTTP from loopback; Fastify's inject where a
 * request must come from another address or name another host.
 */

let platform: TestPlatform;
const CUSTOM_KEY = "a-custom-admin-key-for-these-tests";
let custom: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ anonymousGrantsPerMinute: 3 });
  custom = await startTestPlatform({ apiKey: CUSTOM_KEY });
});
afterAll(async () => {
  await custom.close();
  await platform.close();
});

type Envelope = { message: string; details: { applicationError: { code: string; description: string } } };
const codeOf = async (response: Response) => ((await response.json()) as Envelope).details.applicationError.code;
const call = (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
  fetch(`${platform.url}${path}`, {
    method: init.method ?? "GET",
    headers: { ...(init.body !== undefined && { "content-type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
const admin = (extra: Record<string, string> = {}) => ({ authorization: platform.config.apiKey, ...extra });

describe("CORS", () => {
  it("sends no CORS headers, and a preflight gets no permission", async () => {
    const reply = await call("/wix-data/v2/items/query", {
      method: "POST",
      body: { dataCollectionId: "Trails" },
      headers: { origin: "https://elsewhere.example" },
    });
    expect(reply.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await call("/wix-data/v2/items/query", {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    expect(preflight.headers.get("access-control-allow-headers")).toBeNull();
  });
});

describe("the admin key and /_local from browsers", () => {
  it("refuses the admin key sent by a page of another origin, on data and /_local endpoints alike", async () => {
    const fromElsewhere = await call("/wix-data/v2/collections", { headers: admin({ origin: "https://evil.example" }) });
    expect([fromElsewhere.status, await codeOf(fromElsewhere)]).toEqual([403, "PERMISSION_DENIED"]);
    const revoke = await call("/_local/revoke", { method: "POST", body: { email: "demo@ridgeline.example" }, headers: admin({ origin: "null" }) });
    expect(revoke.status).toBe(403);
    const crossSite = await call("/_local/outbox", { headers: admin({ "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" }) });
    expect(crossSite.status).toBe(403);
    // The same key from a server (no Origin) works.
    expect((await call("/wix-data/v2/collections", { headers: admin() })).status).toBe(200);
  });

  it("accepts the site's origin and the platform's own, and a top-level navigation to the Studio", async () => {
    const site = new URL(platform.config.siteUrl).origin;
    expect((await call("/_local/settings", { headers: admin({ origin: site }) })).status).toBe(200);
    expect((await call("/_local/settings", { headers: admin({ origin: platform.url }) })).status).toBe(200);
    // Node's fetch always says `Sec-Fetch-Mode: cors`, so the browser's headers are injected.
    const mailbox = (mode: string) =>
      platform.app.inject({
        url: "/_local/studio/mailbox",
        remoteAddress: "127.0.0.1",
        headers: { host: "127.0.0.1:4010", "sec-fetch-site": "cross-site", "sec-fetch-mode": mode },
      });
    expect((await mailbox("navigate")).statusCode).toBe(200);
    expect((await mailbox("no-cors")).statusCode).toBe(403);
  });

  it("needs the exact key: `<anything>,<key>` is not the key where the key alone is expected", async () => {
    const { apiKey } = platform.config;
    for (const authorization of [`anything,${apiKey}`, `${apiKey},${apiKey}`, `${apiKey} `.repeat(2), apiKey.slice(1), `${apiKey}x`]) {
      // Not the key, so read as an access token, which it is not either.
      for (const path of ["/_local/settings", "/wix-data/v2/collections"]) {
        const reply = await call(path, { headers: { authorization } });
        expect([path, reply.status, await codeOf(reply)]).toEqual([path, 401, "UNAUTHENTICATED"]);
      }
    }
  });

  it("needs the key for the request counter and the faults; health needs nothing", async () => {
    expect((await call("/_local/stats")).status).toBe(403);
    expect((await call("/_local/stats", { headers: admin() })).status).toBe(200);
    expect((await call("/_local/faults")).status).toBe(403);
    const health = await call("/_local/health");
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
  });
});

describe("the default admin key", () => {
  const inject = (target: TestPlatform, options: { remoteAddress?: string; host?: string; key: string }) =>
    target.app.inject({
      method: "GET",
      url: "/_local/settings",
      remoteAddress: options.remoteAddress ?? "127.0.0.1",
      headers: { host: options.host ?? "127.0.0.1:4010", authorization: options.key },
    });

  it("works from this machine only: not from another address, nor under another host name (DNS rebinding)", async () => {
    expect(platform.config.apiKey).toBe(DEFAULT_API_KEY);
    expect((await inject(platform, { key: DEFAULT_API_KEY })).statusCode).toBe(200);
    expect((await inject(platform, { key: DEFAULT_API_KEY, host: "localhost:4010" })).statusCode).toBe(200);
    const remote = await inject(platform, { key: DEFAULT_API_KEY, remoteAddress: "192.0.2.7" });
    expect(remote.statusCode).toBe(403);
    expect(remote.json<Envelope>().message).toContain("LOCAL_PLATFORM_API_KEY");
    expect((await inject(platform, { key: DEFAULT_API_KEY, host: "rebound.example:4010" })).statusCode).toBe(403);
    // So is the external-login form of it.
    const external = await platform.app.inject({
      method: "POST",
      url: "/oauth2/token",
      remoteAddress: "192.0.2.7",
      headers: { authorization: `some-token,${DEFAULT_API_KEY}`, "content-type": "application/json" },
      payload: { grant_type: "authorized_client", member_id: "x" },
    });
    expect(external.statusCode).toBe(403);
  });

  it("a key of one's own works from anywhere, and the default one is then just a wrong key", async () => {
    expect((await inject(custom, { key: CUSTOM_KEY, remoteAddress: "192.0.2.7", host: "platform.internal:4010" })).statusCode).toBe(200);
    expect((await inject(custom, { key: DEFAULT_API_KEY })).statusCode).toBe(401);
  });
});

describe("anonymous grants", () => {
  const anonymous = () => call("/oauth2/token", { method: "POST", body: { clientId: "local-site-client", grantType: "anonymous" } });

  it("are limited per address, with a 429 in the platform's envelope and the OAuth fields", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await anonymous()).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await anonymous();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: "temporarily_unavailable", details: { applicationError: { code: "TOO_MANY_REQUESTS" } } });
    // Another address is counted on its own; other grants are not limited.
    const elsewhere = await platform.app.inject({
      method: "POST",
      url: "/oauth2/token",
      remoteAddress: "192.0.2.8",
      payload: { clientId: "local-site-client", grantType: "anonymous" },
    });
    expect(elsewhere.statusCode).toBe(200);
    const refresh = await call("/oauth2/token", {
      method: "POST",
      body: { clientId: "local-site-client", grantType: "refresh_token", refreshToken: elsewhere.json<{ refresh_token: string }>().refresh_token },
    });
    expect(refresh.status).toBe(200);
  });
});

describe("health", () => {
  it("answers 503 when the database does not", async () => {
    const broken = await startTestPlatform();
    try {
      broken.ctx.db.close();
      const reply = await fetch(`${broken.url}/_local/health`);
      expect(reply.status).toBe(503);
      expect(await reply.json()).toMatchObject({ status: "unavailable", details: { applicationError: { code: "UNAVAILABLE" } } });
    } finally {
      await broken.close();
    }
  });
});

describe("requests Node's HTTP parser refuses", () => {
  it("answer in the platform's envelope too: a URL over the header limit is 431", async () => {
    const reply = await fetch(`${platform.url}/wix-data/v2/items/query?.r=${"A".repeat(20_000)}`);
    expect(reply.status).toBe(431);
    expect(await reply.json()).toMatchObject({ message: expect.stringContaining("too large"), details: { applicationError: { code: "INVALID_ARGUMENT" } } });
  });
});
