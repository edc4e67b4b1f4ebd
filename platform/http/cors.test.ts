import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPlatformConfig } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";

/** Opt-in CORS (docs/platform/operations.md §1): the named origins on the public API, never on /_local or with the admin key. */

const APP_ORIGIN = "http://localhost:5173";
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ corsOrigins: [APP_ORIGIN] });
});
afterAll(() => platform.close());

const preflight = (url: string, origin: string) =>
  platform.app.inject({
    method: "OPTIONS",
    url,
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type,x-wix-bi-gateway" },
  });

describe("CORS for origins the owner names", () => {
  it("answers a named origin's preflight for the public API, and lets it read the answers", async () => {
    const allowed = await preflight("/wix-data/v2/items/query", APP_ORIGIN);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers["access-control-allow-origin"]).toBe(APP_ORIGIN);
    expect(allowed.headers["access-control-allow-headers"]).toBe("authorization,content-type,x-wix-bi-gateway");
    expect(allowed.headers["access-control-allow-credentials"]).toBeUndefined();
    const token = await platform.app.inject({
      method: "POST",
      url: "/oauth2/token",
      headers: { origin: APP_ORIGIN },
      payload: { clientId: "local-site-client", grantType: "anonymous" },
    });
    expect(token.statusCode).toBe(200);
    expect(token.headers["access-control-allow-origin"]).toBe(APP_ORIGIN);
    expect(token.headers.vary).toContain("Origin");
  });

  it("gives other origins nothing", async () => {
    const other = await preflight("/wix-data/v2/items/query", "http://localhost:5174");
    expect(other.statusCode).toBe(404);
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("keeps /_local and the admin key refused, even to a named origin, without a header that would let it read why", async () => {
    expect((await preflight("/_local/outbox", APP_ORIGIN)).headers["access-control-allow-origin"]).toBeUndefined();
    const local = await platform.app.inject({ url: "/_local/outbox", headers: { origin: APP_ORIGIN, authorization: platform.config.apiKey } });
    expect(local.statusCode).toBe(403);
    expect(local.headers["access-control-allow-origin"]).toBeUndefined();
    const admin = await platform.app.inject({ url: "/wix-data/v2/collections", headers: { origin: APP_ORIGIN, authorization: platform.config.apiKey } });
    expect(admin.statusCode).toBe(403);
    expect(admin.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("reads the origins from LOCAL_PLATFORM_CORS_ORIGINS and refuses anything but origins", () => {
    expect(readPlatformConfig({ LOCAL_PLATFORM_CORS_ORIGINS: "http://localhost:5173, https://app.example" }).corsOrigins).toEqual([
      "http://localhost:5173",
      "https://app.example",
    ]);
    expect(readPlatformConfig({}).corsOrigins).toEqual([]);
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_CORS_ORIGINS: "http://localhost:5173/app" })).toThrow(/LOCAL_PLATFORM_CORS_ORIGINS/);
  });
});
