import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyStrategy, createClient } from "@wix/sdk";
import { members } from "@wix/members";
import { items } from "@wix/data";
import { freePort, runNode, startChildPlatform, type ChildPlatform } from "./child-platform";
import { routeWixApis } from "@ridgeline/platform-contract";
import { TestBrowser } from "./identity/test-browser";
import { LOCAL_INSTANCE_ID } from "./oauth/access-token";
import { DEFAULT_API_KEY } from "./config";
import { DEMO_MEMBER } from "./seed/seed";

/**
 * Wix's Astro integration (`@wix/astro`) against the local platform (platform/README.md, "An Astro
 * app"): `examples/astro-app` built with `astro build` and started with the register line, as a
 * developer would. Its page render (site scripts, the visitor session cookie, data), an elevated
 * call (client_credentials), and the integration's own login, callback and logout routes, with the
 * platform's hosted sign-in page between them. Nothing reaches Wix: the register line sends every
 * www.wixapis.com and edge.wixapis.com call to the platform.
 */

const APP_DIR = path.resolve(import.meta.dirname, "examples/astro-app");
const APP = { id: "astro-example", secret: "astro-example-secret-0123456789" };
const SITE_SCRIPT = '<meta name="local-site-script" content="astro">';

let platform: ChildPlatform;
let app: ChildProcess;
/** What the app printed, for a failure's message. */
let appOutput = "";
let appUrl: string;
let dataDir: string;

/** The app's own dependencies (it needs React 18, so it is not one of the repository's workspaces). */
async function installApp() {
  if (fs.existsSync(path.join(APP_DIR, "node_modules/@wix/astro"))) return;
  const npm = process.env.npm_execpath;
  const install = npm ? await runNode([npm, "ci", "--no-audit", "--no-fund"], { env: {}, cwd: APP_DIR }) : null;
  if (install?.code !== 0) throw new Error(`Install the Astro example first: npm ci --prefix platform/examples/astro-app\n${install?.stderr ?? ""}`);
}

async function startApp(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "@ridgeline/local-platform/register", "dist/server/entry.mjs"], {
    cwd: APP_DIR,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const listen = (chunk: Buffer) => {
      appOutput += chunk;
      if (appOutput.includes("Server listening")) resolve();
    };
    child.stdout!.on("data", listen);
    child.stderr!.on("data", listen);
    child.on("exit", () => reject(new Error(`The Astro app stopped:\n${appOutput}`)));
  });
  return child;
}

