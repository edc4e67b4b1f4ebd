// `npm run soak`: 100 connections for 60 s, twice: visitors only (their pages come from the page
// cache: p99 must stay under 200 ms), then visitors and signed-in members together, each group
// reported on its own (members' p99 must stay under 200 ms too). Reports errors, throughput and the site's memory from the start to the
// end of the mixed run (docs/performance.md). The memory at the start is taken after a short run
// at the same load: the heap first grows to hold the renders in flight, and that step is not
// what a soak looks for (growth that does not stop).
import type { Request as LoadRequest } from "autocannon";
import { format, load, machine, warm, withStack, type LoadResult } from "./harness";

const CONNECTIONS = 100;
/** In the mixed run: members' share of the connections. */
const MEMBER_CONNECTIONS = 20;
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const MAX_MEMORY_GROWTH = 0.2;
/** Visitors' p99, alone and with members, and members' p99 in the mixed run. */
const MAX_P99_MS = 200;
const SETTLE_SECONDS = 15;

const VISITOR_PATHS = [
  "/",
  "/trails",
  "/trails?page=2",
  "/trails?q=lake",
  "/trails/arch-spur",
  "/trails/hidden-cove",
  "/outings",
  "/journal",
  "/regions/high-desert",
  "/members",
  "/media/demo/ridge.svg",
];
const MEMBER_PATHS = ["/account", "/outings/family-creek-walk", "/trails", "/trails/arch-spur", "/"];

const describe = (result: LoadResult) =>
  `${result.requests} requests, ${format.rate(result.requestsPerSecond).trim()} req/s, p50 ${format.ms(result.p50Ms).trim()}, ` +
  `p99 ${format.ms(result.p99Ms).trim()}, errors ${result.errors}, timeouts ${result.timeouts}, answers ${JSON.stringify(result.statuses)}`;

const failuresOf = (group: string, result: LoadResult) => [
  ...(result.statuses["5xx"] ? [`${group}: ${result.statuses["5xx"]} answers were 5xx`] : []),
  ...(result.errors + result.timeouts ? [`${group}: ${result.errors} connection errors, ${result.timeouts} timeouts`] : []),
];

await withStack(async (stack) => {
  await warm(stack.siteUrl, VISITOR_PATHS);
  await warm(stack.siteUrl, MEMBER_PATHS, {}, stack.member);
  const visitors: LoadRequest[] = VISITOR_PATHS.map((path) => ({ path }));
  // Only the session cookie, kept as the site re-seals it (the last view recorded every 5 minutes).
  const members: LoadRequest[] = MEMBER_PATHS.map((path) => stack.member.request(path));
  const missed: string[] = [];

  console.log(`\nSoak 1, visitors: ${CONNECTIONS} connections for ${SECONDS} s over ${visitors.length} paths. Machine: ${machine()}`);
  const visitorsOnly = await load({ url: stack.siteUrl, connections: CONNECTIONS, seconds: SECONDS, requests: visitors });
  console.log(`visitors: ${describe(visitorsOnly)}`);
  missed.push(...failuresOf("visitors only", visitorsOnly));
  const slow = (group: string, result: LoadResult) => (result.p99Ms >= MAX_P99_MS ? [`${group}: p99 ${result.p99Ms} ms (target under ${MAX_P99_MS} ms)`] : []);
  missed.push(...slow("visitors only", visitorsOnly));

  const mixed = (seconds: number) =>
    Promise.all([
      load({ url: stack.siteUrl, connections: CONNECTIONS - MEMBER_CONNECTIONS, seconds, requests: visitors }),
      load({ url: stack.siteUrl, connections: MEMBER_CONNECTIONS, seconds, requests: members }),
    ]);
  const idleRss = stack.siteRssMiB();
  await mixed(SETTLE_SECONDS);
  const startRss = stack.siteRssMiB();
  let peakRss = startRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, stack.siteRssMiB())), 1000);
  console.log(
    `\nSoak 2, mixed: ${CONNECTIONS - MEMBER_CONNECTIONS} visitor and ${MEMBER_CONNECTIONS} member connections for ${SECONDS} s. Machine: ${machine()}`,
  );
  const [mixedVisitors, mixedMembers] = await mixed(SECONDS);
  clearInterval(sampler);
  const endRss = stack.siteRssMiB();
  const growth = (endRss - startRss) / startRss;
  console.log(`visitors: ${describe(mixedVisitors)}`);
  console.log(`members:  ${describe(mixedMembers)}`);
  console.log(
    `site RSS: ${idleRss.toFixed(0)} MiB idle after warming, ${startRss.toFixed(0)} MiB after ${SETTLE_SECONDS} s at this load (the start), ` +
      `${endRss.toFixed(0)} MiB at the end (${(growth * 100).toFixed(1)}%), peak ${peakRss.toFixed(0)} MiB`,
  );
  console.log(`Machine after the runs: ${machine()}`);
  missed.push(...failuresOf("mixed, visitors", mixedVisitors), ...failuresOf("mixed, members", mixedMembers));
  missed.push(...slow("mixed, visitors", mixedVisitors), ...slow("mixed, members", mixedMembers));
  if (growth >= MAX_MEMORY_GROWTH) missed.push(`memory grew ${(growth * 100).toFixed(1)}% (limit ${MAX_MEMORY_GROWTH * 100}%)`);
  if (stack.member.ended) missed.push("the site ended the member's session during the soak");

  for (const miss of missed) console.log(`✗ ${miss}`);
  if (missed.length === 0) console.log(`✓ Visitors' and members' p99 under ${MAX_P99_MS} ms, no 5xx, no errors, memory growth under 20%.`);
  return missed.length === 0;
});
