import type { CoverageRow } from "./coverage";
import type { ReasonKind } from "./reasons";

/** The audit as Markdown: docs/platform/client-coverage.md is exactly this text (client-coverage.test.ts checks it). */

const KIND_LABELS: Record<ReasonKind, string> = {
  offline: "cannot exist offline",
  business: "business solution",
  superseded: "superseded",
  missing: "not yet",
};

const requestText = (request: { method: string; path: string; grant?: string }) =>
  `\`${request.method} ${request.path}\`${request.grant ? ` (grant \`${request.grant}\`)` : ""}`;

function cells(row: CoverageRow): [string, string, string] {
  const paths = row.fn.kind === "event" ? `(webhook event \`${row.fn.eventType}\`)` : row.requests.map(requestText).join("<br>");
  if (row.fn.kind === "event" && row.status === "answered") return [paths, "yes (sent)", ""];
  if (row.status === "answered") return [paths, "yes", ""];
  if (row.status === "no request") return ["(none in this form)", "n/a", ""];
  const why = row.reason ? `${KIND_LABELS[row.reason.kind]}: ${row.reason.why}` : "";
  if (row.status === "event") return [paths, "no", why];
  // Only the requests the platform lacks need naming when a function sends several.
  const missing = row.requests.filter((request) => !request.answered).map(requestText);
  return [paths, row.requests.length > 1 ? `no (${missing.join(", ")})` : "no", why];
}

function summary(rows: CoverageRow[]): string {
  const count = (test: (row: CoverageRow) => boolean) => rows.filter(test).length;
  const answered = count((row) => row.status === "answered");
  const unanswered = rows.filter((row) => row.status === "not answered" || row.status === "event");
  const byKind = (Object.keys(KIND_LABELS) as ReasonKind[])
    .map((kind) => `${unanswered.filter((row) => row.reason?.kind === kind).length} ${KIND_LABELS[kind]}`)
    .join(", ");
  return (
    `${rows.length} functions: ${answered} answered, ` +
    `${unanswered.length} not answered (${byKind}), ${count((row) => row.status === "no request")} that send no request; ` +
    `webhook events included (${count((row) => row.fn.kind === "event" && row.status === "answered")} of ${count((row) => row.fn.kind === "event")} sent).`
  );
}

export function renderCoverage(rows: CoverageRow[], versions: Array<[string, string]>): string {
  const lines = [
    "# What the local platform answers of the installed clients",
    "",
    "Generated from the installed packages by `npx tsx platform/client-coverage/report.ts --write`; do not",
    "edit it by hand (`platform/client-coverage/client-coverage.test.ts` fails when it is out of date, when",
    "a function is neither answered nor given a reason, and when a reason has gone stale). How the walk",
    'works, and how to check another version of the clients: platform/README.md, "What the platform is',
    'faithful to".',
    "",
    "Every function each package exports was called through the real package with the network",
    "replaced by a recorder; the paths below are what it sent (`{id}` stands for an id or a collection",
    "passed in, `{key}` for a field key). A function is answered when the platform has a route for each",
    "of its requests (for a token request, when it answers that grant); a webhook event (an `on…`",
    "function, named with its event type) when the platform sends it to apps registered for webhooks",
    '(docs/platform/webhooks.md). "(none in this form)" marks a',
    "function that works in the process, or that refuses before sending without an option it was not",
    "given (`AppStrategy({instanceId}).elevated` needs an access token). Reasons: *cannot exist offline*",
    "(needs Wix's dashboard, other sites or Wix accounts), *business solution* (Stores, Bookings, Events,",
    "Pricing Plans), *superseded* (an older API whose acts are answered through the newer one named),",
    "*not yet* (belongs with a member site or a headless app on data and members, and is still to do).",
    "",
    "Checked against:",
    "",
    "| Package | Version |",
    "|---|---|",
    ...versions.map(([name, version]) => `| \`${name}\` | ${version} |`),
    "",
    summary(rows),
  ];
  for (const packageName of [...new Set(rows.map((row) => row.fn.packageName))]) {
    lines.push("", `## ${packageName}`, "", "| Function | Method and path | Answered | Why not |", "|---|---|---|---|");
    for (const row of rows.filter((r) => r.fn.packageName === packageName)) {
      const [paths, answered, why] = cells(row);
      lines.push(`| \`${row.fn.module}.${row.fn.name}\` | ${paths} | ${answered} | ${why} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
