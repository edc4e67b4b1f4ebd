// `npm run lighthouse [-- --desktop] [paths…]`: Lighthouse on the production build (local mode,
// its own ports, a fresh database) in Debian's Chromium, for the home page, a list and item
// pages (or the paths given), printing the four category scores of each and what keeps one
// below target. Exits 1 when a score is below target. Full reports go to
// .data/lighthouse-reports/.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Result } from "lighthouse";
import { ensureBuild, startProductionSite } from "./production-site";
import { chromiumFlags, chromiumPath } from "./chromium";

const args = process.argv.slice(2);
const desktop = args.includes("--desktop");
const paths = args.filter((arg) => arg.startsWith("/"));
const PAGES = paths.length ? paths : ["/", "/trails", "/trails/summit-loop", "/journal/ten-essentials-revisited"];
const TARGETS: Record<string, number> = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 };
const reportDir = path.resolve(import.meta.dirname, "../.data/lighthouse-reports");

/** Audits that cost a category points, with their figures. */
function shortfalls(lhr: Result, category: string): string[] {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit.score !== null && audit.score < 1 && !["informative", "notApplicable", "manual"].includes(audit.scoreDisplayMode))
    .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ""}`);
}

ensureBuild();
const site = await startProductionSite({ sitePort: 3700, platformPort: 4700, name: "lighthouse" });
const chrome = await chromeLauncher.launch({
  chromePath: chromiumPath,
  chromeFlags: ["--headless=new", ...chromiumFlags],
});
const audit = async (url: string): Promise<Result> => {
  const result = await lighthouse(
    url,
    { port: chrome.port, output: "json", logLevel: "error", onlyCategories: Object.keys(TARGETS) },
    desktop ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  return result.lhr;
};
const rows: Array<Record<string, string | number | undefined>> = [];
const notes: string[] = [];
try {
  fs.mkdirSync(reportDir, { recursive: true });
  for (const page of PAGES) {
    // One warm-up run, so the shared cache holds the page's reads and the optimiser its images,
    // as they would on a live site.
    await audit(site.url + page);
    const lhr = await audit(site.url + page);
    fs.writeFileSync(path.join(reportDir, `${desktop ? "desktop" : "mobile"}${page.replace(/\W+/g, "-")}.json`), JSON.stringify(lhr));
    const scores = Object.fromEntries(Object.keys(TARGETS).map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
    const metric = (id: string) => lhr.audits[id].displayValue;
    // Lighthouse's own measure of the CPU it had (higher is faster): it varies with other work on the machine.
    rows.push({
      page,
      ...scores,
      LCP: metric("largest-contentful-paint"),
      TBT: metric("total-blocking-time"),
      CLS: metric("cumulative-layout-shift"),
      "CPU index": Math.round(lhr.environment.benchmarkIndex),
    });
    for (const [id, target] of Object.entries(TARGETS))
      if (scores[id] < target) notes.push(`${page} ${id} ${scores[id]} < ${target}: ${shortfalls(lhr, id).join("; ")}`);
  }
} finally {
  await chrome.kill();
  await site.stop();
}
const version = (await import("lighthouse/package.json", { with: { type: "json" } })).default.version;
console.log(`Lighthouse ${version}, ${desktop ? "desktop" : "mobile emulation"}, ${new Date().toISOString().slice(0, 10)}`);
// Simulated throttling scales the main thread's real work: a busy machine shows more blocking time.
console.log(
  `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(" ")}`,
);
console.table(rows);
for (const note of notes) console.log(note);
process.exit(notes.length ? 1 : 0);
