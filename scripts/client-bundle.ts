// After `npm run build`: what each page sends to the browser. Prints the first-load JavaScript of
// every page (gzip, as the browser downloads it) and the npm packages in its browser chunks, and
// fails when a browser chunk holds a `@wix/*` package (tokens, platform calls and their clients
// belong on the server) or when a page grows past its budget. Run by `npm run test:e2e`; figures
// in docs/performance.md.
//
// The build is Turbopack's. Its chunks carry no module paths, so the packages come from Next's
// bundle analysis (`next analyze`, the same module graph compiled for inspection); the sizes come
// from the build itself (the first-load chunks Next.js lists per route).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { z } from "zod";

const BUILD = path.resolve(".next");
/**
 * Budgets in gzip KiB. Public pages: on 2026-11-26 142.4–145.1, of which the framework and the
 * root layout are 136.9 (docs/performance.md). Member and sign-in pages carry the form kit on top;
 * the account page the most (161.3: two-step sign-in with its app set-up and recovery codes).
 */
const PUBLIC_BUDGET_KIB = 150;
const MEMBER_BUDGET_KIB = 165;
const PUBLIC_ROUTES = new Set(["/", "/[collection]", "/[collection]/[slug]", "/members", "/members/[slug]"]);
const FORBIDDEN = /^@wix\//;

const routeStats = z.array(z.object({ route: z.string(), firstLoadChunkPaths: z.array(z.string()) }));
/** A module's part of one output file of one route, in `next analyze export`'s JSON Lines. */
const analysisRecord = z.union([
  z.object({ type: z.literal("part"), route: z.string(), filename: z.string(), source_path: z.string() }),
  z.object({ type: z.string() }),
]);

const stats = routeStats.parse(JSON.parse(fs.readFileSync(path.join(BUILD, "diagnostics/route-bundle-stats.json"), "utf8")));

/**
 * The npm package a module of the analysis comes from ("[project]/node_modules/@wix/sdk/…" →
 * "@wix/sdk"); the React that Next.js bundles counts as react-dom, not as next.
 */
const packageOf = (source: string) =>
  /node_modules\/next\/dist\/compiled\/react-dom\//.test(source) ? "react-dom" : /node_modules\/((?:@[^/]+\/)?[^/\s]+)/.exec(source)?.[1];

/** Each route's browser chunks' packages, lazy chunks included, from Next's bundle analysis. */
function browserPackagesByRoute(): Map<string, Set<string>> {
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_IGNORE_INCORRECT_LOCKFILE: "1" };
  execFileSync("npx", ["next", "analyze", "--output"], { env, stdio: ["ignore", "ignore", "inherit"] });
  const lines = execFileSync("npx", ["next", "analyze", "export"], { env, maxBuffer: 1 << 30, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const byRoute = new Map<string, Set<string>>();
  for (const line of lines.split("\n")) {
    if (!line) continue;
    const record = analysisRecord.parse(JSON.parse(line));
    // Browser chunks only: the server's own chunks may (and do) hold the platform's clients.
    if (!("source_path" in record) || !record.filename.startsWith("[client-fs]/")) continue;
    const packages = byRoute.get(record.route) ?? new Set<string>();
    const name = packageOf(record.source_path);
    if (name) packages.add(name);
    byRoute.set(record.route, packages);
  }
  return byRoute;
}

const gzipSize = new Map<string, number>();
function sizeOf(file: string): number {
  let size = gzipSize.get(file);
  if (size === undefined) gzipSize.set(file, (size = gzipSync(fs.readFileSync(path.resolve(file)), { level: 9 }).length));
  return size;
}
const kibOf = (files: string[]) => files.reduce((total, file) => total + sizeOf(file), 0) / 1024;

const packagesByRoute = browserPackagesByRoute();
const problems: string[] = [];
const everyPackage = new Set([...packagesByRoute.values()].flatMap((packages) => [...packages]));
// An analysis that saw no module at all would let anything through.
for (const expected of ["react-dom", "next"]) if (!everyPackage.has(expected)) problems.push(`The bundle analysis lists no ${expected}: it is incomplete.`);

const pages = stats.filter(({ route, firstLoadChunkPaths }) => firstLoadChunkPaths.length > 0 && !route.startsWith("/_"));
if (pages.length === 0) problems.push("The build lists no page's first-load chunks (.next/diagnostics/route-bundle-stats.json).");
console.log("First-load JavaScript per page (gzip -9, KiB) and the npm packages in its browser chunks:");
for (const { route, firstLoadChunkPaths } of pages.sort((a, b) => a.route.localeCompare(b.route))) {
  const kib = kibOf(firstLoadChunkPaths);
  const packages = [...(packagesByRoute.get(route) ?? [])].sort();
  console.log(`  ${route.padEnd(28)} ${kib.toFixed(1).padStart(6)}  ${packages.join(", ")}`);
  const budget = PUBLIC_ROUTES.has(route) ? PUBLIC_BUDGET_KIB : MEMBER_BUDGET_KIB;
  if (kib > budget) problems.push(`${route} loads ${kib.toFixed(1)} KiB of JavaScript (gzip), over its ${budget} KiB budget.`);
}
for (const [route, packages] of packagesByRoute)
  for (const forbidden of [...packages].filter((name) => FORBIDDEN.test(name))) problems.push(`${route} sends ${forbidden} to the browser.`);

const shared = pages.reduce<string[]>(
  (common, { firstLoadChunkPaths }, index) => (index === 0 ? firstLoadChunkPaths : common.filter((file) => firstLoadChunkPaths.includes(file))),
  [],
);
console.log(`Loaded by every page (the framework and the root layout): ${kibOf(shared).toFixed(1)} KiB in ${shared.length} files`);
if (problems.length) {
  for (const problem of problems) console.error(`✗ ${problem}`);
  process.exit(1);
}
console.log(`✓ No @wix/* package in the browser chunks of any of ${packagesByRoute.size} routes.`);
