import { readFileSync } from "node:fs";
import net from "node:net";
import { expect, test } from "./test";
import { e2e } from "../playwright.config";
import { hydrated } from "./hydration";
import { rawRequest } from "./http";
import { setPlatformSettings } from "./platform";
import { STRONG_PASSWORD, logInWithForm, newEmail } from "./site-pages";

/**
 * Stale and malformed server-action requests against the production build: each gets a 4xx
 * and a plain answer, never a 500 or a stack trace (docs/security.md, "Bad server-action
 * requests"). What React's decoder cannot read is tested case by case in tests/action-reply.test.ts.
 */

/** The id of one of this build's actions, from the manifest Next.js wrote. */
function actionIdOf(exportedName: string): string {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
    node: Record<string, { exportedName?: string }>;
  };
  return Object.entries(manifest.node).find(([, action]) => action.exportedName === exportedName)![0];
}

/** One of this build's actions: the requests below fail before it runs. */
const ACTION = actionIdOf("rsvpAction");
/** A form action: `useActionState` calls it with the previous state and the form's data. */
const LOG_IN = actionIdOf("logInAction");
/** Well-formed, and no action of this build: what a page loaded before a deploy names. */
const STALE = "40" + "ab".repeat(20);
const BOUNDARY = "----formBoundary7MA4YWxk";
const multipart = (fields: [string, string][], end = true) =>
  fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("") +
  (end ? `--${BOUNDARY}--\r\n` : "");
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const ORIGIN = { origin: e2e.siteUrl };
/** A script's call, as React's client sends it. */
const call = (id: string, body: string, type: string | null = "text/plain;charset=UTF-8") => ({
  path: "/trails",
  headers: { ...ORIGIN, "next-action": id, accept: "text/x-component", ...(type && { "content-type": type }) },
  body,
});
/** A form sent without JavaScript, as the browser posts a server action's form. */
const form = (path: string, fields: [string, string][], end = true) => ({
  path,
  headers: { ...ORIGIN, accept: "text/html", "content-type": MULTIPART },
  body: multipart(fields, end),
});

type Case = { path: string; headers: Record<string, string>; body: string };
const withHeaders = (request: Case, headers: Record<string, string>): Case => ({ ...request, headers: { ...request.headers, ...headers } });
const cases: [string, Case, number][] = [
  ["a call to an action this build lacks", call(STALE, "[]"), 409],
  ["a call to an action this build lacks, on a path with no page", { ...call(STALE, "[]"), path: "/no-such-page" }, 409],
  ["a Next-Action that is no id", call("not-an-id", "[]"), 400],
  ["an empty Next-Action", call("", "[]"), 400],
  ["a Next-Action of the wrong length", call("ab".repeat(20), "[]"), 400],
  ["a call with an empty body", call(ACTION, ""), 400],
  ["a call sent as JSON", call(ACTION, "[]", "application/json"), 400],
  ["a call without a content type", call(ACTION, "[]", null), 400],
  ["a call sent urlencoded", call(ACTION, "a=1", "application/x-www-form-urlencoded"), 400],
  ["arguments that are not JSON", call(ACTION, '["$K1",{"a":'), 400],
  ["arguments that are no list", call(ACTION, '"hello"'), 400],
  ["1,001 arguments", call(ACTION, JSON.stringify(Array(1001).fill(0))), 400],
  ["arguments nested 5,000 deep", call(ACTION, "[".repeat(5000) + "]".repeat(5000)), 400],
  ["arguments naming a part the body lacks", call(ACTION, '["$Q1"]'), 400],
  ["a BigInt that is no number", call(ACTION, '["$nxyz"]'), 400],
  ["a multipart call without a boundary", call(ACTION, multipart([["0", "[]"]]), "multipart/form-data"), 400],
  ["a multipart call under another boundary", call(ACTION, multipart([["0", "[]"]]), "multipart/form-data; boundary=other"), 400],
  ["a multipart call cut short", call(ACTION, multipart([["0", "[]"]], false), MULTIPART), 400],
  ["a multipart call without its root part", call(ACTION, multipart([["1", "[]"]]), MULTIPART), 400],
  [
    "a multipart call naming a part before it comes",
    call(
      ACTION,
      multipart([
        ["0", '["$Q1"]'],
        ["1", "[]"],
      ]),
      MULTIPART,
    ),
    400,
  ],
  [
    "a multipart call passing a server function of another build",
    call(
      ACTION,
      multipart([
        ["1", `{"id":"${STALE}","bound":null}`],
        ["0", '["$h1"]'],
      ]),
      MULTIPART,
    ),
    400,
  ],
  [
    "a multipart call making a Map of a list whose entries are not pairs",
    call(
      ACTION,
      multipart([
        ["1", "[1,2]"],
        ["0", '["$Q1"]'],
      ]),
      MULTIPART,
    ),
    400,
  ],
  ["a call passing the root as a stream", call(ACTION, '["$R0"]'), 400],
  ["a call passing one stream twice", call(ACTION, '["$R1","$R1"]'), 400],
  [
    "a multipart call with a part twice",
    call(
      ACTION,
      multipart([
        ["1", "[]"],
        ["0", '["$1"]'],
        ["1", "[]"],
      ]),
      MULTIPART,
    ),
    400,
  ],
  [
    "a multipart call with chunks for a part that is no stream",
    call(
      ACTION,
      multipart([
        ["1", "[]"],
        ["0", '["$1"]'],
        ["S1", "1"],
      ]),
      MULTIPART,
    ),
    400,
  ],
  ["a call of a form action with other arguments than a state and a form", { ...call(LOG_IN, '["$undefined",5]'), path: "/login" }, 400],
  [
    "a form naming a form action without its state bound",
    form("/login", [
      [`$ACTION_ID_${LOG_IN}`, ""],
      ["email", "a@b.c"],
    ]),
    400,
  ],
  ["a 2 MB call", call(ACTION, JSON.stringify(["x".repeat(2 * 1024 * 1024)])), 413],
  ["a call to a route handler", { ...call(STALE, "[]"), path: "/api/health" }, 405],
  [
    "a form naming an action this build lacks",
    form("/login", [
      [`$ACTION_ID_${STALE}`, ""],
      ["email", "a@b.c"],
    ]),
    409,
  ],
  ["a form naming its action by something that is no id", form("/login", [["$ACTION_ID_bogus", ""]]), 400],
  [
    "a form whose bound action is not JSON",
    form("/login", [
      ["$ACTION_REF_1", ""],
      ["$ACTION_1:0", "{not json"],
    ]),
    400,
  ],
  [
    "a form whose bound arguments are missing",
    form("/login", [
      ["$ACTION_REF_1", ""],
      ["$ACTION_1:0", `{"id":"${ACTION}","bound":"$@1"}`],
    ]),
    400,
  ],
  ["a multipart post naming no action", form("/login", [["email", "a@b.c"]]), 400],
  ["an empty multipart post", { ...form("/login", []), body: "" }, 400],
  ["a multipart post cut short", form("/login", [[`$ACTION_ID_${ACTION}`, ""]], false), 400],
  ["a call addressed to another host", withHeaders(call(ACTION, "[]"), { host: "evil.example" }), 400],
  ["a call forwarded for another host", withHeaders(call(ACTION, "[]"), { "x-forwarded-host": "evil.example" }), 400],
  ["a form addressed to another host", withHeaders(form("/login", [[`$ACTION_ID_${STALE}`, ""]]), { host: "evil.example" }), 400],
  ["a call from another site", withHeaders(call(ACTION, "[]"), { origin: "https://evil.example" }), 403],
  ["a call from an opaque origin", withHeaders(call(ACTION, "[]"), { origin: "null" }), 403],
  ["a call without an Origin", { ...call(ACTION, "[]"), headers: { "next-action": ACTION, "content-type": "text/plain;charset=UTF-8" } }, 403],
];

