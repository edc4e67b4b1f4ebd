import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { expect, test } from "./test";
import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { items } from "@wix/data";
import { createClient as createRedisClient } from "redis";
import { WIX_WEBHOOK_PATH, routeWixApis } from "@ridgeline/platform-contract";
import { DEFAULT_API_KEY } from "../platform/config";
import { SITE_PAGES } from "../lib/auth/routes";
import { secondDemoMember } from "./platform";
import { prewarmDone, submitLogin } from "./site-pages";

/**
 * More than one machine: two production instances of the site (the standalone server, page
 * cache included) share Next.js's data cache and their cached pages through a real Redis, and
 * one local platform tells only the first of them that data changed. The second must show the
 * edit all the same (docs/performance.md, "More than one machine").
 */

const base = Number(process.env.E2E_SCALE_PORT_BASE ?? 0);
const ports = { redis: 6390 + base, platform: 4211 + base, first: 3201 + base, second: 3202 + base };
const dataDir = ".data/e2e-scale";
const platformUrl = `http://127.0.0.1:${ports.platform}`;
const siteUrl = (port: number) => `http://localhost:${port}`;
const ADMIN_KEY = DEFAULT_API_KEY;

const children: ChildProcess[] = [];

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const log: string[] = [];
  child.stdout?.on("data", (chunk) => log.push(String(chunk)));
  child.stderr?.on("data", (chunk) => log.push(String(chunk)));
  child.on("exit", (code) => {
    if (code) console.error(`${command} ${args.join(" ")} exited with ${code}:\n${log.join("").slice(-2000)}`);
  });
  children.push(child);
  return child;
}

