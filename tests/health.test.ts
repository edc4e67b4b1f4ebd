import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { checkPlatform } from "@/lib/wix/health";
import { startTestPlatform, type TestPlatform } from "@/platform/testing";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

/** Runs `check` with the global fetch replaced, as if the platform were down or slow. */
async function withFetch<T>(fetch: typeof globalThis.fetch, check: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = fetch;
  try {
    return await check();
  } finally {
    globalThis.fetch = original;
  }
}

describe("the health check", () => {
  it("answers 200 ok, not cached, when the platform answers, at the cost of one token-endpoint call that grants nothing", async () => {
    const before = (await platform.stats()).requests["POST /oauth2/token"] ?? 0;
    const response = await GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok", platform: "ok" });
    expect((await platform.stats()).requests["POST /oauth2/token"]).toBe(before + 1);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("answers 503 with the reason when the platform is unreachable or fails", async () => {
    const down = await withFetch(
      () => Promise.reject(new TypeError("fetch failed")),
      () => GET(),
    );
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: "unavailable", platform: "unavailable", reason: "The platform is unavailable: unreachable." });
    const failing = await withFetch(
      async () => new Response("oops", { status: 502 }),
      () => checkPlatform(),
    );
    expect(failing).toEqual({ ok: false, reason: "The platform is unavailable: answered 502." });
  });

  it("gives up after its short timeout", async () => {
    const hanging: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    const started = Date.now();
    expect(await withFetch(hanging, () => checkPlatform(200))).toEqual({ ok: false, reason: "The platform is unavailable: timed out." });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
