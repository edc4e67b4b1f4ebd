// `npm run dev` / `npm start`: the Next.js site, plus the local platform when no WIX_CLIENT_ID
// is configured. Ctrl-C (or either process ending) stops both. `start` runs the standalone
// build's server entry (`npm run build` makes it; docs/deployment.md), `dev` Next's dev server.
import { spawn } from "node:child_process";
import nextEnv from "@next/env";
import { tsImport } from "tsx/esm/api";
import { describeEnd, exitCodeOf } from "./child-exit.mjs";

const mode = process.argv[2];
if (mode !== "dev" && mode !== "start") {
  console.error("usage: node scripts/run-site.mjs dev|start");
  process.exit(2);
}
nextEnv.loadEnvConfig(process.cwd(), mode === "dev");
const env = { NEXT_TELEMETRY_DISABLED: "1", ...process.env, NEXT_IGNORE_INCORRECT_LOCKFILE: "1" };
const children = new Set();
let stopping = false;

/** Starts `name`; its end (unless we are stopping) stops the other, and says what ended and why. */
function run(name, command, args) {
  const child = spawn(command, args, { stdio: "inherit", env });
  children.add(child);
  child.on("error", (error) => {
    console.error(`Could not start ${name}: ${error.message}`);
    children.delete(child);
    if (!stopping) stop(1);
  });
  child.on("exit", (code, signal) => {
    children.delete(child);
    if (stopping) return;
    console.error(`\n${describeEnd(name, code, signal) ?? `${name} ended.`}${children.size ? " Stopping the rest." : ""}`);
    stop(exitCodeOf(code, signal));
  });
  return child;
}

function stop(code) {
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  const deadline = setTimeout(() => process.exit(code), 5000);
  const check = setInterval(() => {
    if (children.size === 0) {
      clearTimeout(deadline);
      clearInterval(check);
      process.exit(code);
    }
  }, 50);
}

process.on("SIGINT", () => stop(130));
process.on("SIGTERM", () => stop(143));

async function waitForPlatform(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/_local/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (stopping) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  console.error(`The local platform did not start at ${url}.`);
  stop(1);
}

if (!env.WIX_CLIENT_ID) {
  // A site on localhost gets a platform bound by that name (still loopback): passkeys belong to
  // SITE_URL's host name, and only then may the hosted login page use them (docs/platform/identity.md §3.10).
  const siteUrl = env.SITE_URL ?? "http://localhost:3000";
  if (!env.LOCAL_PLATFORM_HOST && URL.canParse(siteUrl) && new URL(siteUrl).hostname === "localhost") env.LOCAL_PLATFORM_HOST = "localhost";
  // The site's own rules say where the platform is reached, so both always agree.
  const { parseConfig } = await tsImport("../lib/config.ts", import.meta.url);
  const { WIX_WEBHOOK_PATH } = await tsImport("@ridgeline/platform-contract", import.meta.url);
  let platformUrl;
  try {
    platformUrl = parseConfig(env).localPlatformUrl;
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  // The platform registers this site as its app and sends it Wix's data and member events, so cached pages show edits at once.
  env.LOCAL_PLATFORM_SITE_WEBHOOK_URL ??= new URL(WIX_WEBHOOK_PATH, `http://127.0.0.1:${env.PORT ?? 3000}`).href;
  run("The local platform", process.execPath, ["--import", "tsx", "platform/cli.ts"]);
  await waitForPlatform(platformUrl, 30_000);
}
if (!stopping) {
  if (mode === "dev") run("The Next.js dev server", process.execPath, [new URL("../node_modules/next/dist/bin/next", import.meta.url).pathname, "dev"]);
  else {
    // The production server's heap, as in the Dockerfile (docs/performance.md, soak): without a
    // limit V8 lets a busy server's heap grow far past what it keeps alive.
    env.NODE_OPTIONS ??= "--max-old-space-size=256";
    run("The site's server", process.execPath, [new URL("../.next/standalone/site-server.mjs", import.meta.url).pathname]);
  }
}
