import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { ConfigError, reachableUrl, routeWixApis } from "@ridgeline/platform-contract";
import { installLocalPlatformRouting } from "@/lib/wix/local-platform-fetch";
import { readPlatformConfig } from "@/platform/config";

/** A stand-in for the platform that echoes the path it was asked for. */
let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer((request, response) => response.end(`echo ${request.url}`));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("re-addressing the @wix/* packages' requests", () => {
  it("sends both Wix API hosts to the platform, keeping path and query, and leaves others alone", async () => {
    const seen: string[] = [];
    const upstream: typeof fetch = async (input) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return new Response("ok");
    };
    const routed = routeWixApis("http://127.0.0.1:4010", upstream);
    await routed("https://www.wixapis.com/oauth2/token?x=1");
    await routed(new Request("https://edge.wixapis.com/wix-data/v2/items/query", { method: "POST", body: "{}" }));
    await routed("https://static.wixstatic.com/media/a.jpg");
    expect(seen).toEqual([
      "http://127.0.0.1:4010/oauth2/token?x=1",
      "http://127.0.0.1:4010/wix-data/v2/items/query",
      "https://static.wixstatic.com/media/a.jpg",
    ]);
  });

  it("keeps routing after something assigns a new global fetch, as Next.js does on every dev recompile", async () => {
    const original = globalThis.fetch;
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, "fetch");
    process.env.LOCAL_PLATFORM_PORT = String(port);
    try {
      installLocalPlatformRouting();
      expect(await (await fetch("https://www.wixapis.com/first")).text()).toBe("echo /first");
      const replaced: typeof fetch = (input, init) => original(input, init);
      globalThis.fetch = replaced;
      expect(await (await fetch("https://edge.wixapis.com/second?q=1")).text()).toBe("echo /second?q=1");
    } finally {
      delete process.env.LOCAL_PLATFORM_PORT;
      if (descriptor) Object.defineProperty(globalThis, "fetch", descriptor);
    }
  });
});

describe("where the platform is reached", () => {
  it.each([
    ["127.0.0.1", 4010, "http://127.0.0.1:4010"],
    ["0.0.0.0", 4010, "http://127.0.0.1:4010"],
    ["::", 4010, "http://[::1]:4010"],
    ["::1", 5000, "http://[::1]:5000"],
    ["platform.internal", 80, "http://platform.internal:80"],
  ])("listening on %s:%i, it is reached at %s", (host, listenPort, url) => expect(reachableUrl(host, listenPort)).toBe(url));

  it("the site honours LOCAL_PLATFORM_HOST", () => {
    expect(parseConfig({ LOCAL_PLATFORM_HOST: "::1", LOCAL_PLATFORM_PORT: "4500", SESSION_SECRET: "s".repeat(32) }).localPlatformUrl).toBe("http://[::1]:4500");
  });
});

describe("variables both sides read", () => {
  it.each([
    [{ SITE_URL: "not a url" }, "SITE_URL: must be an absolute http(s) URL"],
    [{ SITE_URL: "ftp://club.example" }, "SITE_URL: must be an absolute http(s) URL"],
    [{ LOCAL_PLATFORM_PORT: "http" }, "LOCAL_PLATFORM_PORT: must be a port number"],
    [{ LOCAL_PLATFORM_PORT: "70000" }, "LOCAL_PLATFORM_PORT: must be a port number"],
    [{ LOCAL_PLATFORM_HOST: " " }, "LOCAL_PLATFORM_HOST: must not be empty when set"],
    [{ LOCAL_PLATFORM_DATA_DIR: "" }, "LOCAL_PLATFORM_DATA_DIR: must not be empty when set"],
  ])("%j is refused by the site and the platform alike, with the same words", (env, message) => {
    const site = () => parseConfig({ SESSION_SECRET: "s".repeat(32), ...env });
    const platform = () => readPlatformConfig(env);
    for (const parse of [site, platform]) {
      expect(parse).toThrow(ConfigError);
      expect(parse).toThrow(message);
    }
  });
});
