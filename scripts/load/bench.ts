// `npm run bench`: throughput, latency and CPU per view of the production build, each target at
// 50 connections for 20 s on a warm cache, side by side with a static file; then a cold start
// (docs/performance.md). `npm run bench -- --compare <checkout>` runs every target on another
// checkout's build too, in turn with this one's, so both are measured under the same load of a
// shared machine; `-- --only <part of a target's name>` runs only those targets (and the static file),
// `-- --rounds <n>` runs each that many times and prints the medians.
import path from "node:path";
import { parseArgs } from "node:util";
import { computeCacheBustingSearchParam } from "next/dist/shared/lib/router/utils/cache-busting-search-param.js";
import { format, load, machine, warm, withStacks, type LoadResult, type Stack } from "./harness";

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const COLD_SECONDS = 5;
/** The site's default SESSION_CHECK_INTERVAL, which the bench's stacks run with. */
const SESSION_CHECK_INTERVAL_SECONDS = 30;
/** Visitors' pages and their navigations should reach this share of the static file's throughput. */
const TARGET_RATIO = 0.7;

/** A client-side navigation from the home page, as Next.js's client asks for it. */
const STATE_TREE = encodeURIComponent(JSON.stringify(["", { children: ["__PAGE__", {}, null, null, 0] }, null, null, 16]));
const RSC_HEADERS = { rsc: "1", "next-router-state-tree": STATE_TREE };
const GZIP = { "accept-encoding": "gzip" };
const rscPath = async (path: string) =>
  `${path}${path.includes("?") ? "&" : "?"}_rsc=${await computeCacheBustingSearchParam(undefined, undefined, STATE_TREE, undefined)}`;

/** `renderEach`: a member's own page rendered anew at every view, as after each change of theirs (no kept page answers it). */
type Target = { name: string; path: string; member?: boolean; renderEach?: boolean; rsc?: boolean; gzip?: boolean; ratioTarget?: boolean };
const PAGES: Array<[string, string]> = [
  ["home", "/"],
  ["list", "/trails"],
  ["list, search", "/trails?q=lake"],
  ["item", "/trails/arch-spur"],
];
/** Members' views: documents and client-side navigations, each as it comes and gzipped. */
const MEMBER_PAGES = PAGES.filter(([name]) => name === "home" || name === "item");
const memberTargets = async ([name, path]: [string, string]): Promise<Target[]> => [
  { name: `${name} (member)`, path, member: true },
  { name: `${name} (member, gzip)`, path, member: true, gzip: true },
  { name: `${name} (member, RSC)`, path: await rscPath(path), member: true, rsc: true },
  { name: `${name} (member, RSC, gzip)`, path: await rscPath(path), member: true, rsc: true, gzip: true },
];
const TARGETS: Target[] = [
  { name: "static file", path: "/media/demo/ridge.svg" },
  ...PAGES.map(([name, path]) => ({ name: `${name} (visitor)`, path, ratioTarget: true })),
  ...(await Promise.all(PAGES.map(async ([name, path]) => ({ name: `${name} (visitor, RSC)`, path: await rscPath(path), rsc: true, ratioTarget: true })))),
  ...(await Promise.all(MEMBER_PAGES.map(memberTargets))).flat(),
  { name: "list (member)", path: "/trails", member: true },
  // Members' own pages (an outing with their RSVP is personal for every member): kept for each member's cookies, and rendered
  // by Next.js at the first view after any change.
  { name: "/account (member)", path: "/account", member: true },
  { name: "/account, rendered each view (member)", path: "/account", member: true, renderEach: true },
  { name: "outing with its RSVP (member)", path: "/outings/family-creek-walk", member: true },
  { name: "outing with its RSVP, rendered each view (member)", path: "/outings/family-creek-walk", member: true, renderEach: true },
];
/** Kept for the member's own cookies, where templates serve every member alike. */
const PERSONAL_PAGES = ["/account", "/outings/family-creek-walk"];
/** Rendered by nobody before the cold start: the cache and the cached reads are empty for it. */
const COLD_PAGE = "/trails/mirror-lakes";

