import { OAuthStrategy } from "@wix/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_CAPTCHA_TOKEN, LOCAL_CLIENT_ID } from "@ridgeline/platform-contract";
import { getAuthUrl, memberSiteClient, signInThroughHostedPage, TestBrowser } from "@/platform/identity/test-browser";
import { MAILS_PER_HOUR, MAX_FAILURES } from "@/platform/identity/throttle";
import { MEMBERS_OUTINGS } from "@/platform/seed/demo-content";
import { openSignUp, startTestPlatform, type TestPlatform } from "@/platform/testing";

/**
 * The black-box attacks on the local platform (issue 19), each run and refused: reset-link
 * poisoning through Host, old reset links, verification-code floods, existence leaks in bulk
 * saves and sign-ups, forged logout links, lockout as a weapon, and file URLs that needed the
 * admin key instead of being capabilities.
 */

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());
beforeEach(() => openSignUp(platform));

let counter = 0;
const freshEmail = () => `attack-${Date.now()}-${++counter}@ridgeline.example`;
const PASSWORD = "Granite-ridge-walk-42";
const strategy = () => OAuthStrategy({ clientId: LOCAL_CLIENT_ID });
const errorCode = (result: unknown) => JSON.parse((result as { error: string }).error).details.applicationError.code as string;

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  platform.app.inject({ method: "POST", url: path, headers: { "content-type": "application/json", ...headers }, payload: JSON.stringify(body) });

async function register(email = freshEmail()) {
  await strategy().register({ email, password: PASSWORD });
  return email;
}

describe("links in mails and redirect sessions", () => {
  it("come from configuration, never from the request's Host", async () => {
    const email = await register();
    const asked = await postJson("/_api/iam/recovery/v1/send-email", { email }, { host: "evil.example:4800", "x-forwarded-host": "evil.example" });
    expect(asked.statusCode).toBe(200);
    const [mail] = platform.ctx.outbox.list(email);
    expect(mail.link!.startsWith(`${platform.url}/hosted/reset?token=`)).toBe(true);
    expect(mail.text).not.toContain("evil.example");

    const session = await postJson("/_api/redirects-api/v1/redirect-session", { login: {} }, { host: "evil.example:4800" });
    expect(session.json().redirectSession.fullUrl.startsWith(`${platform.url}/hosted/login?rs=`)).toBe(true);
  });
});

describe("password reset links", () => {
  it("all stop working once one of them sets a password", async () => {
    const email = await register();
    for (let i = 0; i < 3; i++) await postJson("/_api/iam/recovery/v1/send-email", { email });
    const tokens = platform.ctx.outbox.list(email).map((mail) => mail.recoveryToken!);
    expect(tokens).toHaveLength(3);
    const used = await postJson("/_api/iam/recovery/v1/recover", { recoveryToken: tokens[0], password: "Another-ridge-walk-43" });
    expect(used.statusCode).toBe(200);
    for (const token of tokens.slice(1)) {
      const old = await postJson("/_api/iam/recovery/v1/recover", { recoveryToken: token, password: "Attacker-chosen-pass-44" });
      expect(old.statusCode).toBe(400);
      expect(old.json().details.applicationError.code).toBe("INVALID_RECOVERY_TOKEN");
    }
    expect((await strategy().login({ email, password: "Another-ridge-walk-43" })).loginState).toBe("SUCCESS");
  });
});

describe("verification codes", () => {
  it("are mailed a few times an hour per identity, however many logins ask; later logins continue with the last code", async () => {
    platform.ctx.settings.update({ requireEmailVerification: true });
    const email = freshEmail();
    const registered = await strategy().register({ email, password: PASSWORD });
    expect(registered.loginState).toBe("EMAIL_VERIFICATION_REQUIRED");
    let last: unknown;
    for (let i = 0; i < 20; i++) last = await strategy().login({ email, password: PASSWORD });
    const codes = platform.ctx.outbox.list(email).filter((mail) => mail.kind === "verification");
    expect(codes.length).toBe(MAILS_PER_HOUR);
    expect((last as { loginState: string }).loginState).toBe("EMAIL_VERIFICATION_REQUIRED");
    const stateToken = (last as { data: { stateToken: string } }).data.stateToken;
    const newest = codes.reduce((a, b) => (a.sentAt >= b.sentAt ? a : b));
    const verified = await postJson("/_api/iam/verification/v1/auth/verify", { code: newest.code, stateToken });
    expect(verified.json().state).toBe("SUCCESS");
  });
});

describe("sign-up with an address that has an account", () => {
  it("mails its owner, on the API and on the hosted page, and the hosted page answers as for a new address", async () => {
    const email = await register();
    const before = platform.ctx.outbox.list(email).length;
    await strategy().register({ email, password: "Some-other-pass-45" });
    const notices = platform.ctx.outbox.list(email).filter((mail) => mail.kind === "signup-attempt");
    expect(notices).toHaveLength(1);
    // It says what to do: the account is there, so log in, or set a new password.
    expect(notices[0].text).toContain(`${platform.config.siteUrl}/login`);
    expect(notices[0].text).toContain(`${platform.config.siteUrl}/forgot-password`);
    expect(platform.ctx.outbox.list(email).length).toBe(before + 1);

    const client = memberSiteClient();
    const { authUrl } = await getAuthUrl(client, client.auth.generateOAuthData(platform.callbackUrl), { responseMode: "query" });
    const browser = new TestBrowser();
    const posted = await browser.submitForm(authUrl.replace("/hosted/login", "/hosted/signup"), {
      displayName: "Someone",
      email,
      password: "Some-other-pass-46",
    });
    expect(posted.status).toBe(303);
    const taken = await browser.follow(posted);
    expect(taken.status).toBe(200);
    expect(taken.text).toContain("Check your inbox");
    expect(taken.text).not.toMatch(/already|exists/i);
    expect(platform.ctx.outbox.list(email).filter((mail) => mail.kind === "signup-attempt")).toHaveLength(2);
  });
});