beforeAll(async () => {
  await installApp();
  const [platformPort, appPort] = [await freePort(), await freePort()];
  appUrl = `http://127.0.0.1:${appPort}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "platform-astro-"));
  platform = await startChildPlatform({
    LOCAL_PLATFORM_PORT: String(platformPort),
    LOCAL_PLATFORM_DATA_DIR: dataDir,
    LOCAL_PLATFORM_OAUTH_CLIENTS: JSON.stringify([{ id: APP.id, redirectUris: [`${appUrl}/api/auth/callback`], secret: APP.secret }]),
    LOCAL_PLATFORM_SITE_SCRIPTS: JSON.stringify([{ position: "HEAD", html: SITE_SCRIPT }]),
  });
  // The client id is the only setting the integration reads at build time.
  const build = await runNode([path.join(APP_DIR, "node_modules/astro/astro.js"), "build"], { env: { WIX_CLIENT_ID: APP.id }, cwd: APP_DIR });
  if (build.code !== 0) throw new Error(`astro build failed:\n${build.stdout}\n${build.stderr}`);
  app = await startApp({
    HOST: "127.0.0.1",
    PORT: String(appPort),
    LOCAL_PLATFORM_URL: platform.url,
    WIX_CLIENT_SECRET: APP.secret,
    WIX_CLIENT_INSTANCE_ID: LOCAL_INSTANCE_ID,
    // Only checks webhooks, and this app takes none (no webhookUrl); the integration requires a value.
    WIX_CLIENT_PUBLIC_KEY: "unused",
  });
}, 240_000);

afterAll(async () => {
  for (const child of [app, platform?.process]) {
    if (!child || child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The platform's own answers, with the admin key from this machine, to compare the pages with. */
async function asAdmin<T>(call: (client: ReturnType<typeof adminClient>) => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = routeWixApis(platform.url, original);
  try {
    return await call(adminClient());
  } finally {
    globalThis.fetch = original;
  }
}

const adminClient = () => createClient({ modules: { items, members }, auth: ApiKeyStrategy({ apiKey: DEFAULT_API_KEY, siteId: "local-site" }) });

const html = { accept: "text/html" };
const listed = (page: string, id: string) => [...(new RegExp(`<ul id="${id}">(.*?)</ul>`).exec(page)?.[1] ?? "").matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]);

describe("an Astro app on @wix/astro", () => {
  it("renders a page with the platform's data and site scripts, and gives the visitor a session cookie", async () => {
    const browser = new TestBrowser();
    const page = await browser.get(`${appUrl}/`, html);
    expect(page.status).toBe(200);
    expect(page.text).toContain(SITE_SCRIPT);
    const expected = await asAdmin((client) => client.items.query("Trails").ascending("title").limit(3).find());
    expect(listed(page.text, "trails")).toEqual(expected.items.map((trail) => trail.title));
    const session = JSON.parse(decodeURIComponent(browser.cookies.get("wixSession") ?? "null")) as {
      clientId: string;
      tokens: { refreshToken: { role: string } };
    };
    expect(session).toMatchObject({ clientId: APP.id, tokens: { refreshToken: { role: "visitor" } } });
  });

  it("makes elevated calls with the app's own token, which see private members a visitor does not", async () => {
    const all = await asAdmin(async (client) => {
      await client.members.createMember({
        member: { loginEmail: "private.astro@ridgeline.example", privacyStatus: "PRIVATE", profile: { nickname: "Quiet" } },
      });
      return client.members.listMembers({ paging: { limit: 100 }, fieldsets: ["FULL"] });
    });
    const publicCount = all.members?.filter((member) => member.privacyStatus === "PUBLIC").length;
    const page = await new TestBrowser().get(`${appUrl}/directory`, html);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`${all.members?.length} members, ${publicCount} of them public`);
    expect(publicCount).toBeLessThan(all.members?.length ?? 0);
  });

  it("signs a member in through its login and callback routes and the hosted page, then out through its logout route", async () => {
    const browser = new TestBrowser();
    expect((await browser.get(`${appUrl}/me`, html)).text).toContain("A visitor");

    const login = await browser.get(`${appUrl}/api/auth/login?returnToUrl=/me`, html);
    expect(login.status, appOutput).toBe(302);
    expect(login.location?.startsWith(`${platform.url}/hosted/login?`)).toBe(true);
    const signedIn = await browser.submitForm(login.location!, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    expect(signedIn.location?.startsWith(`${appUrl}/api/auth/callback?code=`)).toBe(true);
    const callback = await browser.get(signedIn.location!, html);
    expect(callback).toMatchObject({ status: 302, location: "/me" });
    expect((await browser.get(`${appUrl}/me`, html)).text).toContain("Signed in as Dana");

    const logout = await browser.post(`${appUrl}/api/auth/logout?returnToUrl=/me`, {}, { origin: appUrl });
    expect(logout.status).toBe(302);
    expect(logout.location?.startsWith(`${platform.url}/hosted/logout?`)).toBe(true);
    const signedOut = await browser.follow(logout);
    expect(signedOut.location?.startsWith(`${appUrl}/api/auth/logout-callback`)).toBe(true);
    expect(await browser.follow(signedOut)).toMatchObject({ status: 302, location: "/me" });
    expect((await browser.get(`${appUrl}/me`, html)).text).toContain("A visitor");
  });
});