const { values: options } = parseArgs({
  options: {
    compare: { type: "string", multiple: true, default: [] },
    only: { type: "string", multiple: true, default: [] },
    rounds: { type: "string", default: "1" },
    build: { type: "boolean" },
  },
});
/** `--rounds 3`: each target run that many times on each checkout in turn, with the medians after (a shared machine's load comes and goes). */
const ROUNDS = Math.max(1, Number(options.rounds) || 1);
/** `--only home --only account`: the targets whose names hold one of these, and the static file they are compared with. */
const targets = TARGETS.filter((target, index) => index === 0 || options.only.length === 0 || options.only.some((part) => target.name.includes(part)));

type Measured = Target & LoadResult & { calls: number; cpuMsPerView: number; resealed: number };

function printRow(name: string, result: Measured, ratio: number): void {
  const columns = [
    name.padEnd(43),
    format.rate(result.requestsPerSecond),
    format.ms(result.p50Ms),
    `${format.ms(result.p99Ms)}  `,
    ratio.toFixed(3).padStart(6),
    result.cpuMsPerView.toFixed(2).padStart(12),
    String(result.errors).padStart(7),
    String(result.timeouts).padStart(9),
    String(result.requests - (result.statuses["2xx"] ?? 0)).padStart(8),
    String(result.calls).padStart(15),
    String(result.resealed).padStart(12),
  ];
  console.log(columns.join(" "));
}

