import { TOKEN_GRANTS } from "../oauth/routes";
import { DELIVERED_EVENTS } from "../webhooks/events";
import { REASONS, type Reason } from "./reasons";
import type { WalkedFunction, WalkedRequest } from "./walk";

/**
 * Which walked functions the platform answers (docs/platform/client-coverage.md): a function is
 * answered when the platform has a route for every request it sends (and, for a token request,
 * answers its grant), and a webhook event when the platform sends it (webhooks/events.ts);
 * otherwise it needs a reason (reasons.ts).
 */

/** Whether the platform has a route for a method and a concrete path. */
export type RouteLookup = (method: string, path: string) => boolean;

export type CoverageRow = {
  fn: WalkedFunction;
  status: "answered" | "not answered" | "event" | "no request";
  requests: Array<WalkedRequest & { answered: boolean }>;
  reason?: Reason;
};

const answersGrant = (grant: string | undefined) => grant === undefined || (TOKEN_GRANTS as readonly string[]).includes(grant);

/** Webhook events the platform sends: the package function's key and the event type it is sent as. */
export type DeliveredEvents = Record<string, string>;

export function coverageOf(
  walked: WalkedFunction[],
  hasRoute: RouteLookup,
  reasons: Record<string, Reason> = REASONS,
  delivered: DeliveredEvents = DELIVERED_EVENTS,
): CoverageRow[] {
  return walked.map((fn) => {
    if (fn.kind === "event") {
      const reason = reasons[fn.key] && { reason: reasons[fn.key] };
      return { fn, status: delivered[fn.key] ? "answered" : "event", requests: [], ...reason };
    }
    if (fn.kind === "local") return { fn, status: "no request", requests: [] };
    const requests = fn.requests.map((request) => ({ ...request, answered: hasRoute(request.method, request.path) && answersGrant(request.grant) }));
    const answered = requests.every((request) => request.answered);
    return { fn, status: answered ? "answered" : "not answered", requests, ...(reasons[fn.key] && { reason: reasons[fn.key] }) };
  });
}

/**
 * What makes the audit fail: a function or event neither answered nor given a reason, a reason for
 * a function that is answered, a reason for a function the installed packages no longer have, and
 * an event sent under another type than the installed package listens for (or that it no longer has).
 */
export function coverageProblems(rows: CoverageRow[], reasons: Record<string, Reason> = REASONS, delivered: DeliveredEvents = DELIVERED_EVENTS): string[] {
  const problems: string[] = [];
  const keys = new Set(rows.map((row) => row.fn.key));
  for (const row of rows) {
    if ((row.status === "not answered" || row.status === "event") && !row.reason)
      problems.push(`${row.fn.key} is not answered and has no reason in reasons.ts`);
    const sentAs = delivered[row.fn.key];
    if (sentAs && sentAs !== row.fn.eventType) problems.push(`${row.fn.key} is sent as ${sentAs} but the installed package listens for ${row.fn.eventType}`);
    if (row.status === "answered" && reasons[row.fn.key]) {
      problems.push(`${row.fn.key} is answered now: remove its reason from reasons.ts`);
    }
  }
  for (const key of Object.keys(reasons)) if (!keys.has(key)) problems.push(`${key} has a reason but the installed packages have no such function`);
  for (const key of Object.keys(delivered)) if (!keys.has(key)) problems.push(`${key} is sent but the installed packages have no such event`);
  return problems;
}
