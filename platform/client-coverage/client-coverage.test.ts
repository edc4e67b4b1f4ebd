import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { coverageOf, coverageProblems } from "./coverage";
import type { Reason } from "./reasons";
import { auditClients, COVERAGE_DOC } from "./report";
import type { WalkedFunction } from "./walk";

/** The audit of every installed client function (docs/platform/client-coverage.md). */

const fn = (name: string, requests: WalkedFunction["requests"], kind: WalkedFunction["kind"] = "requests"): WalkedFunction => ({
  key: `@wix/x m.${name}`,
  packageName: "@wix/x",
  module: "m",
  name,
  kind,
  requests,
});

describe("the decisions, with stand-in routes", () => {
  const routes = new Set(["GET /answered", "POST /oauth2/token"]);
  const hasRoute = (method: string, path: string) => routes.has(`${method} ${path}`);
  const missing: Reason = { kind: "missing", why: "later" };

  it("answers a function only when every request it sends has a route, and a token request only for a grant the platform answers", () => {
    const rows = coverageOf(
      [
        fn("whole", [{ method: "GET", path: "/answered" }]),
        fn("half", [
          { method: "GET", path: "/answered" },
          { method: "POST", path: "/absent" },
        ]),
        fn("grant", [{ method: "POST", path: "/oauth2/token", grant: "anonymous" }]),
        fn("otherGrant", [{ method: "POST", path: "/oauth2/token", grant: "strip_bound_session" }]),
        fn("helper", [], "local"),
      ],
      hasRoute,
      {},
      {},
    );
    expect(rows.map((row) => row.status)).toEqual(["answered", "not answered", "answered", "not answered", "no request"]);
  });

  it("fails on a function neither answered nor explained, on a stale reason and on a reason for a function no longer installed", () => {
    const walked = [fn("answered", [{ method: "GET", path: "/answered" }]), fn("unexplained", [{ method: "GET", path: "/x" }])];
    const reasons = { "@wix/x m.answered": missing, "@wix/x m.gone": missing };
    expect(coverageProblems(coverageOf(walked, hasRoute, reasons, {}), reasons, {})).toEqual([
      "@wix/x m.answered is answered now: remove its reason from reasons.ts",
      "@wix/x m.unexplained is not answered and has no reason in reasons.ts",
      "@wix/x m.gone has a reason but the installed packages have no such function",
    ]);
  });

  it("answers a webhook event the platform sends under the installed type, and fails on one sent under another or not explained", () => {
    const event = (name: string, eventType: string): WalkedFunction => ({ ...fn(name, [], "event"), eventType });
    const walked = [event("onSent", "x.v1.thing_created"), event("onRenamed", "x.v2.thing_updated"), event("onKept", "x.v1.thing_deleted")];
    const delivered = { "@wix/x m.onSent": "x.v1.thing_created", "@wix/x m.onRenamed": "x.v1.thing_updated", "@wix/x m.onGone": "x.v1.gone" };
    const rows = coverageOf(walked, hasRoute, {}, delivered);
    expect(rows.map((row) => row.status)).toEqual(["answered", "answered", "event"]);
    expect(coverageProblems(rows, {}, delivered)).toEqual([
      "@wix/x m.onRenamed is sent as x.v1.thing_updated but the installed package listens for x.v2.thing_updated",
      "@wix/x m.onKept is not answered and has no reason in reasons.ts",
      "@wix/x m.onGone is sent but the installed packages have no such event",
    ]);
  });
});

describe("the installed clients against a real platform", () => {
  it("leaves no installed function unexplained, and the page says what the audit finds", async () => {
    const { problems, markdown, rows, versions } = await auditClients();
    expect(problems).toEqual([]);
    // The walk reaches the wire for the functions the site relies on.
    const answered = new Set(rows.filter((row) => row.status === "answered").map((row) => row.fn.key));
    for (const key of [
      "@wix/data items.query",
      "@wix/members members.getCurrentMember",
      "@wix/sdk OAuthStrategy.login",
      "@wix/sdk AppStrategy({instanceId}).getAuthHeaders",
      "@wix/data items.onDataItemCreated",
      "@wix/members members.onMemberDeleted",
    ]) {
      expect(answered).toContain(key);
    }
    expect(fs.readFileSync(COVERAGE_DOC, "utf8"), "run `npx tsx platform/client-coverage/report.ts --write`").toBe(markdown);
    // platform/README.md names the versions the table was checked against.
    const readme = fs.readFileSync(new URL("../README.md", import.meta.url), "utf8");
    for (const [name, version] of versions) expect(readme).toContain(`| \`${name}\` | ${version} |`);
  });
});