await withStacks(options.compare, async (stacks) => {
  const names = ["this checkout", ...options.compare.map((root) => path.basename(path.resolve(root)))];
  const label = (index: number) => (stacks.length > 1 ? ` [${names[index]}]` : "");
  const headersOf = (target: Target) => ({ ...(target.rsc && RSC_HEADERS), ...(target.gzip && GZIP) });
  console.log(`\nBench: ${CONNECTIONS} connections, ${SECONDS} s per target, warm cache. Machine: ${machine()}\n`);

  // Cold start first, while nothing has asked for the page: every connection misses at once.
  const colds = [];
  for (const [index, stack] of stacks.entries()) {
    const coldCallsBefore = await stack.platformCalls();
    const cold = await load({ url: new URL(COLD_PAGE, stack.siteUrl).href, connections: CONNECTIONS, seconds: COLD_SECONDS });
    const coldRenders = stack.renders.get(COLD_PAGE) ?? 0;
    const coldCalls = (await stack.platformCalls()) - coldCallsBefore;
    colds.push({ cold, coldRenders });
    console.log(
      `cold start ${COLD_PAGE}${label(index)}: ${cold.requests} requests in ${COLD_SECONDS} s, p99 ${format.ms(cold.p99Ms).trim()}, ` +
        `${coldRenders} render(s), ${coldCalls} platform calls`,
    );
  }

  console.log(`\n${"target".padEnd(45)}  req/s      p50      p99   ×static  CPU ms/view  errors  timeouts  non-2xx  platform calls  cookies set`);
  const results: Measured[][] = stacks.map(() => []);
  const measure = async (stack: Stack, target: Target): Promise<Measured> => {
    // Cached reads and pages go stale after 5 minutes: a long bench refreshes them here, not during a run.
    await warm(stack.siteUrl, [target.path], headersOf(target), target.member ? stack.member : undefined);
    await stack.settle();
    const [callsBefore, cpuBefore, servedBefore, resealedBefore] = [
      await stack.platformCalls(),
      stack.siteCpuMs(),
      stack.requestsServed(),
      stack.member.resealed,
    ];
    const url = new URL(target.path, stack.siteUrl).href;
    const result = await load({
      url,
      connections: CONNECTIONS,
      seconds: SECONDS,
      ...(target.member
        ? { requests: [stack.member.request(target.path, headersOf(target), { renderEach: target.renderEach })] }
        : { headers: headersOf(target) }),
    });
    // The server's CPU for the run's requests, every one of them served: those under way when the run ended included.
    await stack.settle();
    const served = stack.requestsServed() - servedBefore || result.requests; // no request lines below LOG_LEVEL=info
    const cpuMsPerView = (stack.siteCpuMs() - cpuBefore) / Math.max(1, served);
    return { ...target, ...result, calls: (await stack.platformCalls()) - callsBefore, cpuMsPerView, resealed: stack.member.resealed - resealedBefore };
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  for (const target of targets) {
    const runs: Measured[][] = stacks.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, stack] of stacks.entries()) {
        const result = await measure(stack, target);
        runs[index].push(result);
        results[index].push(result);
        printRow(`${target.name}${label(index)}`, result, result.requestsPerSecond / results[index][0].requestsPerSecond);
      }
    }
    if (ROUNDS === 1) continue;
    for (const [index, measured] of runs.entries()) {
      const [rate, cpu] = [median(measured.map((run) => run.requestsPerSecond)), median(measured.map((run) => run.cpuMsPerView))];
      console.log(`  median of ${ROUNDS}${label(index)}: ${rate.toFixed(0)} req/s, ${cpu.toFixed(2)} ms CPU/view`);
    }
  }
  console.log(`\nMachine after the runs: ${machine()}`);

  // The targets are this checkout's; another's figures are there to compare.
  const [{ cold, coldRenders }] = colds;
  const missed: string[] = [];
  if (coldRenders !== 1) missed.push(`cold start: ${coldRenders} renders of ${COLD_PAGE} (target: 1)`);
  if (cold.errors + cold.timeouts > 0 || cold.requests !== (cold.statuses["2xx"] ?? 0))
    missed.push(`cold start: ${cold.errors} errors, ${cold.timeouts} timeouts, answers ${JSON.stringify(cold.statuses)}`);
  for (const result of results[0]) {
    if (result.errors + result.timeouts > 0 || result.requests !== (result.statuses["2xx"] ?? 0)) {
      missed.push(`${result.name}: ${result.errors} errors, ${result.timeouts} timeouts, answers ${JSON.stringify(result.statuses)}`);
    }
    // A member's session is asked about once per check interval (the bench's one member: once at its start, once per interval
    // after), and a page kept for the member is rendered again once per interval, with the platform calls that page's render
    // makes (measured by its "rendered each view" target); a page rendered at every view reads the member's data each time.
    const intervals = Math.ceil(SECONDS / SESSION_CHECK_INTERVAL_SECONDS) + 1;
    const rendered = results[0].find((other) => other.renderEach && other.path === result.path);
    const callsPerRender = PERSONAL_PAGES.includes(result.path) ? (rendered ? Math.ceil(rendered.calls / rendered.requests) : Infinity) : 0;
    const allowedCalls = !result.member ? 0 : result.renderEach ? Infinity : intervals * (1 + callsPerRender);
    if (result.calls > allowedCalls) missed.push(`${result.name}: ${result.calls} platform calls`);
    // A kept cookie is re-sealed rarely (the last view is recorded every 5 minutes): at most once for each request then under way.
    if (result.resealed > CONNECTIONS) missed.push(`${result.name}: the session cookie was set ${result.resealed} times`);
    const ratio = result.requestsPerSecond / results[0][0].requestsPerSecond;
    if (result.ratioTarget && ratio < TARGET_RATIO)
      missed.push(`${result.name}: ${(ratio * 100).toFixed(1)}% of the static file's throughput (target ${TARGET_RATIO * 100}%)`);
  }
  if (stacks[0].member.ended) missed.push("the site ended the member's session during the bench");
  for (const miss of missed) console.log(`✗ ${miss}`);
  if (missed.length === 0) console.log("✓ Every target met.");
  return missed.length === 0;
});
