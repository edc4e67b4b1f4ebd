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

describe("the site's essential properties", () => {
  it("answers an English (US) site billed in dollars on UTC with one language by default", async () => {
    const answer = await visitorClient().scripts.getEssentialProperties();
    expect(answer).toEqual({
      properties: {
        locale: { languageCode: "en", country: "US" },
        language: "en",
        paymentCurrency: "USD",
        timeZone: "UTC",
        multilingual: { autoRedirect: false, supportedLanguages: [] },
      },
    });
  });

  it("answers the configured locale, currency, time zone and languages, with the scripts in the metadata", async () => {
    const config = readPlatformConfig({
      LOCAL_PLATFORM_SITE_LOCALE: "fr-FR",
      LOCAL_PLATFORM_SITE_CURRENCY: "eur",
      LOCAL_PLATFORM_SITE_TIME_ZONE: "Europe/Paris",
      LOCAL_PLATFORM_SITE_LANGUAGES: "de-DE, en-GB",
    });
    configured = await startTestPlatform({ siteScripts: [...SCRIPTS], siteProperties: config.siteProperties });
    try {
      const { siteScripts, properties } = await visitorClient().scripts.getSiteMetadata({ pageUrl: "http://localhost:4321/", pageName: "home" });
      expect(siteScripts).toEqual(SCRIPTS);
      expect(properties).toMatchObject({ locale: { languageCode: "fr", country: "FR" }, language: "fr", paymentCurrency: "EUR", timeZone: "Europe/Paris" });
      expect(properties?.multilingual?.supportedLanguages?.map((language) => [language.languageCode, language.countryCode, language.isPrimary])).toEqual([
        ["fr", "FR", true],
        ["de", "DE", false],
        ["en", "GB", false],
      ]);
    } finally {
      await configured.close();
    }
  });

  it("refuses an over-long page URL in the metadata request as a validation error", async () => {
    const failure = await visitorClient()
      .scripts.getSiteMetadata({ pageName: "x".repeat(300) })
      .catch((error: unknown) => error as { details?: { validationError?: unknown } });
    expect(failure).toMatchObject({ details: { validationError: { fieldViolations: [{ field: "options.pageName" }] } } });
  });

  it("stops the platform with a message naming a bad locale, currency or time zone", () => {
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_SITE_LOCALE: "english" })).toThrow(/like en-US/);
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_SITE_CURRENCY: "XYZW" })).toThrow(/ISO 4217/);
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_SITE_TIME_ZONE: "Mars/Olympus" })).toThrow(/IANA time zone/);
    expect(() => readPlatformConfig({ LOCAL_PLATFORM_SITE_LANGUAGES: "fr-FR,german" })).toThrow(/like en-US/);
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
