import { authentication } from "@wix/identity";
import { createClient, OAuthStrategy } from "@wix/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { getAuthUrl, memberSiteClient, TestBrowser } from "./test-browser";
import { FAILURES_PER_ADDRESS, MAX_FAILURES, PROOFS_PER_SESSION } from "./throttle";

// A platform for each test: the address limit refuses this machine's calls without a token for 15 minutes.
let platform: TestPlatform;
beforeEach(async () => {
  platform = await startTestPlatform();
});
afterEach(() => platform.close());

const PASSWORD = "Granite-ridge-walk-42";
let counter = 0;
const freshEmail = () => `throttled-${Date.now()}-${++counter}@ridgeline.example`;

type Reply = { state?: string; message?: string; details?: { applicationError?: { code?: string; data?: { retryAfterSeconds?: number } } } };

async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", ...(init.token && { authorization: init.token }) },
    body: JSON.stringify(init.body ?? {}),
  });
  return { status: response.status, body: (await response.json()) as Reply };
}

/** The alert of a hosted page, or null: what a failed POST left for its GET. */
const alertOf = (html: string) => /<div class="error" role="alert"[^>]*>([^<]*)<\/div>/.exec(html)?.[1] ?? null;

/** A login as a stranger sends it straight to the API: no token at all. */
const anonymousLogin = (email: string, password: string) => call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password } });

/** A new member and an access token of theirs, as the site holds after a login. */
async function member() {
  const email = freshEmail();
  const registered = await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).register({ email, password: PASSWORD });
  const session = platform.ctx.loginSessions.byToken((registered as { data: { sessionToken: string } }).data.sessionToken)!;
  const { accessToken } = platform.ctx.tokens.issuePair({ role: "member", subjectId: session.memberId, clientId: LOCAL_CLIENT_ID, loginSessionId: session.id });
  return { email, accessToken };
}

describe("failed logins and a member's own proofs", () => {
  it("a stranger's wrong logins leave the member's own factor changes alone; the member's own wrong proofs are still counted", async () => {
    const owner = await member();
    const addApp = (password: string) => call("/_api/iam/factors/v1/factors", { body: { factor: { type: "TOTP" }, password }, token: owner.accessToken });

    // Past the account's limit of failed logins: a login now needs a captcha answer.
    for (let failure = 0; failure < MAX_FAILURES; failure++) expect((await anonymousLogin(owner.email, "not-the-password")).status).toBe(400);
    expect((await anonymousLogin(owner.email, PASSWORD)).body.details?.applicationError?.code).toBe("-19971");

    // The member, with their token and their password, still changes their factors (429 before the fix).
    expect((await addApp(PASSWORD)).status).toBe(200);

    // A thief holding the token is still held back: the session's wrong proofs have their limit.
    for (let failure = 0; failure < PROOFS_PER_SESSION; failure++) expect((await addApp("not-the-password")).status).toBe(403);
    const held = await addApp(PASSWORD);
    expect(held.status).toBe(429);
    expect(held.body.details?.applicationError?.code).toBe("THROTTLED_FEATURE");
  }, 60_000);

  it("an address past its failed logins on any accounts is refused, the right password too; a site's visitor-token logins from it are not", async () => {
    const bystander = await member();
    for (let failure = 0; failure < FAILURES_PER_ADDRESS; failure++) {
      expect((await anonymousLogin(freshEmail(), "not-the-password")).status).toBe(404);
    }
    const refused = await anonymousLogin(bystander.email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.details?.applicationError?.code).toBe("THROTTLED_FEATURE");
    // The window's 15 minutes, from the first failure.
    expect(refused.body.details!.applicationError!.data!.retryAfterSeconds).toBeGreaterThan(800);

    // A site's server logs its visitors in from the same address, with its visitor token: the stranger's limit is not theirs.
    const site = createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) }).authentication;
    expect((await site.loginV2({ email: bystander.email }, { password: PASSWORD })).state).toBe("SUCCESS");
  }, 60_000);

  it("on the hosted login page too, where the browser's address is its own: past its failed log-ins, the right password is refused", async () => {
    const bystander = await member();
    const client = memberSiteClient();
    const { authUrl } = await getAuthUrl(client, client.auth.generateOAuthData(platform.callbackUrl), { responseMode: "query" });
    const browser = new TestBrowser();
    const logIn = async (email: string, password: string) => alertOf((await browser.follow(await browser.submitForm(authUrl, { email, password }))).text);
    for (let failure = 0; failure < FAILURES_PER_ADDRESS; failure++) {
      expect(await logIn(freshEmail(), "not-the-password")).toMatch(/^That e-mail address and password do not match/);
    }
    expect(await logIn(bystander.email, PASSWORD)).toMatch(/^Too many failed log-ins from this network\. Try again in 1[45] minutes\.$/);
  }, 60_000);
});
