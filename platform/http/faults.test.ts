import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "@ridgeline/platform-contract";
import { readPlatformConfig } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { faultOutcome, faultRuleSchema } from "./faults";

/** Fault mode (docs/platform/operations.md §3): set over HTTP with the admin key, felt by real requests. */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterEach(async () => {
  await faults("DELETE");
});
afterAll(() => platform.close());

/** With the admin key unless `authorization` is null. */
function faults(method: "GET" | "PUT" | "DELETE", body?: unknown, authorization: string | null = platform.config.apiKey) {
  return fetch(`${platform.url}/_local/faults`, {
    method,
    headers: { ...(authorization && { authorization }), ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const query = () =>
  fetch(`${platform.url}/wix-data/v2/items/query`, {
    method: "POST",
    headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ dataCollectionId: "Trails", query: { paging: { limit: 1 } } }),
  });

describe("the /_local/faults endpoint", () => {
  it("sets, reads and clears the rules with the admin key only, filling in the defaults", async () => {
    expect((await faults("PUT", { rules: [{ pathPrefix: "/wix-data/", errorRate: 1 }] }, null)).status).toBe(403);
    expect((await faults("GET", undefined, null)).status).toBe(403);
    const set = await faults("PUT", { rules: [{ pathPrefix: "/wix-data/", errorRate: 0.5, latencyMs: 10 }] });
    const expected = { rules: [{ pathPrefix: "/wix-data/", latencyMs: 10, errorRate: 0.5, errorStatus: 503, dropRate: 0, garbageRate: 0 }] };
    expect([set.status, await set.json()]).toEqual([200, expected]);
    expect(await (await faults("GET")).json()).toEqual(expected);
    expect(await (await faults("DELETE")).json()).toEqual({ rules: [] });
  });

  it("refuses rules it cannot follow with a 400 that says why", async () => {
    const bad = [
      { rules: [{ pathPrefix: "wix-data", errorRate: 1 }] },
      { rules: [{ pathPrefix: "/x", errorRate: 1.5 }] },
      { rules: [{ pathPrefix: "/x", errorRate: 0.6, dropRate: 0.6 }] },
      { rules: [{ pathPrefix: "/x", errorStatus: 404, errorRate: 1 }] },
      { rules: [{ pathPrefix: "/x", latencyMs: -1 }] },
      { rules: [{ pathPrefix: "/x", unknown: 1 }] },
      { rules: [{ pathPrefix: "/_local/faults", errorRate: 1 }] },
      [{ pathPrefix: "/x" }],
    ];
    for (const body of bad) {
      const reply = await faults("PUT", body);
      const envelope = (await reply.json()) as { message: string; details: { applicationError: { code: string } } };
      expect([reply.status, envelope.details.applicationError.code]).toEqual([400, "INVALID_ARGUMENT"]);
      expect(envelope.message).toMatch(/^Invalid faults: /);
    }
  });
});

describe("faults as requests feel them", () => {
  it("fails requests with the chosen status in the error envelope", async () => {
    await faults("PUT", { rules: [{ pathPrefix: "/wix-data/", errorRate: 1, errorStatus: 502 }] });
    const reply = await query();
    expect(reply.status).toBe(502);
    expect(await reply.json()).toMatchObject({ details: { applicationError: { code: "FAULT_INJECTED" } } });
  });

  it("delays requests", async () => {
    await faults("PUT", { rules: [{ pathPrefix: "/wix-data/v2/items", latencyMs: 300 }] });
    const started = performance.now();
    expect((await query()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("drops connections without an answer", async () => {
    await faults("PUT", { rules: [{ pathPrefix: "/wix-data/", dropRate: 1 }] });
    await expect(query()).rejects.toThrow(TypeError);
  });

  it("answers garbage with a 200", async () => {
    await faults("PUT", { rules: [{ pathPrefix: "/wix-data/", garbageRate: 1 }] });
    const reply = await query();
    expect(reply.status).toBe(200);
    await expect(reply.json()).rejects.toThrow(SyntaxError);
  });

  it("uses the longest matching prefix, leaves other paths alone and never touches /_local", async () => {
    await faults("PUT", {
      rules: [
        { pathPrefix: "/", errorRate: 1 },
        { pathPrefix: "/wix-data/v2/items/query", latencyMs: 0 },
      ],
    });
    expect((await query()).status).toBe(200);
    expect((await fetch(`${platform.url}/members/v1/members`)).status).toBe(503);
    expect((await fetch(`${platform.url}/_local/health`)).status).toBe(200);
  });

  it("splits one roll between drop, error and garbage in that order", () => {
    const rule = faultRuleSchema.parse({ pathPrefix: "/", dropRate: 0.25, errorRate: 0.25, garbageRate: 0.25 });
    expect([0, 0.24, 0.25, 0.49, 0.5, 0.74, 0.75, 0.99].map((roll) => faultOutcome(rule, roll))).toEqual([
      "drop",
      "drop",
      "error",
      "error",
      "garbage",
      "garbage",
      "pass",
      "pass",
    ]);
  });
});

describe("LOCAL_PLATFORM_FAULTS", () => {
  it("puts rules in force from the start, checked like the endpoint's", async () => {
    const config = readPlatformConfig({ LOCAL_PLATFORM_FAULTS: JSON.stringify({ rules: [{ pathPrefix: "/oauth2/", errorRate: 1 }] }) });
    expect(config.faults).toEqual([{ pathPrefix: "/oauth2/", latencyMs: 0, errorRate: 1, errorStatus: 503, dropRate: 0, garbageRate: 0 }]);
    const started = await startTestPlatform({ faults: config.faults });
    try {
      const grant = await fetch(`${started.url}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientId: "local-site-client", grantType: "anonymous" }),
      });
      expect(grant.status).toBe(503);
    } finally {
      await started.close();
    }
    expect(readPlatformConfig({}).faults).toEqual([]);
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_FAULTS: "{rules" })).toThrow(ConfigError);
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_FAULTS: '{"rules":[{"pathPrefix":"/x","errorRate":2}]}' })).toThrow(
      /LOCAL_PLATFORM_FAULTS: rules\.0\.errorRate/,
    );
  });
});