async function answers(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const dataQueries = async () => {
  const { requests } = (await (await fetch(`${platformUrl}/_local/stats`, { headers: { authorization: ADMIN_KEY } })).json()) as {
    requests: Record<string, number>;
  };
  return requests["GET /wix-data/v2/items/query"] ?? 0;
};
const answer = async (port: number, path: string) => {
  const response = await fetch(`${siteUrl(port)}${path}`);
  expect(response.status).toBe(200);
  return { cache: response.headers.get("x-cache"), html: await response.text() };
};
const page = async (port: number, path: string) => (await answer(port, path)).html;
const adminTrails = () =>
  createClient({ modules: { items }, auth: ApiKeyStrategy({ apiKey: ADMIN_KEY, siteId: "local-site" }), fetch: routeWixApis(platformUrl, globalThis.fetch) })
    .items;

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  start("redis-server", ["--port", String(ports.redis), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {});
  const shared = { LOCAL_PLATFORM_PORT: String(ports.platform), LOCAL_PLATFORM_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" };
  start(process.execPath, ["--import", "tsx", "platform/cli.ts"], {
    ...shared,
    SITE_URL: siteUrl(ports.first),
    LOCAL_PLATFORM_SITE_WEBHOOK_URL: `http://127.0.0.1:${ports.first}${WIX_WEBHOOK_PATH}`,
  });
  await answers(`${platformUrl}/_local/health`);
  for (const port of [ports.first, ports.second]) {
    start(process.execPath, [".next/standalone/site-server.mjs"], {
      ...shared,
      PORT: String(port),
      SITE_URL: siteUrl(port),
      REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
      SESSION_SECRET: "scale-out-session-secret-0123456789abcdef",
      NEXT_IGNORE_INCORRECT_LOCKFILE: "1",
    });
  }
  await Promise.all([answers(`${siteUrl(ports.first)}/robots.txt`), answers(`${siteUrl(ports.second)}/robots.txt`)]);
});

test.afterAll(async () => {
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      return exited;
    }),
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("a revalidation on one instance is seen by the other: they share one cache in Redis", async () => {
  const redis = createRedisClient({ url: `redis://127.0.0.1:${ports.redis}` });
  await redis.connect();
  const trails = adminTrails();
  try {
    // The first instance reads and fills the cache; the second then answers from it without asking the platform.
    expect(await page(ports.first, "/trails/hidden-cove")).toContain("Hidden Cove");
    const queries = await dataQueries();
    expect(await page(ports.second, "/trails/hidden-cove")).toContain("Hidden Cove");
    expect(await dataQueries()).toBe(queries);
    expect((await redis.keys("ridgeline:*")).length).toBeGreaterThan(0);

    // The platform tells only the first instance; the second shows the edit too.
    const [trail] = (await trails.query("Trails").eq("slug", "hidden-cove").find()).items;
    await trails.update("Trails", { ...trail, description: "Edited while two instances serve the site." });
    await expect
      .poll(() => page(ports.second, "/trails/hidden-cove"), { timeout: 5000, intervals: [100] })
      .toContain("Edited while two instances serve the site.");
    expect(await page(ports.first, "/trails/hidden-cove")).toContain("Edited while two instances serve the site.");
  } finally {
    await redis.quit();
  }
});

test("a page cached by one instance is served by the other, and an edit drops it on both", async () => {
  const trails = adminTrails();
  const path = "/trails/summit-loop";
  const first = await answer(ports.first, path);
  expect(first.cache).toBe("MISS");
  expect((await answer(ports.first, path)).cache).toBe("HIT");
  const queries = await dataQueries();
  const second = await answer(ports.second, path);
  expect(second.cache).toBe("HIT");
  expect(second.html).toBe(first.html);
  expect(await dataQueries()).toBe(queries);

  // The platform tells only the first instance: both show the edit within a second, and cache it anew.
  const [trail] = (await trails.query("Trails").eq("slug", "summit-loop").find()).items;
  await trails.update("Trails", { ...trail, title: "Summit Loop, Rerouted" });
  const showingEdit = async () =>
    (await Promise.all([ports.first, ports.second].map((port) => page(port, path)))).filter((html) => html.includes("Summit Loop, Rerouted")).length;
  await expect.poll(showingEdit, { timeout: 1000, intervals: [50] }).toBe(2);
  for (const port of [ports.first, ports.second]) expect((await answer(port, path)).cache).toBe("HIT");
});

test("a member blocked on the platform: the event reaches the first instance only, and the second ends the session at its next page view", async ({ page }) => {
  // Logged in on the first instance; the cookie (one secret, one host) serves on the second, which confirms it.
  await page.goto(`${siteUrl(ports.first)}${SITE_PAGES.login}`);
  await submitLogin(page, secondDemoMember.email, secondDemoMember.password);
  await expect(page.getByTestId("member-name")).toHaveText(secondDemoMember.name);
  await page.goto(`${siteUrl(ports.second)}/trails`);
  await expect(page.getByTestId("member-name")).toHaveText(secondDemoMember.name);
  // The browser's pre-warm of this origin is done: the next views, not its renewal, are to find the block.
  await prewarmDone(page);

  const headers = { authorization: ADMIN_KEY, "content-type": "application/json" };
  const found = await fetch(`${platformUrl}/members/v1/members/query`, {
    method: "POST",
    headers,
    body: JSON.stringify({ fieldsets: ["FULL"], query: { filter: { loginEmail: secondDemoMember.email } } }),
  });
  const [member] = ((await found.json()) as { members: Array<{ id: string }> }).members;
  expect((await fetch(`${platformUrl}/members/v1/members/${member.id}/block`, { method: "POST", headers, body: JSON.stringify({ id: member.id }) })).ok).toBe(
    true,
  );
  // Well within the 30 s the second instance would otherwise trust its confirmation: the first passed the news on through Redis.
  await expect
    .poll(
      async () => {
        await page.goto(`${siteUrl(ports.second)}/journal`);
        return page.getByTestId("member-name").count();
      },
      { timeout: 5_000, intervals: [200] },
    )
    .toBe(0);
  await expect(page.getByTestId("site-notice")).toContainText("Your session has ended");
});
