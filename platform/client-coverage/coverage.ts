import { TOKEN_GRANTS } from "../oauth/routes";
import { DELIVERED_EVENTS } from "../webhooks/events";
import { effectTestProblem, readTestFile, type EffectTest } from "./effect-check";
import { EFFECT_TESTS } from "./effects";
import { REASONS, type Reason } from "./reasons";
import type { WalkedFunction, WalkedRequest } from "./walk";

/**
 * Which walked functions the platform answers (docs/platform/client-coverage.md). The platform
 * reaches a function when it has a route for every request the function sends (and, for a token
 * request, answers its grant), and a webhook event when it sends it (webhooks/events.ts). A reached
 * function is answered when a named test shows its effect through the installed client
 * (effects.ts), and "untested" (answered, effect not tested) otherwise; a function not reached
 * needs a reason (reasons.ts).
 */

/** Whether the platform has a route for a method and a concrete path. */
export type RouteLookup = (method: string, path: string) => boolean;

export type CoverageRow = {
  fn: WalkedFunction;
  status: "answered" | "untested" | "not answered" | "event" | "no request";
  requests: Array<WalkedRequest & { answered: boolean }>;
  reason?: Reason;
  /** The test that shows the effect, for an answered function. */
  effect?: EffectTest;
};

const answersGrant = (grant: string | undefined) => grant === undefined || (TOKEN_GRANTS as readonly string[]).includes(grant);

/** Webhook events the platform sends: the package function's key and the event type it is sent as. */
export type DeliveredEvents = Record<string, string>;

export function coverageOf(
  walked: WalkedFunction[],
  hasRoute: RouteLookup,
  reasons: Record<string, Reason> = REASONS,
  delivered: DeliveredEvents = DELIVERED_EVENTS,
  effects: Record<string, EffectTest> = EFFECT_TESTS,
): CoverageRow[] {
  return walked.map((fn): CoverageRow => {
    const reason = reasons[fn.key] && { reason: reasons[fn.key] };
    const reached = (requests: CoverageRow["requests"]): CoverageRow =>
      effects[fn.key] ? { fn, status: "answered", requests, effect: effects[fn.key], ...reason } : { fn, status: "untested", requests, ...reason };
    if (fn.kind === "event") return delivered[fn.key] ? reached([]) : { fn, status: "event", requests: [], ...reason };
    if (fn.kind === "local") return { fn, status: "no request", requests: [] };
    const requests = fn.requests.map((request) => ({ ...request, answered: hasRoute(request.method, request.path) && answersGrant(request.grant) }));
    return requests.every((request) => request.answered) ? reached(requests) : { fn, status: "not answered", requests, ...reason };
  });
}

/**
 * What makes the audit fail: a function or event neither answered nor given a reason, a reason for
 * a function that is answered, a reason for a function the installed packages no longer have, an
 * event sent under another type than the installed package listens for (or that it no longer has),
 * and an effect test that is named for a function the platform does not answer or no longer
 * installed, or that does not show the function (effect-check.ts).
 */
export function coverageProblems(
  rows: CoverageRow[],
  reasons: Record<string, Reason> = REASONS,
  delivered: DeliveredEvents = DELIVERED_EVENTS,
  effects: Record<string, EffectTest> = EFFECT_TESTS,
  readTest: (file: string) => string | null = readTestFile,
): string[] {
  const problems: string[] = [];
  const keys = new Set(rows.map((row) => row.fn.key));
  for (const row of rows) {
    if ((row.status === "not answered" || row.status === "event") && !row.reason)
      problems.push(`${row.fn.key} is not answered and has no reason in reasons.ts`);
    const sentAs = delivered[row.fn.key];
    if (sentAs && sentAs !== row.fn.eventType) problems.push(`${row.fn.key} is sent as ${sentAs} but the installed package listens for ${row.fn.eventType}`);
    if ((row.status === "answered" || row.status === "untested") && reasons[row.fn.key]) {
      problems.push(`${row.fn.key} is answered now: remove its reason from reasons.ts`);
    }
    const effect = effects[row.fn.key];
    if (effect && row.status !== "answered") problems.push(`${row.fn.key} has an effect test in effects.ts but the platform does not answer it`);
    const effectProblem = effect && row.status === "answered" && effectTestProblem(row.fn, effect, readTest(effect.file));
    if (effectProblem) problems.push(effectProblem);
  }
  for (const key of Object.keys(reasons)) if (!keys.has(key)) problems.push(`${key} has a reason but the installed packages have no such function`);
  for (const key of Object.keys(delivered)) if (!keys.has(key)) problems.push(`${key} is sent but the installed packages have no such event`);
  for (const key of Object.keys(effects)) if (!keys.has(key)) problems.push(`${key} has an effect test but the installed packages have no such function`);
  return problems;
}
