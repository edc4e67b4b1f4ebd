// After `next build`: completes the standalone output (.next/standalone) into something that
// runs on its own: the static files and public/ that Next.js leaves out, and our server entry
// (server/site-server.ts) bundled next to Next's own server.js (docs/deployment.md).
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const standalone = path.join(root, ".next", "standalone");
if (!fs.existsSync(path.join(standalone, "server.js"))) {
  console.error("No standalone output in .next/standalone: run `next build` with output: 'standalone' first.");
  process.exit(1);
}

fs.cpSync(path.join(root, ".next", "static"), path.join(standalone, ".next", "static"), { recursive: true });
if (fs.existsSync(path.join(root, "public"))) fs.cpSync(path.join(root, "public"), path.join(standalone, "public"), { recursive: true });

await build({
  entryPoints: [path.join(root, "server", "site-server.ts")],
  outfile: path.join(standalone, "site-server.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  tsconfig: path.join(root, "tsconfig.json"),
  // Resolved at run time from the standalone node_modules, the same copies the site's own code uses.
  external: ["next", "pino", "redis", "rate-limiter-flexible"],
  // Bundled CommonJS modules may call require.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: "warning",
});
console.log("Standalone server: .next/standalone/site-server.mjs");
