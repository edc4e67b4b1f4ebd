import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

async function query(authorization: string) {
  const response = await fetch(`${platform.url}/wix-data/v2/items/query`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization },
    body: JSON.stringify({ dataCollectionId: "Regions", query: { paging: { limit: 1 } } }),
  });
  return response.status;
}

describe("an access token's subject", () => {
  it("is looked up once per call, though the request log and the route both ask, and the log still names the caller", async () => {
    const granted = await fetch(`${platform.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: LOCAL_CLIENT_ID, grantType: "anonymous" }),
    });
    const { access_token: accessToken } = (await granted.json()) as { access_token: string };
    const lookups = vi.spyOn(platform.ctx.tokens, "resolveAccess");
    try {
      expect(await query(accessToken)).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(1);
      expect(await query("not-a-token")).toBe(401);
      expect(lookups).toHaveBeenCalledTimes(2);
    } finally {
      lookups.mockRestore();
    }
    const logged = platform.ctx.requests.list().filter((entry) => entry.path === "/wix-data/v2/items/query");
    expect(logged.map((entry) => [entry.status, entry.caller])).toEqual([
      [200, "visitor"],
      [401, "unknown token"],
    ]);
  });
});
