// The production build in local mode on its own ports with a fresh platform database, for the
// scripts that measure it: `npm run bench`, `npm run soak` and `npm run lighthouse`.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

const checkout = path.resolve(import.meta.dirname, "..");
const SOURCES = ["app", "components", "lib", "public", "server", "middleware.ts", "next.config.ts", "package-lock.json"];

/** The newest modification time of the files under these paths. */
function newestChange(entries: string[]): number {
  let newest = 0;
  const visit = (entry: string) => {
    const stat = fs.statSync(entry, { throwIfNoEntry: false });
    if (stat?.isDirectory()) for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
    else if (stat) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of entries) visit(path.join(checkout, entry));
  return newest;
}

/**
 * Runs `npm run build` (Next's build and the standalone server entry) when there is no build,
 * when it is older than the sources (it would measure yesterday's site) or when `--build` asks.
 */
export function ensureBuild(): void {
  const built = fs.statSync(path.join(checkout, ".next/standalone/site-server.mjs"), { throwIfNoEntry: false });
  const stale = built && built.mtimeMs < newestChange(SOURCES);
  if (built && !stale && !process.argv.includes("--build")) return;
  console.error(!built ? "No production build yet: building…" : stale ? "The build is older than the sources: building…" : "Building…");
  const build = spawnSync("npm", ["run", "build"], {
    cwd: checkout,
    stdio: ["ignore", process.stderr, "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) throw new Error("The build failed.");
}

/** The process ids below `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        return Number(fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]) === pid ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
  return children.flatMap((child) => [child, ...descendants(child)]);
}

export type ProductionSite = {
  url: string;
  platformUrl: string;
  /** The Next.js server's own process (run-site.mjs is its parent). */
  sitePid: number;
  /** How many times the page cache has rendered each URL so far, from the server's log. */
  renders: Map<string, number>;
  /** Requests the server has answered or seen abandoned so far, from its log's request lines (LOG_LEVEL info). */
  requestsLogged(): number;
  stop(): Promise<void>;
};

/**
 * The site and its local platform, started with `npm start`'s script; `stop()` ends both. `root`:
 * the checkout to start, this one unless another's build is measured beside it (`npm run bench -- --compare`).
 */
export async function startProductionSite(options: { sitePort: number; platformPort: number; name: string; root?: string }): Promise<ProductionSite> {
  const root = options.root ?? checkout;
  if (!fs.existsSync(path.join(root, ".next/standalone/site-server.mjs"))) throw new Error(`${root} has no production build (npm run build there).`);
  const dataDir = path.join(".data", options.name);
  fs.rmSync(path.join(root, dataDir), { recursive: true, force: true });
  // Reads cached by an earlier run against another database would be served as they are.
  fs.rmSync(path.join(root, ".next/cache/fetch-cache"), { recursive: true, force: true });
  const url = `http://localhost:${options.sitePort}`;
  const child = spawn(process.execPath, [path.join(root, "scripts/run-site.mjs"), "start"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      PORT: String(options.sitePort),
      SITE_URL: url,
      LOCAL_PLATFORM_PORT: String(options.platformPort),
      LOCAL_PLATFORM_DATA_DIR: dataDir,
    },
  });
  const renders = new Map<string, number>();
  let requestLines = 0;
  // The log is read as it comes (a pipe nobody reads would stall the server); only renders and request lines are counted.
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    if (line.includes('"msg":"request"')) requestLines++;
    if (!line.includes('"page cache render"')) return;
    const { render } = JSON.parse(line) as { render: string };
    renders.set(render, (renders.get(render) ?? 0) + 1);
  });
  let sitePid: number | undefined;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    // The site goes first (run-site then stops the platform): requests still queued in it must not meet a stopped platform.
    if (sitePid) process.kill(sitePid, "SIGTERM");
    else child.kill("SIGTERM");
    await exited;
  };
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The site stopped while starting (exit ${child.exitCode}).`);
      if (Date.now() > deadline) throw new Error(`${url} did not answer within 120 s.`);
      const ok = await fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    sitePid = descendants(child.pid!).find((pid) => /next-server|site-server\.mjs/.test(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")));
    if (!sitePid) throw new Error("Could not find the Next.js server process.");
    return { url, platformUrl: `http://127.0.0.1:${options.platformPort}`, sitePid, renders, requestsLogged: () => requestLines, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