for (const [name, request, status] of cases) {
  test(`${name}: ${status}`, async () => {
    const answer = await rawRequest(`${e2e.siteUrl}${request.path}`, { method: "POST", headers: request.headers, body: request.body });
    expect(answer.status).toBe(status);
    expect(answer.body).not.toMatch(/\n\s+at \S|Error:/);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    // Next.js's own answer to an unknown action carries the marker its client reads.
    if (status === 409 && request.headers["next-action"]) expect(answer.headers["x-nextjs-action-not-found"]).toBe("1");
  });
}

test("a stale form's page is the site's, with its security policy and a link back to the page it came from", async () => {
  const stale = form("/login", [[`$ACTION_ID_${STALE}`, ""]]);
  const fromOurPage = await rawRequest(`${e2e.siteUrl}/login`, {
    method: "POST",
    ...withHeaders(stale, { referer: `${e2e.siteUrl}/login?returnTo=%2Faccount` }),
  });
  expect(fromOurPage.status).toBe(409);
  expect(fromOurPage.headers["content-type"]).toContain("text/html");
  expect(fromOurPage.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(fromOurPage.headers["cache-control"]).toContain("no-store");
  expect(fromOurPage.body).toContain("This page was updated");
  expect(fromOurPage.body).toContain('href="/login?returnTo=%2Faccount"');

  const fromElsewhere = await rawRequest(`${e2e.siteUrl}/login`, { method: "POST", ...withHeaders(stale, { referer: "https://evil.example/login" }) });
  expect(fromElsewhere.status).toBe(409);
  expect(fromElsewhere.body).toMatch(/<a href="\/" [^>]*>Back to the page/);
});

test("a path that does not decode is 400 for any method, not Next.js's 500", async () => {
  for (const init of [{ method: "GET" }, { method: "POST", ...call(ACTION, "[]") }]) {
    const answer = await rawRequest(`${e2e.siteUrl}/trails/%E0%A4%A`, init);
    expect(answer.status, init.method).toBe(400);
    expect(answer.body).not.toMatch(/\n\s+at \S|Error:/);
  }
});

test("a urlencoded post to a page is no action for Next.js: the page, as for a GET", async () => {
  const answer = await rawRequest(`${e2e.siteUrl}/login`, {
    method: "POST",
    headers: { ...ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: `${encodeURIComponent(`$ACTION_ID_${STALE}`)}=&email=a`,
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toContain("Log in");
});

test("with JavaScript, a form whose action this build lacks says the page was updated and reloads it", async ({ page }) => {
  await page.goto("/login");
  // The page was loaded before a deploy: its form names an action the server no longer has.
  await page.route("**/login", (route) =>
    route.request().method() === "POST" ? route.continue({ headers: { ...route.request().headers(), "next-action": STALE } }) : route.continue(),
  );
  await (await hydrated(page.getByRole("button", { name: "Log in" }))).isVisible();
  await page.getByLabel("E-mail").fill("demo@ridgeline.example");
  await page.getByLabel("Password", { exact: true }).fill("ridgeline-demo");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert").getByRole("heading", { name: "This page was updated" })).toBeVisible();
  await page.unroute("**/login");
  await page.getByRole("button", { name: "Reload the page" }).click();
  await expect(page.getByLabel("E-mail")).toHaveValue("");
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
});

/**
 * An action posted to a page that lacks it: Next.js passes it on over HTTP to a page that has it,
 * a second request that needs a render slot while the first holds one (docs/security.md,
 * "Requests made on behalf of another"). Before the fix, eight of these held open took every slot
 * and waited forever for their own second requests: nothing else was rendered until they closed.
 */
for (const burst of [8, 16, 64]) {
  test(`${burst} actions posted to pages that lack them, with and without a body and held open, leave a member's pages answering`, async ({ page }) => {
    test.setTimeout(90_000);
    await logInWithForm(page);
    const { port } = new URL(e2e.siteUrl);
    const forgotPassword = actionIdOf("forgotPasswordAction");
    const head = (path: string) =>
      `POST ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: ${e2e.siteUrl}\r\n` +
      `Next-Action: ${forgotPassword}\r\nContent-Type: text/plain;charset=UTF-8\r\n`;
    const bodies = ['Content-Length: 12\r\n\r\n[null,"$K1"]', "\r\n"];
    const held = Array.from({ length: burst }, (_, index) =>
      bodies.map((body) => {
        const socket = net.connect(Number(port), "127.0.0.1");
        socket.on("error", () => undefined);
        socket.write(head(["/", "/trails", "/members"][index % 3]) + body);
        return socket;
      }),
    ).flat();
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const answers = await Promise.all(
        ["/account", "/trails/mirror-lakes", "/login"].map(async (path) => {
          const started = Date.now();
          const response = await page.request.get(`${e2e.siteUrl}${path}`, { maxRedirects: 0, timeout: 15_000 });
          return { path, status: response.status(), ms: Date.now() - started };
        }),
      );
      expect(answers.map(({ path, status }) => `${path} ${status}`)).toEqual(["/account 200", "/trails/mirror-lakes 200", "/login 307"]);
      for (const { path, ms } of answers) expect(ms, path).toBeLessThan(5_000);
      // Nobody closed them: the server answered each and kept the connection.
      expect(held.filter((socket) => socket.destroyed)).toHaveLength(0);
    } finally {
      held.forEach((socket) => socket.destroy());
    }
  });
}

/**
 * The same deadlock from legitimate forms: a sign-up with JavaScript whose action sends the person
 * on to `/verify` has Next.js fetch that page from this server while the sign-up holds its slot.
 * Before the fix, eight at once were never answered, and neither was anything else.
 */
test("10 sign-ups with JavaScript at once, each sent on to /verify, are all answered, and so is /login meanwhile", async ({ visitorAddress }) => {
  test.setTimeout(90_000);
  await setPlatformSettings({ requireEmailVerification: true });
  try {
    const signUp = async (index: number) => {
      // The form's data after the previous state, as React's client encodes a form action's call.
      const body = new FormData();
      const fields = { email: newEmail(`burst-${index}`), password: STRONG_PASSWORD, firstName: "Robin", lastName: "Alder", nickname: `Robin ${index}` };
      for (const [name, value] of Object.entries(fields)) body.append(`_1_${name}`, value);
      body.append("0", '[null,"$K1"]');
      const headers = { ...ORIGIN, "next-action": actionIdOf("registerAction"), accept: "text/x-component", "x-forwarded-for": visitorAddress };
      const response = await fetch(`${e2e.siteUrl}/register`, { method: "POST", body, headers, signal: AbortSignal.timeout(20_000) });
      await response.text();
      return `${response.status} ${response.headers.get("x-action-redirect")}`;
    };
    const signUps = Promise.all(Array.from({ length: 10 }, (_, index) => signUp(index)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const login = await fetch(`${e2e.siteUrl}/login`, { signal: AbortSignal.timeout(15_000) });
    expect(login.status).toBe(200);
    // Each in 20 s at most (they take seconds on a loaded machine); before the fix, none was answered.
    expect(await signUps).toEqual(Array(10).fill("200 /verify;push"));
  } finally {
    await setPlatformSettings({ requireEmailVerification: false });
  }
});
