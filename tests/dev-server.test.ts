import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../platform/child-platform";
import { chromiumFlags, chromiumPath } from "../scripts/chromium";
import { collectOutput, FIRST_LOAD_TIMEOUT, logInAsDemoMember, waitForOutput } from "./support/dev-server";

/**
 * `npm run dev` as a newcomer runs it (`next dev` with the local platform, scripts/run-site.mjs),
 * through a real login with the site's own form and two member pages in Chromium: the server's
 * output stays free of errors and of "Single item size exceeds maxSize". That warning is Next's
 * LRU cache refusing an entry bigger than the whole cache; in development every platform call a
 * page makes is kept in the server components' HMR cache, whose size once came straight from
 * `cacheMaxMemorySize`, and next.config.ts sets that to 0, so each call of a login printed it.
 * Next.js 16.4 gives that cache (and "use cache" entries) at least the default 50 MB in
 * development. Ports: DEV_TEST_SITE_PORT and DEV_TEST_PLATFORM_PORT, else free ones.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
let site: ChildProcess;
let browser: Browser;
let output: () => string;
let siteUrl: string;
let dataDir: string;

beforeAll(async () => {
  const sitePort = Number(process.env.DEV_TEST_SITE_PORT) || (await freePort());
  const platformPort = Number(process.env.DEV_TEST_PLATFORM_PORT) || (await freePort());
  siteUrl = `http://localhost:${sitePort}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dev-server-"));
  // Local mode, as a newcomer starts it (no WIX_CLIENT_ID); the test runner's NODE_ENV ("test") is no dev server's.
  const inherited = Object.entries(process.env).filter(([name]) => name !== "WIX_CLIENT_ID");
  const env = {
    ...Object.fromEntries(inherited),
    NODE_ENV: "development" as const,
    PORT: String(sitePort),
    SITE_URL: siteUrl,
    LOCAL_PLATFORM_PORT: String(platformPort),
    LOCAL_PLATFORM_DATA_DIR: dataDir,
  };
  site = spawn(process.execPath, ["scripts/run-site.mjs", "dev"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  output = collectOutput(site);
  await waitForOutput(site, output, /Ready in/);
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (site && site.exitCode === null) {
    const exited = new Promise((resolve) => site.once("exit", resolve));
    site.kill("SIGTERM");
    await exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run dev", () => {
  it("logs a member in with the site's form and shows member pages, with no error and no cache-size warning in its output", async () => {
    const page = await browser.newPage({ baseURL: siteUrl });
    await logInAsDemoMember(page);
    for (const [path, heading] of [
      ["/member-outings", "Members' outings"],
      ["/trails/mirror-lakes", "Mirror Lakes Trail"],
    ]) {
      // Each page's own requests (prefetches, the session pre-warm) end before the next page cuts them off.
      await page.waitForLoadState("networkidle", { timeout: FIRST_LOAD_TIMEOUT });
      await page.goto(path, { timeout: FIRST_LOAD_TIMEOUT });
      await page.getByRole("heading", { level: 1, name: heading }).waitFor({ timeout: FIRST_LOAD_TIMEOUT });
    }
    await page.waitForLoadState("networkidle", { timeout: FIRST_LOAD_TIMEOUT });
    await page.close();

    expect(output()).toMatch(/GET \/account 200/);
    expect(output()).not.toContain("Single item size exceeds maxSize");
    expect(
      output()
        .split("\n")
        .filter((line) => /⨯|\bError\b/.test(line)),
    ).toEqual([]);
  }, 300_000);

  it("serves the platform's pages on SITE_URL's host name, so the hosted login page may offer passkeys", async () => {
    const started = await fetch(`${siteUrl}/api/auth/login`, { redirect: "manual" });
    expect(started.status).toBeGreaterThanOrEqual(300);
    expect(new URL(started.headers.get("location")!).hostname).toBe("localhost");
  });
});
