// After `npm run build`: what each page sends to the browser. Prints the first-load JavaScript of
// every page (gzip, as the browser downloads it) and fails when a browser chunk holds a `@wix/*`
// package (tokens, platform calls and their clients belong on the server) or when a public page
// grows past its budget. Run by `npm run test:e2e`; figures in docs/performance.md.
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { CLIENT_PACKAGES_FILE } from "../next.config";

const BUILD = path.resolve(".next");
/**
 * Public pages may not grow past this (gzip KiB): on 2026-11-23 136–148, of which React and
 * Next.js are 104 and the list page's controls (filters, sort, load more) 12 (docs/performance.md).
 */
const PUBLIC_BUDGET_KIB = 150;
const PUBLIC_PAGES = new Set(["/page", "/[collection]/page", "/[collection]/[slug]/page", "/members/page", "/members/[slug]/page"]);
const FORBIDDEN = /^@wix\//;

type Manifest = { pages: Record<string, string[]> };
type ClientPackages = { chunks: Array<{ files: string[]; packages: string[] }> };

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(BUILD, file), "utf8")) as T;
const manifest = readJson<Manifest>("app-build-manifest.json");
const packagesFile = readJson<ClientPackages>(CLIENT_PACKAGES_FILE);

/** The layouts a page renders in, outermost first: "/(auth)/login/page" → "/layout", "/(auth)/layout". */
function layoutsOf(page: string): string[] {
  const segments = page.split("/").slice(1, -1);
  const prefixes = ["", ...segments.map((_, index) => `/${segments.slice(0, index + 1).join("/")}`)];
  return prefixes.map((prefix) => `${prefix}/layout`).filter((entry) => entry in manifest.pages);
}

const gzipSize = new Map<string, number>();
function sizeOf(file: string): number {
  let size = gzipSize.get(file);
  if (size === undefined) gzipSize.set(file, (size = gzipSync(fs.readFileSync(path.join(BUILD, file)), { level: 9 }).length));
  return size;
}

const kibOf = (files: string[]) => files.reduce((total, file) => total + sizeOf(file), 0) / 1024;

const packagesByFile = new Map(packagesFile.chunks.flatMap((chunk) => chunk.files.map((file) => [file, chunk.packages] as const)));
const problems: string[] = [];
const everyPackage = new Set(packagesFile.chunks.flatMap((chunk) => chunk.packages));
// A stats file that saw no module at all would let anything through.
for (const expected of ["react-dom", "next"])
  if (!everyPackage.has(expected)) problems.push(`${CLIENT_PACKAGES_FILE} lists no ${expected}: the build's module list is incomplete.`);

const rows: Array<{ page: string; files: string[]; kib: number; packages: string[] }> = [];
for (const page of Object.keys(manifest.pages)
  .filter((entry) => entry.endsWith("/page"))
  .sort()) {
  const files = [...new Set([...layoutsOf(page), page].flatMap((entry) => manifest.pages[entry] ?? []))].filter((file) => file.endsWith(".js"));
  const packages = [...new Set(files.flatMap((file) => packagesByFile.get(file) ?? []))].sort();
  const kib = kibOf(files);
  rows.push({ page, files, kib, packages });
  for (const forbidden of packages.filter((name) => FORBIDDEN.test(name))) problems.push(`${page} sends ${forbidden} to the browser.`);
  if (PUBLIC_PAGES.has(page) && kib > PUBLIC_BUDGET_KIB)
    problems.push(`${page} loads ${kib.toFixed(1)} KiB of JavaScript (gzip), over the ${PUBLIC_BUDGET_KIB} KiB budget.`);
}
for (const forbidden of [...everyPackage].filter((name) => FORBIDDEN.test(name))) problems.push(`A browser chunk holds ${forbidden}.`);

console.log("First-load JavaScript per page (gzip -9, KiB) and the npm packages in it:");
for (const { page, kib, packages } of rows) console.log(`  ${page.padEnd(32)} ${kib.toFixed(1).padStart(6)}  ${packages.join(", ")}`);
const shared = rows.reduce<string[]>((common, row, index) => (index === 0 ? row.files : common.filter((file) => row.files.includes(file))), []);
console.log(`Loaded by every page (the root layout's chunks): ${kibOf(shared).toFixed(1)} KiB in ${shared.length} files`);
if (problems.length) {
  for (const problem of problems) console.error(`✗ ${problem}`);
  process.exit(1);
}
console.log(`✓ No @wix/* package in any of ${packagesFile.chunks.length} browser chunks.`);
