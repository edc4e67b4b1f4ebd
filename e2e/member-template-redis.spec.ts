import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { expect, test } from "./test";
import { MemberClient } from "./member-client";
import { demoMember, secondDemoMember } from "./platform";

/**
 * Members' templates shared between two instances of the site through a real Redis: a template
 * one instance rendered for its member is filled in on the other for another member, and
 * neither ever sees the other's name, id or e-mail (docs/performance.md, "Members' pages").
 */

const base = Number(process.env.E2E_TEMPLATE_PORT_BASE ?? 0);
const ports = { redis: 4339 + base, platform: 4338 + base, first: 3338 + base, second: 3339 + base };
const dataDir = ".data/e2e-template-redis";
const platformUrl = `http://127.0.0.1:${ports.platform}`;
const siteUrl = (port: number) => `http://localhost:${port}`;
const PAGES = ["/", "/trails", "/trails/summit-loop", "/journal", "/members", "/outings"];

const children: ChildProcess[] = [];

function start(command: string, args: string[], env: Record<string, string>): void {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  const log: string[] = [];
  child.stderr?.on("data", (chunk) => log.push(String(chunk)));
  child.on("exit", (code) => {
    if (code) console.error(`${command} ${args.join(" ")} exited with ${code}:\n${log.join("").slice(-2000)}`);
  });
  children.push(child);
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

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  start("redis-server", ["--port", String(ports.redis), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {});
  const shared = { LOCAL_PLATFORM_PORT: String(ports.platform), LOCAL_PLATFORM_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" };
  start(process.execPath, ["--import", "tsx", "platform/cli.ts"], { ...shared, SITE_URL: siteUrl(ports.first) });
  await answers(`${platformUrl}/_local/health`);
  for (const port of [ports.first, ports.second]) {
    start(process.execPath, [".next/standalone/site-server.mjs"], {
      ...shared,
      PORT: String(port),
      SITE_URL: siteUrl(port),
      REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
      SESSION_SECRET: "template-redis-session-secret-0123456789",
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

test("a template rendered on one instance is filled on the other for another member, who sees only their own name", async ({ browser }) => {
  const dana = await MemberClient.logIn(browser, demoMember, siteUrl(ports.first));
  // Both log in on the first instance (the platform's hosted pages know that one); their cookies open on either.
  const rowan = (await MemberClient.logIn(browser, secondDemoMember, siteUrl(ports.first))).on(siteUrl(ports.second));
  const visitorPages = new Map<string, string>();
  for (const path of PAGES) visitorPages.set(path, await (await fetch(`${siteUrl(ports.first)}${path}`)).text());

  const check = (seen: { body: string }, own: typeof demoMember, other: typeof demoMember, path: string) => {
    expect(seen.body, path).toContain(
      `data-testid="member-name" class="sr-only max-w-28 truncate min-[360px]:not-sr-only min-[360px]:inline-block">${own.name}<`,
    );
    expect(seen.body).not.toContain(other.email);
    expect(seen.body).not.toContain(own.email);
    expect(seen.body).not.toMatch(/Member[a-zA-Z]{24}|Initial[a-zA-Z]{24}/);
    if (seen.body.includes(`>${other.name}<`)) expect(visitorPages.get(path), `${path}: ${other.name}`).toContain(`>${other.name}<`);
  };
  for (const path of PAGES) {
    const first = await dana.get(path);
    expect(first.cache, path).toBe("MISS");
    check(first, demoMember, secondDemoMember, path);
    // The second instance has never rendered it: it comes from Redis, filled in for Rowan.
    const second = await rowan.get(path);
    expect(second.cache, path).toBe("HIT");
    check(second, secondDemoMember, demoMember, path);
  }
  // Each instance now holds every template: the members swap instances.
  for (const path of PAGES) {
    check(await dana.on(siteUrl(ports.second)).get(path), demoMember, secondDemoMember, path);
    check(await rowan.on(siteUrl(ports.first)).get(path), secondDemoMember, demoMember, path);
  }
});
