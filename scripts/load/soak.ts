// `npm run soak`: 60 s at 100 connections on a mix of pages, visitors' and a member's; reports
// errors, throughput and the site's memory at the start and the end (docs/performance.md). The
// memory at the start is taken after a short run at the same load: the heap first grows to hold
// 100 renders at once, and that step is not what a soak looks for (growth that does not stop).
import type { Request as LoadRequest } from "autocannon";
import { format, load, machine, warm, withStack } from "./harness";

const CONNECTIONS = 100;
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const MAX_MEMORY_GROWTH = 0.2;
const SETTLE_SECONDS = 15;

const VISITOR_PATHS = ["/", "/trails", "/trails?page=2", "/trails/arch-spur", "/trails/hidden-cove", "/outings", "/journal", "/regions/high-desert", "/media/demo/ridge.svg"];
const MEMBER_PATHS = ["/account", "/trails"];

await withStack(async (stack) => {
  const member = { cookie: stack.memberCookie };
  await warm(stack.siteUrl, VISITOR_PATHS);
  await warm(stack.siteUrl, MEMBER_PATHS, member);
  const requests: LoadRequest[] = [...VISITOR_PATHS.map((path) => ({ path })), ...MEMBER_PATHS.map((path) => ({ path, headers: member }))];
  const idleRss = stack.siteRssMiB();
  await load({ url: stack.siteUrl, connections: CONNECTIONS, seconds: SETTLE_SECONDS, requests });
  const startRss = stack.siteRssMiB();
  let peakRss = startRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, stack.siteRssMiB())), 1000);
  console.log(`\nSoak: ${CONNECTIONS} connections for ${SECONDS} s over ${requests.length} paths. Machine: ${machine()}`);
  const result = await load({ url: stack.siteUrl, connections: CONNECTIONS, seconds: SECONDS, requests });
  clearInterval(sampler);
  const endRss = stack.siteRssMiB();
  const growth = (endRss - startRss) / startRss;
  console.log(`requests ${result.requests}, ${format.rate(result.requestsPerSecond).trim()} req/s, p50 ${format.ms(result.p50Ms).trim()}, p99 ${format.ms(result.p99Ms).trim()}`);
  console.log(`errors ${result.errors}, timeouts ${result.timeouts}, answers ${JSON.stringify(result.statuses)}`);
  console.log(`site RSS: ${idleRss.toFixed(0)} MiB idle after warming, ${startRss.toFixed(0)} MiB after ${SETTLE_SECONDS} s at this load (the start), ${endRss.toFixed(0)} MiB at the end (${(growth * 100).toFixed(1)}%), peak ${peakRss.toFixed(0)} MiB`);
  console.log(`Machine after the run: ${machine()}`);
  const missed = [
    ...(result.statuses["5xx"] ? [`${result.statuses["5xx"]} answers were 5xx`] : []),
    ...(result.errors + result.timeouts ? [`${result.errors} connection errors, ${result.timeouts} timeouts`] : []),
    ...(growth >= MAX_MEMORY_GROWTH ? [`memory grew ${(growth * 100).toFixed(1)}% (limit ${MAX_MEMORY_GROWTH * 100}%)`] : []),
  ];
  for (const miss of missed) console.log(`✗ ${miss}`);
  if (missed.length === 0) console.log("✓ No 5xx, no errors, memory growth under 20%.");
  return missed.length === 0;
});
