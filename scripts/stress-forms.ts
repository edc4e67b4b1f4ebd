// `npm run stress:forms [-- --rounds N --cpu-slowdown N]`: the member's publish-and-delete round
// on a trail page, repeated in Debian's Chromium with its CPU slowed (and a busy loop on the
// machine beside it), on the production build. Each round publishes a report, waits for the
// confirmation and the refreshed list, deletes the report and waits again. A round whose page does
// not settle within 10 s is a stall: the form stays "Publishing…" or the deleted report stays on
// screen, what React's lost transition wake-up did to the site on Next.js 15.5 (docs/architecture.md).
// Prints the figures; exits 1 on any stall.
import { Worker } from "node:worker_threads";
import { chromium } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "./chromium";
import { ensureBuild, startProductionSite } from "./production-site";

const option = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const ROUNDS = option("rounds", 50);
const CPU_SLOWDOWN = option("cpu-slowdown", 4);
const SETTLE_MS = 10_000;
const TRAIL = "/trails/summit-loop";

ensureBuild();
const site = await startProductionSite({ sitePort: 3600, platformPort: 4600, name: "stress-forms" });
// The other core kept busy, as a loaded CI machine is.
const busy = new Worker("for (;;) {}", { eval: true });
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
const stalls: string[] = [];
const durations: number[] = [];
try {
  const page = await browser.newPage({ baseURL: site.url });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  await page.goto(`/login?returnTo=${encodeURIComponent(TRAIL)}`);
  await page.getByLabel("E-mail").fill("demo@ridgeline.example");
  await page.getByLabel("Password", { exact: true }).fill("ridgeline-demo");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL(`**${TRAIL}`);
  const reports = page.getByRole("region", { name: "Trail reports" });
  // Script has loaded the forms once they answer to a click: wait for it, as a member would.
  await page.waitForFunction(
    () => {
      const button = [...document.querySelectorAll("button")].find((node) => node.textContent === "Publish report");
      return Boolean(button && Object.keys(button).some((key) => key.startsWith("__reactProps")));
    },
    null,
    { timeout: 120_000 },
  );

  for (let round = 1; round <= ROUNDS; round++) {
    const title = `Stress round ${round} ${Date.now()}`;
    const started = performance.now();
    try {
      await reports.getByLabel("Title").fill(title);
      await reports.getByLabel("Your report").fill("Checked the boardwalk; all clear.");
      await reports.getByRole("button", { name: "Publish report" }).click();
      await reports.getByRole("status").filter({ hasText: "Thank you: your report is published." }).waitFor({ timeout: SETTLE_MS });
      const mine = page.getByRole("article", { name: title });
      await mine.waitFor({ timeout: SETTLE_MS });
      await reports.getByRole("button", { name: "Publish report" }).waitFor({ timeout: SETTLE_MS });
      await mine.locator("summary", { hasText: /^Delete/ }).click();
      await mine.getByRole("button", { name: "Yes, delete it" }).click();
      await reports.getByRole("status").filter({ hasText: "Your report is deleted." }).waitFor({ timeout: SETTLE_MS });
      await mine.waitFor({ state: "detached", timeout: SETTLE_MS });
      durations.push(performance.now() - started);
    } catch (error) {
      stalls.push(`round ${round}: ${(error as Error).message.split("\n")[0]}`);
      await page.goto(TRAIL);
    }
  }
} finally {
  await browser.close();
  await busy.terminate();
  await site.stop();
}

durations.sort((a, b) => a - b);
const percentile = (share: number) => durations[Math.min(durations.length - 1, Math.floor(share * durations.length))] ?? NaN;
console.log(`Publish-and-delete rounds: ${ROUNDS}, Chromium CPU slowed ${CPU_SLOWDOWN}×, the other core busy.`);
console.log(`Settled: ${durations.length}; stalled (over ${SETTLE_MS / 1000} s): ${stalls.length}`);
console.log(`Round time: median ${(percentile(0.5) / 1000).toFixed(2)} s, p95 ${(percentile(0.95) / 1000).toFixed(2)} s`);
for (const stall of stalls) console.log(`  ✗ ${stall}`);
process.exit(stalls.length ? 1 : 0);
