import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, OAuthStrategy } from "@wix/sdk";
import { scripts } from "@wix/headless-site-assets";
import { LOCAL_CLIENT_ID, readPlatformConfig } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";

/** `listSiteScripts`, the call `@wix/astro` makes for every HTML page, through the real client. */

const SCRIPTS = [
  { position: "HEAD", html: '<meta name="local-head" content="1">' },
  { position: "BODY_END", html: "<script>window.localEnd = true</script>" },
] as const;

let empty: TestPlatform;
let configured: TestPlatform;

const visitorClient = () => createClient({ modules: { scripts }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });

beforeAll(async () => {
  empty = await startTestPlatform();
});
afterAll(() => empty.close());

describe("site scripts", () => {
  it("answers a site without embedded scripts with an empty list, as the integration expects", async () => {
    const answer = await visitorClient().scripts.listSiteScripts({ pageUrl: "http://localhost:4321/items?x=1" });
    expect(answer).toEqual({ siteScripts: [] });
  });

  it("answers the scripts named in LOCAL_PLATFORM_SITE_SCRIPTS, in order", async () => {
    // A second platform replaces the first's fetch wrapper until it closes.
    configured = await startTestPlatform({ siteScripts: [...SCRIPTS] });
    try {
      const answer = await visitorClient().scripts.listSiteScripts({ pageUrl: "http://localhost:4321/", pageName: "home" });
      expect(answer.siteScripts).toEqual(SCRIPTS);
    } finally {
      await configured.close();
    }
  });

  it("refuses an over-long page URL as a validation error, not a 500", async () => {
    const failure = await visitorClient()
      .scripts.listSiteScripts({ pageUrl: `http://localhost/${"a".repeat(2100)}` })
      .catch((error: unknown) => error as { details?: { validationError?: unknown } });
    expect(failure).toMatchObject({ details: { validationError: { fieldViolations: [{ field: "options.pageUrl" }] } } });
  });
});

describe("LOCAL_PLATFORM_SITE_SCRIPTS", () => {
  it("reads a JSON array of positions and HTML", () => {
    expect(readPlatformConfig({ LOCAL_PLATFORM_SITE_SCRIPTS: JSON.stringify(SCRIPTS) }).siteScripts).toEqual(SCRIPTS);
    expect(readPlatformConfig({}).siteScripts).toEqual([]);
  });

  it("stops the platform with a message naming a bad entry", () => {
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_SITE_SCRIPTS: "[{" })).toThrow(/must be JSON/);
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_SITE_SCRIPTS: '[{"position":"FOOTER","html":"x"}]' })).toThrow(/0\.position/);
  });
});
