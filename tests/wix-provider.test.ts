import http from "node:http";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { publicRead } from "@/lib/wix/client";
import { PlatformUnavailableError, TokenRefusedError } from "@/lib/wix/errors";
import { PLATFORM_TIMEOUT_MS, PLATFORM_WRITE_TIMEOUT_MS, isIdempotentRead, platformFetch, timeoutFor, withinPlatformTimeout } from "@/lib/wix/platform-fetch";
import { collectionByRoute } from "@/lib/site-config";
import { firstItems, whenAvailable } from "@/lib/wix/collections";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const trails = collectionByRoute("trails")!;
const latestTrails = (count: number) => firstItems(trails, count);
const calls = async (key: string) => (await platform.stats()).requests[key] ?? 0;

describe("public reads through the server's visitor", () => {
  it("shares one visitor token across concurrent reads: no grant per read", async () => {
    const read = (limit: number) => publicRead((client) => client.items.query("Regions").limit(limit).find());
    await read(1);
    const grants = await calls("POST /oauth2/token");
    await Promise.all(Array.from({ length: 8 }, (_, index) => read(index + 1)));
    expect(await calls("POST /oauth2/token")).toBe(grants);
  });

  it("answers a repeated read from the server's cache, with no platform call", async () => {
    const platformCalls = async () => Object.values((await platform.stats()).requests).reduce((sum, count) => sum + count, 0);
    const fresh = await latestTrails(4);
    const before = await platformCalls();
    const again = await Promise.all([latestTrails(4), latestTrails(4)]);
    expect(again).toEqual([fresh, fresh]);
    expect(await platformCalls()).toBe(before);
  });

  it("replaces a token the platform refused, once, and the read still succeeds", async () => {
    let used = "";
    await publicRead(async (client) => {
      const original = globalThis.fetch;
      globalThis.fetch = (input, init) => {
        used = new Headers(init?.headers).get("authorization") ?? used;
        return original(input, init);
      };
      try {
        return await client.items.query("Regions").limit(1).find();
      } finally {
        globalThis.fetch = original;
      }
    });
    expect(platform.ctx.tokens.revokeSessionOf(used)).toBe(true);
    const grants = await calls("POST /oauth2/token");
    expect(await latestTrails(2)).toHaveLength(2);
    // One renewal: the refresh token of the revoked pair is dead too, so a fresh visitor follows.
    expect(await calls("POST /oauth2/token")).toBeLessThanOrEqual(grants + 2);
  });
});

describe("the platform fetch", () => {
  it("turns a 401 into TokenRefusedError, a 5xx or no answer into PlatformUnavailableError", async () => {
    await expect(platformFetch(`${platform.url}/members/v1/members/my`, { headers: { authorization: "dead" } })).rejects.toBeInstanceOf(TokenRefusedError);
    await expect(platformFetch("http://127.0.0.1:9/unreachable")).rejects.toBeInstanceOf(PlatformUnavailableError);
    const ok = await platformFetch(`${platform.url}/_local/health`);
    expect(ok.status).toBe(200);
  });

  it("gives up on a call that takes too long", async () => {
    // A server that accepts the connection and never answers.
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const call = platformFetch(`http://127.0.0.1:${port}/wix-data/v2/items/query`, { signal: AbortSignal.timeout(50) });
      await expect(call).rejects.toBeInstanceOf(PlatformUnavailableError);
    } finally {
      silent.close();
    }
  });
});

