import { defineConfig } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "./scripts/chromium";

/**
 * Browser tests run the production build (`npm run build` first) on its own ports, with a
 * fresh local platform database, in Debian's Chromium: Playwright's browser download cannot
 * work on machines without internet access.
 */
const sitePort = Number(process.env.E2E_SITE_PORT ?? 3100);
const platformPort = Number(process.env.E2E_PLATFORM_PORT ?? 4110);
const dataDir = ".data/e2e";
export const e2e = {
  dataDir,
  siteUrl: `http://localhost:${sitePort}`,
  // By name, as the site is: a passkey's RP id is the site's host name (localhost), which a page at an IP address may not use.
  platformUrl: `http://localhost:${platformPort}`,
  /** Short-lived access tokens, so tests can see a session outlive one. */
  tokenTtlSeconds: 20,
};

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 60_000,
  use: {
    baseURL: e2e.siteUrl,
    browserName: "chromium",
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumFlags,
    },
  },
  projects: [
    { name: "chromium", testIgnore: "no-javascript/**" },
    // Every form and menu as a person with JavaScript off (or before the page has hydrated) meets it.
    { name: "no-javascript", testDir: "e2e/no-javascript", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    // A fresh database, and no cached reads left from a run against another one.
    command: `rm -rf ${dataDir} .next/cache/fetch-cache .next/standalone/.next/cache/fetch-cache && node scripts/run-site.mjs start`,
    url: `${e2e.siteUrl}/trails`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(sitePort),
      SITE_URL: e2e.siteUrl,
      LOCAL_PLATFORM_PORT: String(platformPort),
      // Still loopback only (localhost resolves to 127.0.0.1), and the hosted pages' origin is http://localhost:<port>.
      LOCAL_PLATFORM_HOST: "localhost",
      LOCAL_PLATFORM_DATA_DIR: dataDir,
      LOCAL_PLATFORM_TOKEN_TTL: String(e2e.tokenTtlSeconds),
      SESSION_SECRET: "e2e-session-secret-0123456789abcdefghij",
      // Each test speaks as a visitor of its own (e2e/test.ts), so a run's sign-ups and logins
      // are not all counted against one address's limits.
      TRUSTED_PROXY_HEADER: "x-forwarded-for",
      // Request lines would drown the test output (E2E_LOG_LEVEL=info shows them when chasing a failure);
      // e2e/operations.spec.ts reads them from a server of its own.
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
      // Cached pages stay fresh for the whole run, however long it grows: the tests count renders and
      // platform calls of warm pages, and the fresh window itself is tested in tests/page-cache.test.ts.
      PAGE_CACHE_FRESH_SECONDS: "3600",
    },
  },
});
