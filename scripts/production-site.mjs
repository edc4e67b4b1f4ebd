// Starts the production build in local mode on its own ports, with a fresh database, for the
// scripts that measure it (Lighthouse). Builds first when there is no build, or when it is
// older than the sources (a stale build would measure yesterday's site).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** The newest modification time of the files under these paths. */
function newestChange(entries) {
  let newest = 0;
  const visit = (entry) => {
    const stat = fs.statSync(entry, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
    else if (stat) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of entries) visit(path.join(root, entry));
  return newest;
}

export function ensureBuild() {
  const built = fs.statSync(path.join(root, ".next", "BUILD_ID"), { throwIfNoEntry: false });
  if (built && built.mtimeMs >= newestChange(["app", "components", "lib", "public", "middleware.ts", "next.config.ts", "package-lock.json"])) return;
  console.error(built ? "The build is older than the sources: running next build…" : "No production build yet: running next build…");
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_IGNORE_INCORRECT_LOCKFILE: "1" },
  });
  if (build.status !== 0) throw new Error("next build failed");
}

async function waitFor(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited with code ${child.exitCode} before answering`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** The site and its local platform, started with `npm start`'s script; `stop()` ends both. */
export async function startProductionSite({ sitePort, platformPort, name }) {
  const dataDir = path.join(".data", name);
  fs.rmSync(path.join(root, dataDir), { recursive: true, force: true });
  // Reads cached by an earlier run against another database would be served as they are.
  fs.rmSync(path.join(root, ".next/cache/fetch-cache"), { recursive: true, force: true });
  const url = `http://localhost:${sitePort}`;
  const child = spawn(process.execPath, [path.join(root, "scripts/run-site.mjs"), "start"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(sitePort),
      SITE_URL: url,
      LOCAL_PLATFORM_PORT: String(platformPort),
      LOCAL_PLATFORM_DATA_DIR: dataDir,
      SESSION_SECRET: process.env.SESSION_SECRET ?? `${name}-session-secret-0123456789abcdefghij`,
    },
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  try {
    await waitFor(`${url}/`, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, platformUrl: `http://127.0.0.1:${platformPort}`, stop };
}
