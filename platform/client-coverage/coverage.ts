import { TOKEN_GRANTS } from "../oauth/routes";
import { EVENT_REASON, REASONS, type Reason } from "./reasons";
import type { WalkedFunction, WalkedRequest } from "./walk";

/**
 * Which walked functions the platform answers (docs/platform/client-coverage.md): a function is
 * answered when the platform has a route for every request it sends (and, for a token request,
 * answers its grant); otherwise it needs a reason (reasons.ts).
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

export function coverageOf(walked: WalkedFunction[], hasRoute: RouteLookup, reasons: Record<string, Reason> = REASONS): CoverageRow[] {
  return walked.map((fn) => {
    if (fn.kind === "event") return { fn, status: "event", requests: [], reason: reasons[fn.key] ?? EVENT_REASON };
    if (fn.kind === "local") return { fn, status: "no request", requests: [] };
    const requests = fn.requests.map((request) => ({ ...request, answered: hasRoute(request.method, request.path) && answersGrant(request.grant) }));
    const answered = requests.every((request) => request.answered);
    return { fn, status: answered ? "answered" : "not answered", requests, ...(reasons[fn.key] && { reason: reasons[fn.key] }) };
  });
}

/**
 * What makes the audit fail: a function neither answered nor given a reason, a reason for a
 * function that is answered, and a reason for a function the installed packages no longer have.
 */
export function coverageProblems(rows: CoverageRow[], reasons: Record<string, Reason> = REASONS): string[] {
  const problems: string[] = [];
  const keys = new Set(rows.map((row) => row.fn.key));
  for (const row of rows) {
    if (row.status === "not answered" && !row.reason) problems.push(`${row.fn.key} is not answered and has no reason in reasons.ts`);
    if (row.status === "answered" && reasons[row.fn.key]) {
      problems.push(`${row.fn.key} is answered now: remove its reason from reasons.ts`);
    }
  }
  for (const key of Object.keys(reasons)) if (!keys.has(key)) problems.push(`${key} has a reason but the installed packages have no such function`);
  return problems;
}
