import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { unsealData } from "iron-session";
import { SITE_PAGES } from "../lib/auth/routes";
import { AUTH_LIMITS, SLOW_STEP_MS } from "../lib/security/rate-limits";
import { e2e } from "../playwright.config";
import { rawRequest } from "./http";
import { demoMember } from "./platform";
import { logInWithForm } from "./site-pages";

/**
 * The standalone build as a container runs it: `.next/standalone` copied away from the
 * repository (so nothing outside it can be loaded), its server entry started with node, next to
 * a local platform of its own. Its stdout is captured, to read the request log. It is set up
 * as if behind a proxy that writes X-Forwarded-For, so tests can speak for several clients.
 */
const sitePort = new URL(e2e.siteUrl).port ? Number(new URL(e2e.siteUrl).port) + 1 : 3101;
const platformPort = Number(new URL(e2e.platformUrl).port) + 1;
const siteUrl = `http://localhost:${sitePort}`;
const secret = "operations-spec-session-secret-0123456789";
const root = path.resolve(import.meta.dirname, "..");

let workDir: string;
const processes: ChildProcess[] = [];
let output = "";

async function waitFor(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test.beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "ridgeline-standalone-"));
  const server = path.join(workDir, "site");
  fs.cpSync(path.join(root, ".next", "standalone"), server, { recursive: true });
  const env = {
    ...process.env,
    PORT: String(sitePort),
    SITE_URL: siteUrl,
    SESSION_SECRET: secret,
    LOCAL_PLATFORM_PORT: String(platformPort),
    LOCAL_PLATFORM_DATA_DIR: path.join(workDir, "data"),
    TRUSTED_PROXY_HEADER: "x-forwarded-for",
    LOG_LEVEL: "info",
  };
  const platform = spawn(process.execPath, ["--import", "tsx", "platform/cli.ts"], { cwd: root, env, stdio: "ignore" });
  processes.push(platform);
  await waitFor(`http://127.0.0.1:${platformPort}/_local/health`, 30_000);
  const site = spawn(process.execPath, [path.join(server, "site-server.mjs")], { cwd: workDir, env, stdio: ["ignore", "pipe", "pipe"] });
  site.stdout!.on("data", (chunk) => (output += chunk));
  site.stderr!.on("data", (chunk) => (output += chunk));
  processes.push(site);
  await waitFor(`${siteUrl}/api/health`, 60_000);
});

