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

/** A table cell's text: a `|` would end the cell. */
const cellText = (text: string) => text.replaceAll("|", "\\|");

function cells(row: CoverageRow): [string, string, string] {
  const paths = row.fn.kind === "event" ? `(webhook event \`${row.fn.eventType}\`)` : row.requests.map(requestText).join("<br>");
  const event = row.fn.kind === "event";
  if (row.status === "answered") return [paths, event ? "yes (sent)" : "yes", `\`${row.effect!.file}\` › ${cellText(row.effect!.test)}`];
  if (row.status === "untested") return [paths, event ? "sent, effect not tested" : "answered, effect not tested", ""];
  if (row.status === "no request") return ["(none in this form)", "n/a", ""];
  const why = row.reason ? `${KIND_LABELS[row.reason.kind]}: ${row.reason.why}` : "";
  if (row.status === "event") return [paths, "no", why];
  // Only the requests the platform lacks need naming when a function sends several.
  const missing = row.requests.filter((request) => !request.answered).map(requestText);
  return [paths, row.requests.length > 1 ? `no (${missing.join(", ")})` : "no", why];
}

function summary(rows: CoverageRow[]): string {
  const count = (test: (row: CoverageRow) => boolean) => rows.filter(test).length;
  const unanswered = rows.filter((row) => row.status === "not answered" || row.status === "event");
  const byKind = (Object.keys(KIND_LABELS) as ReasonKind[])
    .map((kind) => `${unanswered.filter((row) => row.reason?.kind === kind).length} ${KIND_LABELS[kind]}`)
    .join(", ");
  const events = (status: CoverageRow["status"]) => count((row) => row.fn.kind === "event" && row.status === status);
  return (
    `${rows.length} functions: ${count((row) => row.status === "answered")} answered (a named test shows the effect), ` +
    `${count((row) => row.status === "untested")} answered, effect not tested, ` +
    `${unanswered.length} not answered (${byKind}), ${count((row) => row.status === "no request")} that send no request; ` +
    `webhook events included (of ${count((row) => row.fn.kind === "event")}, ` +
    `${events("answered")} sent with a test, ${events("untested")} sent, effect not tested).`
  );
}

export function renderCoverage(rows: CoverageRow[], versions: Array<[string, string]>): string {
  const lines = [
    "# What the local platform answers of the installed clients",
    "",
    "Generated from the installed packages by `npx tsx platform/client-coverage/report.ts --write`; do not",
    "edit it by hand (`platform/client-coverage/client-coverage.test.ts` fails when it is out of date, when",
    "a function is neither answered nor given a reason, when a reason has gone stale, and when a test",
    "named below does not call its function). How the walk",
    'works, and how to check another version of the clients: platform/README.md, "What the platform is',
    'faithful to".',
    "",
    "Every function each package exports was called through the real package with the network",
    "replaced by a recorder; the paths below are what it sent (`{id}` stands for an id or a collection",
    "passed in, `{key}` for a field key). The platform reaches a function when it has a route for each",
    "of its requests (for a token request, when it answers that grant), and a webhook event (an `on…`",
    "function, named with its event type) when it sends it to apps registered for webhooks",
    "(docs/platform/webhooks.md). Reaching is not doing: a function counts as answered only when the",
    "last column names a test, run against a real platform, that calls it through the installed client",
    "(for an event, that asserts on what the installed client's handler received) and shows its effect",
    "(`platform/client-coverage/effects.ts`; the check is in `effect-check.ts`). A function the platform",
    'reaches with no such test reads "answered, effect not tested". "(none in this form)" marks a',
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
    lines.push("", `## ${packageName}`, "", "| Function | Method and path | Answered | Effect shown by, or why not |", "|---|---|---|---|");
    for (const row of rows.filter((r) => r.fn.packageName === packageName)) {
      const [paths, answered, note] = cells(row);
      lines.push(`| \`${row.fn.module}.${row.fn.name}\` | ${paths} | ${answered} | ${note} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