describe("failed logins for one account", () => {
  it("never lock its owner out: past the limit a captcha answer with the right password logs in", async () => {
    const email = await register();
    for (let i = 0; i < MAX_FAILURES + 4; i++) await strategy().login({ email, password: "Wrong-password-9" });
    expect(errorCode(await strategy().login({ email, password: PASSWORD }))).toBe("-19971");
    const owner = await strategy().login({ email, password: PASSWORD, captchaTokens: { recaptchaToken: LOCAL_CAPTCHA_TOKEN } });
    expect(owner.loginState).toBe("SUCCESS");
  }, 60_000);

  it("answer an unknown address as slowly as a known one (both counted the same)", async () => {
    const known = await register();
    const unknown = freshEmail();
    for (const email of [known, unknown]) for (let i = 0; i < MAX_FAILURES; i++) await strategy().login({ email, password: "Wrong-password-9" });
    expect(errorCode(await strategy().login({ email: known, password: "Wrong-password-9" }))).toBe("-19971");
    expect(errorCode(await strategy().login({ email: unknown, password: "Wrong-password-9" }))).toBe("-19971");
  }, 60_000);
});

describe("bulk saves by a caller without permission", () => {
  it("answer the same whether the id exists or not", async () => {
    const existing = (await platform.adminClient().items.query(MEMBERS_OUTINGS).limit(1).find()).items[0]._id;
    const visitor = (await (
      await fetch("https://www.wixapis.com/oauth2/token", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientId: LOCAL_CLIENT_ID, grantType: "anonymous" }),
      })
    ).json()) as { access_token: string };
    const save = async (id: string) => {
      const reply = await postJson(
        "/wix-data/v2/bulk/items/save",
        { dataCollectionId: MEMBERS_OUTINGS, dataItems: [{ id, data: { _id: id, title: "x" } }] },
        { authorization: visitor.access_token },
      );
      const body = JSON.stringify(reply.json()).replaceAll(id, "<id>");
      return { status: reply.statusCode, body };
    };
    const [known, unknown] = [await save(existing), await save("no-such-outing-id")];
    expect(known).toEqual(unknown);
    const single = async (id: string) =>
      JSON.stringify(
        (
          await postJson(
            "/wix-data/v2/items/save",
            { dataCollectionId: MEMBERS_OUTINGS, dataItem: { id, data: { _id: id } } },
            { authorization: visitor.access_token },
          )
        ).json(),
      ).replaceAll(id, "<id>");
    expect(await single(existing)).toEqual(await single("no-such-outing-id"));
  });
});

describe("logout redirect sessions", () => {
  it("made with a visitor's token sign nobody out", async () => {
    const { browser, tokens } = await signInThroughHostedPage(platform.callbackUrl);
    const session = browser.cookies.get("lp_session");
    const forged = await postJson(
      "/_api/redirects-api/v1/redirect-session",
      { logout: { clientId: LOCAL_CLIENT_ID } },
      { authorization: (await strategy().generateVisitorTokens()).accessToken.value },
    );
    await browser.get(forged.json().redirectSession.fullUrl);
    expect(browser.cookies.get("lp_session")).toBe(session);
    expect(platform.ctx.loginSessions.byToken(session)).not.toBeNull();
    expect(platform.ctx.tokens.resolveAccess(tokens.accessToken.value)).not.toBeNull();
  });

  it("made with another member's token do not end this member's session", async () => {
    const { browser } = await signInThroughHostedPage(platform.callbackUrl);
    const session = browser.cookies.get("lp_session");
    const other = await signInThroughHostedPage(platform.callbackUrl, { email: await register(), password: PASSWORD });
    const { logoutUrl } = await other.client.auth.logout(`${platform.config.siteUrl}/`);
    await browser.get(logoutUrl);
    expect(platform.ctx.loginSessions.byToken(session)?.memberId).toBeDefined();
    expect(platform.ctx.tokens.resolveAccess(other.tokens.accessToken.value)).toBeNull();
  });
});

describe("file upload and download URLs", () => {
  it("are capabilities: the URL alone uploads, with no admin key; anything else is refused", async () => {
    const created = await postJson("/data-mover/v1/temporary-files/upload-url", { fileName: "a.csv" }, { authorization: platform.config.apiKey });
    const uploadUrl = created.json().uploadUrl as string;
    const url = new URL(uploadUrl);
    expect(url.searchParams.get("token")).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    const bare = `${url.origin}${url.pathname}`;
    expect((await fetch(bare, { method: "PUT", headers: { authorization: platform.config.apiKey }, body: "_id\na\n" })).status).toBe(403);
    expect((await fetch(`${bare}?token=${url.searchParams.get("token")!.replace(/^\d+/, "99999999999")}`, { method: "PUT", body: "_id\na\n" })).status).toBe(
      403,
    );
    expect((await fetch(uploadUrl)).status).toBe(403);
    expect((await fetch(uploadUrl, { method: "PUT", body: "_id\na\n" })).status).toBe(200);
  });
});