test.afterAll(async () => {
  for (const child of processes) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** The JSON log lines written so far. */
const logLines = () =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Every request from this page's browser comes from `address`, as the proxy would say. */
const asClient = (page: Page, address: string) => page.setExtraHTTPHeaders({ "x-forwarded-for": address });

test("the standalone output runs on its own: /api/health answers 200 ok, not cached, with no cookie", async () => {
  const health = await rawRequest(`${siteUrl}/api/health`);
  expect(health.status).toBe(200);
  expect(JSON.parse(health.body)).toEqual({ status: "ok", platform: "ok" });
  expect(health.headers["cache-control"]).toBe("no-store");
  expect(health.headers["set-cookie"]).toBeUndefined();
  expect(logLines().find((line) => line.msg === "site listening")).toMatchObject({ port: sitePort, siteUrl });
});

test("the standalone output (all the container image holds) has no platform code, no SQLite and no platform package", () => {
  const files = fs.readdirSync(path.join(workDir, "site"), { recursive: true, encoding: "utf8" });
  expect(files.filter((file) => file === "platform" || file.startsWith(`platform${path.sep}`))).toEqual([]);
  const packages = ["better-sqlite3", "fastify", "@fastify", "csv-parse", "csv-stringify", "fxa-common-password-list"];
  expect(packages.filter((name) => fs.existsSync(path.join(workDir, "site", "node_modules", name)))).toEqual([]);
  expect(files.filter((file) => /better[-_]sqlite3|sqlite3?\.node$/i.test(file))).toEqual([]);
});

test("a login through the site's form leaves one log line per request and no password, code, state, verifier, token or cookie in the logs", async ({
  page,
}) => {
  await asClient(page, "198.51.100.10");
  // Every secret the login handles, by kind, as the browser saw it or as the sealed cookies hold it.
  const secrets = new Map<string, Set<string>>();
  const keep = (kind: string, value: string) => secrets.set(kind, (secrets.get(kind) ?? new Set()).add(value));
  keep("password", demoMember.password);
  const password = { [createHash("sha256").update(secret).digest().readUInt32BE(0)]: secret };
  page.on("request", (request) => {
    const url = new URL(request.url());
    for (const name of ["code", "state"]) {
      const value = url.searchParams.get(name);
      if (value && url.pathname.endsWith("/callback")) keep(name, value);
    }
  });
  page.on("response", async (response) => {
    // A response that comes as the page closes can no longer be read; the login's cookies came long before.
    const headers = await response.headersArray().catch(() => []);
    for (const header of headers.filter((entry) => entry.name.toLowerCase() === "set-cookie")) {
      const [name, ...rest] = header.value.split(";")[0].split("=");
      const value = rest.join("=");
      if (!value.startsWith("Fe26.2*")) continue;
      keep(`cookie ${name.replace(/_[\w-]{22}$/, "")}`, value);
      const opened = await unsealData<{ oauthData?: { codeVerifier: string }; accessToken?: string; refreshToken?: string }>(value, { password });
      if (opened.oauthData) keep("verifier", opened.oauthData.codeVerifier);
      if (opened.accessToken) keep("access token", opened.accessToken);
      if (opened.refreshToken) keep("refresh token", opened.refreshToken);
    }
  });

  const before = logLines().length;
  await logInWithForm(page, `${siteUrl}${SITE_PAGES.login}`);
  await page.goto(`${siteUrl}/account`);
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await new Promise((resolve) => setTimeout(resolve, 300));

  // Each kind was seen, so the check below means something.
  expect([...secrets.keys()].sort()).toEqual([
    "access token",
    "code",
    "cookie wms_session",
    "cookie wms_txn",
    "password",
    "refresh token",
    "state",
    "verifier",
  ]);
  for (const [kind, values] of secrets) for (const value of values) expect(output.includes(value), `the ${kind} is in the log`).toBe(false);

  const requests = logLines()
    .slice(before)
    .filter((line) => line.msg === "request");
  const action = requests.find((line) => line.method === "POST" && line.path === SITE_PAGES.login);
  // A script's action answers a redirect with 200 and the next page's payload (Next.js 16); a form
  // sent without script gets the 303 (e2e/no-javascript/forms.spec.ts).
  expect(action).toMatchObject({ serverAction: true, status: 200 });
  const callback = requests.find((line) => String(line.path).startsWith("/api/auth/callback"));
  expect(callback).toMatchObject({ method: "GET", path: "/api/auth/callback?code&state", status: 303 });
  // The code exchange and the member lookup are platform calls this request caused.
  expect((callback!.platformRequestIds as string[]).length).toBeGreaterThanOrEqual(1);
  const account = requests.find((line) => line.path === "/account" && line.method === "GET");
  expect(account).toMatchObject({ status: 200 });
  expect(account!.durationMs).toEqual(expect.any(Number));
  expect((account!.platformRequestIds as string[]).length).toBeGreaterThanOrEqual(1);
});

test("too many failed logins for one account are slowed, never refused, whichever address they come from", async ({ page }) => {
  const account = `slowed-${Date.now()}@ridgeline.example`;
  await page.goto(`${siteUrl}${SITE_PAGES.login}`);
  const submit = async (password: string) => {
    await page.getByLabel("E-mail").fill(account);
    await page.getByLabel("Password", { exact: true }).fill(password);
    const answered = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === SITE_PAGES.login);
    await page.getByRole("button", { name: "Log in" }).click();
    await answered;
  };
  // The platform refuses these itself (an unknown address); the site counts them all.
  for (let attempt = 0; attempt < AUTH_LIMITS.login.perAccount.points; attempt++) {
    await asClient(page, `203.0.113.${attempt + 1}`);
    await submit(`wrong-password-${attempt}`);
    await expect(page.getByRole("alert").or(page.getByText("That e-mail address and password do not match")).first()).toBeVisible();
  }
  await asClient(page, "203.0.113.200");
  const started = Date.now();
  await submit("one-more-try");
  expect(Date.now() - started).toBeGreaterThanOrEqual(SLOW_STEP_MS);
  await expect(page.getByText("Too many attempts")).toHaveCount(0);
  // Other accounts are not affected.
  await page.getByLabel("E-mail").fill(demoMember.email);
  await page.getByLabel("Password", { exact: true }).fill(demoMember.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("member-name")).toHaveText(demoMember.name);
});

test("one address starting too many hosted logins gets a page saying how long to wait; another address does not", async ({ page }) => {
  const busy = "192.0.2.50";
  const start = (address: string) => rawRequest(`${siteUrl}/api/auth/login?returnTo=/trails`, { headers: { "x-forwarded-for": address } });
  for (let i = 0; i < AUTH_LIMITS.hostedLogin.perAddress.points; i++) expect((await start(busy)).headers.location).toMatch(/^http:\/\/127\.0\.0\.1/);
  const refused = await start(busy);
  expect(refused.status).toBe(303);
  expect(Number(refused.headers["retry-after"])).toBeGreaterThan(800);
  expect(refused.headers["cache-control"]).toBe("private, no-store");
  expect((await start("192.0.2.51")).headers.location).toMatch(/^http:\/\/127\.0\.0\.1/);

  await asClient(page, busy);
  await page.goto(`${siteUrl}/api/auth/login?returnTo=/trails`);
  await expect(page.getByRole("heading", { name: "We couldn't sign you in" })).toBeVisible();
  await expect(page.getByText(/Too many attempts\. Please wait 1[45] minutes, then try again\./)).toBeVisible();
});
