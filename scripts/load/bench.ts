// `npm run bench`: throughput and latency of the production build, each target at 50
// connections for 20 s on a warm cache, against a static file (docs/performance.md).
import { format, load, machine, warm, withStack, type LoadResult } from "./harness";

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** List and item pages should reach this share of the static file's throughput. */
const TARGET_RATIO = 0.7;

type Target = { name: string; path: string; member: boolean; ratioTarget?: boolean };
const TARGETS: Target[] = [
  { name: "static file", path: "/media/demo/ridge.svg", member: false },
  { name: "home (visitor)", path: "/", member: false },
  { name: "list (visitor)", path: "/trails", member: false, ratioTarget: true },
  { name: "item (visitor)", path: "/trails/arch-spur", member: false, ratioTarget: true },
  { name: "home (member)", path: "/", member: true },
  { name: "list (member)", path: "/trails", member: true, ratioTarget: true },
  { name: "item (member)", path: "/trails/arch-spur", member: true, ratioTarget: true },
  { name: "/account (member)", path: "/account", member: true },
];

await withStack(async (stack) => {
  const member = { cookie: stack.memberCookie };
  await warm(stack.siteUrl, TARGETS.filter((target) => !target.member).map((target) => target.path));
  await warm(stack.siteUrl, TARGETS.filter((target) => target.member).map((target) => target.path), member);
  console.log(`\nBench: ${CONNECTIONS} connections, ${SECONDS} s per target, warm cache. Machine: ${machine()}\n`);
  console.log("target                 req/s      p50      p99   ×static  errors  timeouts  non-2xx  platform calls");
  const results: Array<Target & LoadResult & { calls: number }> = [];
  for (const target of TARGETS) {
    // Cached reads go stale after 5 minutes (CACHE_LIFE_SECONDS): a long bench refreshes them here, not during a run.
    await warm(stack.siteUrl, [target.path], target.member ? member : {});
    const before = await stack.platformCalls();
    const result = await load({ url: new URL(target.path, stack.siteUrl).href, connections: CONNECTIONS, seconds: SECONDS, headers: target.member ? member : {} });
    const calls = (await stack.platformCalls()) - before;
    results.push({ ...target, ...result, calls });
    const ratio = result.requestsPerSecond / results[0].requestsPerSecond;
    const non2xx = result.requests - (result.statuses["2xx"] ?? 0);
    console.log(`${target.name.padEnd(20)} ${format.rate(result.requestsPerSecond)} ${format.ms(result.p50Ms)} ${format.ms(result.p99Ms)}   ${ratio.toFixed(3).padStart(6)}  ${String(result.errors).padStart(6)}  ${String(result.timeouts).padStart(8)}  ${String(non2xx).padStart(7)}  ${String(calls).padStart(14)}`);
  }
  console.log(`\nMachine after the runs: ${machine()}`);

  const missed: string[] = [];
  for (const result of results) {
    if (result.errors + result.timeouts > 0 || result.requests !== (result.statuses["2xx"] ?? 0)) {
      missed.push(`${result.name}: ${result.errors} errors, ${result.timeouts} timeouts, answers ${JSON.stringify(result.statuses)}`);
    }
    // /account reads the member's own profile on every view: that one call is its purpose.
    if (result.calls > 0 && result.path !== "/account") missed.push(`${result.name}: ${result.calls} platform calls`);
    const ratio = result.requestsPerSecond / results[0].requestsPerSecond;
    if (result.ratioTarget && ratio < TARGET_RATIO) missed.push(`${result.name}: ${(ratio * 100).toFixed(1)}% of the static file's throughput (target ${TARGET_RATIO * 100}%)`);
  }
  for (const miss of missed) console.log(`✗ ${miss}`);
  if (missed.length === 0) console.log("✓ Every target met.");
  return missed.length === 0;
});
