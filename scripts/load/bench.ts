// `npm run bench`: throughput and latency of the production build, each target at 50
// connections for 20 s on a warm cache, side by side with a static file; then a cold start
// (docs/performance.md).
import { computeCacheBustingSearchParam } from "next/dist/shared/lib/router/utils/cache-busting-search-param.js";
import { format, load, machine, warm, withStack, type LoadResult } from "./harness";

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const COLD_SECONDS = 5;
/** Visitors' pages and their navigations should reach this share of the static file's throughput. */
const TARGET_RATIO = 0.7;

/** A client-side navigation from the home page, as Next.js's client asks for it. */
const STATE_TREE = encodeURIComponent(JSON.stringify(["", { children: ["__PAGE__", {}, null, null, 0] }, null, null, 16]));
const RSC_HEADERS = { rsc: "1", "next-router-state-tree": STATE_TREE };
const rscPath = async (path: string) =>
  `${path}${path.includes("?") ? "&" : "?"}_rsc=${await computeCacheBustingSearchParam(undefined, undefined, STATE_TREE, undefined)}`;

type Target = { name: string; path: string; member?: boolean; rsc?: boolean; ratioTarget?: boolean };
const PAGES: Array<[string, string]> = [
  ["home", "/"],
  ["list", "/trails"],
  ["list, search", "/trails?q=lake"],
  ["item", "/trails/arch-spur"],
];
const TARGETS: Target[] = [
  { name: "static file", path: "/media/demo/ridge.svg" },
  ...PAGES.map(([name, path]) => ({ name: `${name} (visitor)`, path, ratioTarget: true })),
  ...(await Promise.all(PAGES.map(async ([name, path]) => ({ name: `${name} (visitor, RSC)`, path: await rscPath(path), rsc: true, ratioTarget: true })))),
  { name: "home (member)", path: "/", member: true },
  { name: "item (member)", path: "/trails/arch-spur", member: true },
  { name: "/account (member)", path: "/account", member: true },
];
/** Rendered by nobody before the cold start: the cache and the cached reads are empty for it. */
const COLD_PAGE = "/trails/mirror-lakes";

await withStack(async (stack) => {
  const member = { cookie: stack.memberCookie };
  const headersOf = (target: Target) => ({ ...(target.member && member), ...(target.rsc && RSC_HEADERS) });
  console.log(`\nBench: ${CONNECTIONS} connections, ${SECONDS} s per target, warm cache. Machine: ${machine()}\n`);

  // Cold start first, while nothing has asked for the page: every connection misses at once.
  const coldCallsBefore = await stack.platformCalls();
  const cold = await load({ url: new URL(COLD_PAGE, stack.siteUrl).href, connections: CONNECTIONS, seconds: COLD_SECONDS });
  const coldRenders = stack.renders.get(COLD_PAGE) ?? 0;
  const coldCalls = (await stack.platformCalls()) - coldCallsBefore;
  console.log(
    `cold start ${COLD_PAGE}: ${cold.requests} requests in ${COLD_SECONDS} s, p99 ${format.ms(cold.p99Ms).trim()}, ` +
      `${coldRenders} render(s), ${coldCalls} platform calls\n`,
  );

  console.log("target                        req/s      p50      p99   ×static  errors  timeouts  non-2xx  platform calls");
  const results: Array<Target & LoadResult & { calls: number }> = [];
  for (const target of TARGETS) {
    // Cached reads and pages go stale after 5 minutes: a long bench refreshes them here, not during a run.
    await warm(stack.siteUrl, [target.path], headersOf(target));
    const before = await stack.platformCalls();
    const result = await load({ url: new URL(target.path, stack.siteUrl).href, connections: CONNECTIONS, seconds: SECONDS, headers: headersOf(target) });
    const calls = (await stack.platformCalls()) - before;
    results.push({ ...target, ...result, calls });
    const ratio = result.requestsPerSecond / results[0].requestsPerSecond;
    const non2xx = result.requests - (result.statuses["2xx"] ?? 0);
    const columns = [
      target.name.padEnd(27),
      format.rate(result.requestsPerSecond),
      format.ms(result.p50Ms),
      `${format.ms(result.p99Ms)}  `,
      ratio.toFixed(3).padStart(6),
      String(result.errors).padStart(7),
      String(result.timeouts).padStart(9),
      String(non2xx).padStart(8),
      String(calls).padStart(15),
    ];
    console.log(columns.join(" "));
  }
  console.log(`\nMachine after the runs: ${machine()}`);

  const missed: string[] = [];
  if (coldRenders !== 1) missed.push(`cold start: ${coldRenders} renders of ${COLD_PAGE} (target: 1)`);
  if (cold.errors + cold.timeouts > 0 || cold.requests !== (cold.statuses["2xx"] ?? 0))
    missed.push(`cold start: ${cold.errors} errors, ${cold.timeouts} timeouts, answers ${JSON.stringify(cold.statuses)}`);
  for (const result of results) {
    if (result.errors + result.timeouts > 0 || result.requests !== (result.statuses["2xx"] ?? 0)) {
      missed.push(`${result.name}: ${result.errors} errors, ${result.timeouts} timeouts, answers ${JSON.stringify(result.statuses)}`);
    }
    // A member's view asks whether their token still stands (at most one call, shared by parallel views);
    // /account also reads the member's own profile on every view: that call is its purpose.
    const allowedCalls = !result.member ? 0 : result.requests * (result.path === "/account" ? 2 : 1);
    if (result.calls > allowedCalls) missed.push(`${result.name}: ${result.calls} platform calls`);
    const ratio = result.requestsPerSecond / results[0].requestsPerSecond;
    if (result.ratioTarget && ratio < TARGET_RATIO)
      missed.push(`${result.name}: ${(ratio * 100).toFixed(1)}% of the static file's throughput (target ${TARGET_RATIO * 100}%)`);
  }
  for (const miss of missed) console.log(`✗ ${miss}`);
  if (missed.length === 0) console.log("✓ Every target met.");
  return missed.length === 0;
});