/** A server that answers each request with the next of `answers` ("drop" closes the connection unanswered); it counts what it got. */
async function scriptedServer(answers: Array<{ status: number; body: string } | "drop">) {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
    if (answer === "drop") return request.socket.destroy();
    response.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return { url, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

const post = (body: unknown = {}) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("retries and unreadable answers", () => {
  it("tells reads from writes: GETs and the query POSTs are reads, inserts and token grants are not", () => {
    const wix = (path: string) => `https://www.wixapis.com${path}`;
    expect(isIdempotentRead(wix("/wix-data/v2/items/query"), "POST")).toBe(true);
    expect(isIdempotentRead(wix("/members/v1/members/query"), "post")).toBe(true);
    expect(isIdempotentRead(wix("/members/v1/members/my"), "GET")).toBe(true);
    expect(isIdempotentRead(wix("/wix-data/v2/items"), "POST")).toBe(false);
    expect(isIdempotentRead(wix("/wix-data/v2/items/query/extra"), "POST")).toBe(false);
    expect(isIdempotentRead(wix("/oauth2/token"), "POST")).toBe(false);
    expect(isIdempotentRead(wix("/wix-data/v2/items/abc"), "PATCH")).toBe(false);
  });

  it("waits longer for writes than for reads and token grants", () => {
    const wix = (path: string) => `https://www.wixapis.com${path}`;
    expect(timeoutFor(wix("/wix-data/v2/items/query"), "POST")).toBe(PLATFORM_TIMEOUT_MS);
    expect(timeoutFor(wix("/oauth2/token"), "POST")).toBe(PLATFORM_TIMEOUT_MS);
    expect(timeoutFor(wix("/wix-data/v2/items"), "POST")).toBe(PLATFORM_WRITE_TIMEOUT_MS);
    expect(PLATFORM_WRITE_TIMEOUT_MS).toBeGreaterThan(PLATFORM_TIMEOUT_MS);
  });

  it("tries a read once more after a 5xx or a dropped connection, and no more than once", async () => {
    const ok = { status: 200, body: '{"dataItems":[]}' };
    for (const first of [{ status: 503, body: "{}" }, "drop" as const]) {
      const server = await scriptedServer([first, ok]);
      try {
        const response = await platformFetch(`${server.url}/wix-data/v2/items/query`, post());
        expect(await response.json()).toEqual({ dataItems: [] });
        expect(server.seen).toEqual(["POST /wix-data/v2/items/query", "POST /wix-data/v2/items/query"]);
      } finally {
        await server.close();
      }
    }
    const failing = await scriptedServer([{ status: 502, body: "{}" }]);
    try {
      await expect(platformFetch(`${failing.url}/members/v1/members`)).rejects.toBeInstanceOf(PlatformUnavailableError);
      expect(failing.seen).toHaveLength(2);
    } finally {
      await failing.close();
    }
  });

  it("never repeats a write or a token grant", async () => {
    for (const path of ["/wix-data/v2/items", "/oauth2/token"]) {
      const server = await scriptedServer([
        { status: 503, body: "{}" },
        { status: 200, body: "{}" },
      ]);
      try {
        await expect(platformFetch(`${server.url}${path}`, post())).rejects.toBeInstanceOf(PlatformUnavailableError);
        expect(server.seen).toEqual([`POST ${path}`]);
      } finally {
        await server.close();
      }
    }
  });

  it("reports a 200 that is not JSON as the platform being unavailable", async () => {
    const server = await scriptedServer([{ status: 200, body: "<html>proxy error page" }]);
    try {
      const response = await platformFetch(`${server.url}/wix-data/v2/items/query`, post());
      await expect(response.json()).rejects.toBeInstanceOf(PlatformUnavailableError);
    } finally {
      await server.close();
    }
  });
});

describe("calls the SDK makes with its own fetch", () => {
  it("are waited for as long as a write, and no longer", async () => {
    vi.useFakeTimers();
    try {
      const never = withinPlatformTimeout(() => new Promise(() => {}));
      const expectation = expect(never).rejects.toBeInstanceOf(PlatformUnavailableError);
      await vi.advanceTimersByTimeAsync(PLATFORM_WRITE_TIMEOUT_MS);
      await expectation;
      await expect(withinPlatformTimeout(async () => "answer")).resolves.toBe("answer");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("reads against the platform's fault mode", () => {
  const setFaults = (rules: unknown[]) =>
    fetch(`${platform.url}/_local/faults`, {
      method: "PUT",
      headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ rules }),
    });
  afterEach(async () => {
    await setFaults([]);
  });
  // Not read before, so not cached: each goes to the platform.
  const uncachedRead = (count: number) => whenAvailable(() => firstItems(trails, count));

  it("a failing data service makes a read unavailable after two tries, through the real client", async () => {
    await setFaults([{ pathPrefix: "/wix-data/", errorRate: 1 }]);
    // The data client sends queries as GET (`.r`) when they are short.
    const before = await calls("GET /wix-data/v2/items/query");
    expect(await uncachedRead(7)).toEqual({ reachable: false });
    expect((await calls("GET /wix-data/v2/items/query")) - before).toBe(2);
  });

  it("so do dropped connections and answers that are not JSON", async () => {
    await setFaults([{ pathPrefix: "/wix-data/", dropRate: 1 }]);
    expect(await uncachedRead(8)).toEqual({ reachable: false });
    await setFaults([{ pathPrefix: "/wix-data/", garbageRate: 1 }]);
    expect(await uncachedRead(9)).toEqual({ reachable: false });
    await setFaults([]);
    expect(await uncachedRead(9)).toMatchObject({ reachable: true, value: expect.any(Array) });
  });
});
