import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { coverageOf, coverageProblems } from "./coverage";
import type { EffectTest } from "./effect-check";
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
  const shown: EffectTest = { file: "x.test.ts", test: "shows it" };
  // A test file as effect-check.ts reads it: the named test calls each function, and asserts on each event's handler.
  const testSource = [
    'app.m.onSent(record("sent"));',
    'app.m.onRenamed(record("renamed"));',
    'it("shows it", async () => {',
    "  expect(await client.m.whole()).toEqual(1);",
    "  await client.m.grant();",
    '  expect(received).toEqual(["sent", "renamed"]);',
    "});",
    'it("calls nothing", () => {});',
  ].join("\n");

  it("counts a reached function as answered only when a named test shows its effect, and checks that test", () => {
    const walked = [
      fn("whole", [{ method: "GET", path: "/answered" }]),
      fn("grant", [{ method: "POST", path: "/oauth2/token", grant: "anonymous" }]),
      fn("untested", [{ method: "GET", path: "/answered" }]),
      fn("wrongTest", [{ method: "GET", path: "/answered" }]),
      fn("noSuchTest", [{ method: "GET", path: "/answered" }]),
      fn("noFile", [{ method: "GET", path: "/answered" }]),
      fn("absent", [{ method: "GET", path: "/absent" }]),
    ];
    const effects: Record<string, EffectTest> = {
      "@wix/x m.whole": shown,
      "@wix/x m.grant": shown,
      "@wix/x m.wrongTest": { file: "x.test.ts", test: "calls nothing" },
      "@wix/x m.noSuchTest": { file: "x.test.ts", test: "is not there" },
      "@wix/x m.noFile": { file: "gone.test.ts", test: "shows it" },
      "@wix/x m.absent": shown,
      "@wix/x m.uninstalled": shown,
    };
    const reasons = { "@wix/x m.absent": missing };
    const rows = coverageOf(walked, hasRoute, reasons, {}, effects);
    expect(rows.map((row) => row.status)).toEqual(["answered", "answered", "untested", "answered", "answered", "answered", "not answered"]);
    const read = (file: string) => (file === "x.test.ts" ? testSource : null);
    expect(coverageProblems(rows, reasons, {}, effects, read)).toEqual([
      '@wix/x m.wrongTest: x.test.ts › "calls nothing" does not call wrongTest',
      '@wix/x m.noSuchTest: x.test.ts has no test "is not there"',
      "@wix/x m.noFile: its effect test's file gone.test.ts does not exist",
      "@wix/x m.absent has an effect test in effects.ts but the platform does not answer it",
      "@wix/x m.uninstalled has an effect test but the installed packages have no such function",
    ]);
  });

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
      { "@wix/x m.whole": shown, "@wix/x m.grant": shown },
    );
    expect(rows.map((row) => row.status)).toEqual(["answered", "not answered", "answered", "not answered", "no request"]);
  });

  it("fails on a function neither answered nor explained, on a stale reason and on a reason for a function no longer installed", () => {
    const walked = [fn("answered", [{ method: "GET", path: "/answered" }]), fn("unexplained", [{ method: "GET", path: "/x" }])];
    const reasons = { "@wix/x m.answered": missing, "@wix/x m.gone": missing };
    expect(coverageProblems(coverageOf(walked, hasRoute, reasons, {}, {}), reasons, {}, {})).toEqual([
      "@wix/x m.answered is answered now: remove its reason from reasons.ts",
      "@wix/x m.unexplained is not answered and has no reason in reasons.ts",
      "@wix/x m.gone has a reason but the installed packages have no such function",
    ]);
  });

  it("answers a webhook event the platform sends under the installed type, and fails on one sent under another or not explained", () => {
    const event = (name: string, eventType: string): WalkedFunction => ({ ...fn(name, [], "event"), eventType });
    const walked = [event("onSent", "x.v1.thing_created"), event("onRenamed", "x.v2.thing_updated"), event("onKept", "x.v1.thing_deleted")];
    const delivered = { "@wix/x m.onSent": "x.v1.thing_created", "@wix/x m.onRenamed": "x.v1.thing_updated", "@wix/x m.onGone": "x.v1.gone" };
    const effects = { "@wix/x m.onSent": shown, "@wix/x m.onRenamed": shown };
    const rows = coverageOf(walked, hasRoute, {}, delivered, effects);
    expect(rows.map((row) => row.status)).toEqual(["answered", "answered", "event"]);
    expect(coverageProblems(rows, {}, delivered, effects, () => testSource)).toEqual([
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
    // The effects fixed for issue 37 each name the test that fails without them.
    for (const key of [
      "@wix/members memberToMemberBlock.blockMember",
      "@wix/members members.deleteMemberEmails",
      "@wix/data collections.deleteDataCollectionField",
      "@wix/identity oauth.tokenInfo",
      "@wix/identity oauth.jwks",
    ]) {
      expect(answered).toContain(key);
    }
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
