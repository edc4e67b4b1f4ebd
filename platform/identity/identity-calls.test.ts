import { authentication, recovery, verification } from "@wix/identity";
import { members } from "@wix/members";
import { ApiKeyStrategy, createClient, OAuthStrategy } from "@wix/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
import { LOCAL_CLIENT_ID } from "../config";
import { SYSTEM_ERROR_MESSAGE } from "../http/errors";
import { DEMO_MEMBER } from "../seed/seed";
import { openSignUp, startTestPlatform, type TestPlatform } from "../testing";
import { signInThroughHostedPage, TestBrowser } from "./test-browser";
import { MAILS_PER_HOUR } from "./throttle";

// The identity calls beyond register and login (docs/platform/identity.md §3): the error shapes
// the SDK reads, resending a code, logging out from the server, activation and verification mails.

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());
beforeEach(() => {
  openSignUp(platform);
});

const strategy = () => OAuthStrategy({ clientId: LOCAL_CLIENT_ID });
let counter = 0;
const freshEmail = () => `caller-${Date.now()}-${++counter}@ridgeline.example`;
const PASSWORD = "Granite-ridge-walk-42";
const codes = (to: string) => platform.ctx.outbox.list(to).filter((mail) => mail.kind === "verification");
const admin = () => createClient({ modules: { recovery, verification }, auth: ApiKeyStrategy({ apiKey: platform.config.apiKey, siteId: "local-site" }) });

/** A visitor's access token, as the site holds one, for the calls the SDK has no function for. */
async function visitorToken(): Promise<string> {
  const auth = strategy();
  return (await auth.generateVisitorTokens()).accessToken.value;
}

/** The platform's answer, loosely typed: the tests check its shape. */
type Answer = {
  error?: string;
  state?: string;
  details: { validationError: { fieldViolations: Array<{ field: string; description: string }> }; applicationError?: { code: string } };
};

async function post(path: string, body: unknown, authorization?: string) {
  const response = await fetch(`${platform.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(authorization && { authorization }) },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    statusText: response.statusText,
    requestId: response.headers.get("x-wix-request-id"),
    body: (await response.json()) as Answer,
  };
}

/** Registers with e-mail verification on; the state token and the code mailed for it. */
async function pendingVerification() {
  platform.ctx.settings.update({ requireEmailVerification: true });
  const email = freshEmail();
  const started = await strategy().register({ email, password: PASSWORD });
  expect(started.loginState).toBe("EMAIL_VERIFICATION_REQUIRED");
  return { email, stateToken: (started as { data: { stateToken: string } }).data.stateToken, code: codes(email)[0].code! };
}

const verifyWith = (code: string, stateToken: string) =>
  strategy().processVerification({ verificationCode: code }, { loginState: "EMAIL_VERIFICATION_REQUIRED", data: { stateToken } } as never);

describe("error shapes", () => {
  it("answers a malformed identity request with a validationError listing each field and its description", async () => {
    const answer = await post("/_api/iam/verification/v1/auth/verify", { code: "", stateToken: 42 }, await visitorToken());
    expect(answer.status).toBe(400);
    expect(answer.body.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: "code", description: expect.stringMatching(/.+/) }),
      expect.objectContaining({ field: "stateToken", description: expect.stringMatching(/expected string/i) }),
    ]);
    expect(answer.body.details.applicationError).toBeUndefined();
  });

  it("reaches the SDK as INVALID_ARGUMENT with the field and its description, and the request id", async () => {
    const { client } = await signInThroughHostedPage(platform.callbackUrl);
    const identity = createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, tokens: client.auth.getTokens() }) });
    const error = await identity.authentication.changePassword("short").catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      details: {
        validationError: { fieldViolations: [expect.objectContaining({ field: "newPassword", description: expect.stringContaining("8 characters") })] },
      },
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(JSON.parse((error as Error).message).message).toMatch(/^INVALID_ARGUMENT: "newPassword" .*8 characters/);
  });

  it("token endpoint errors carry the status text and the request id, through raw HTTP and the SDK", async () => {
    const answer = await post("/oauth2/token", { grantType: "refresh_token", clientId: LOCAL_CLIENT_ID, refreshToken: "not-a-token" });
    expect([answer.status, answer.statusText, answer.body.error]).toEqual([400, "Bad Request", "invalid_grant"]);
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const client = createClient({ modules: { members }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    const oauthData = client.auth.generateOAuthData(platform.callbackUrl);
    const error = (await client.auth.getMemberTokens("no-such-code", oauthData.state, oauthData).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/^Failed to fetch tokens from OAuth API: Bad Request\. request id: [0-9a-f-]{36}\. Response: .*invalid_grant/);
  });

  it("answers a genuine failure with 'System error occurred' and the request id, nothing more", async () => {
    const broken = await startTestPlatform({ logLevel: "silent" });
    try {
      const token = (await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).generateVisitorTokens()).accessToken.value;
      // The database going away under a running platform: a failure no route expects.
      broken.ctx.db.close();
      const response = await fetch(`${broken.url}/_api/iam/verification/v1/auth/resend`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: token },
        body: JSON.stringify({ stateToken: "VST-anything" }),
      });
      const requestId = response.headers.get("x-wix-request-id");
      expect([response.status, await response.json()]).toEqual([
        500,
        { message: SYSTEM_ERROR_MESSAGE, details: { applicationError: { code: "INTERNAL_ERROR", description: SYSTEM_ERROR_MESSAGE, data: { requestId } } } },
      ]);
    } finally {
      await broken.close();
    }
  });
});

describe("POST /verification/v1/auth/resend", () => {
  it("mails a new code for the same state token; the old code stops working and the new one signs in", async () => {
    const { email, stateToken, code } = await pendingVerification();
    const answer = await post("/_api/iam/verification/v1/auth/resend", { stateToken }, await visitorToken());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ state: "REQUIRE_EMAIL_VERIFICATION", stateToken, identity: { email: { address: email } } });
    const fresh = codes(email)[0].code!;
    expect(codes(email)).toHaveLength(2);
    if (fresh !== code) await expect(verifyWith(code, stateToken)).rejects.toMatchObject({ details: { applicationError: { code: "VERIFICATION_FAILED" } } });
    expect((await verifyWith(fresh, stateToken)).loginState).toBe("SUCCESS");
  });

  it("keeps to the hourly limit of code mails, and refuses a state token that leads nowhere", async () => {
    const { email, stateToken } = await pendingVerification();
    const token = await visitorToken();
    for (let sent = 1; sent < MAILS_PER_HOUR; sent++) expect((await post("/_api/iam/verification/v1/auth/resend", { stateToken }, token)).status).toBe(200);
    const throttled = await post("/_api/iam/verification/v1/auth/resend", { stateToken }, token);
    expect([throttled.status, throttled.body.details.applicationError?.code]).toEqual([429, "THROTTLED_FEATURE"]);
    expect(codes(email)).toHaveLength(MAILS_PER_HOUR);

    const unknown = await post("/_api/iam/verification/v1/auth/resend", { stateToken: "VST-unknown" }, token);
    expect([unknown.status, unknown.body.details.applicationError?.code]).toEqual([400, "VERIFICATION_FAILED"]);
    const malformed = await post("/_api/iam/verification/v1/auth/resend", {}, token);
    expect(malformed.body.details.validationError.fieldViolations).toEqual([expect.objectContaining({ field: "stateToken" })]);
  });
});

describe("GET /authentication/v1/logout", () => {
  it("ends the member's session through the SDK's authentication.logout, answering a RawHttpResponse", async () => {
    const { client, tokens } = await signInThroughHostedPage(platform.callbackUrl);
    const identity = createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, tokens }) });
    expect(await identity.authentication.logout({ clientId: LOCAL_CLIENT_ID })).toEqual({});
    // Both tokens are gone: the access token is refused, and the refresh token gives no new member pair.
    const direct = await fetch(`${platform.url}/members/v1/members/my`, { headers: { authorization: tokens.accessToken.value } });
    expect(direct.status).toBe(401);
    const refreshed = await post("/oauth2/token", { grantType: "refresh_token", clientId: LOCAL_CLIENT_ID, refreshToken: tokens.refreshToken.value });
    expect(refreshed.status).toBe(400);
    expect(client.auth.loggedIn()).toBe(true);
  });

  it("refuses a visitor", async () => {
    const response = await fetch(`${platform.url}/_api/iam/authentication/v1/logout?clientId=${LOCAL_CLIENT_ID}`, {
      headers: { authorization: await visitorToken() },
    });
    expect([response.status, ((await response.json()) as { details: { applicationError: { code: string } } }).details.applicationError.code]).toEqual([
      403,
      "PERMISSION_DENIED",
    ]);
  });
});

describe("activation e-mail and verification start", () => {
  it("mails an activation link (admin key only) that sets a password once and signs the member in", async () => {
    const email = freshEmail();
    expect((await strategy().register({ email, password: PASSWORD })).loginState).toBe("SUCCESS");
    const identityId = platform.ctx.identities.findForLogin(email)!.identity.id;
    const asVisitor = createClient({ modules: { recovery }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    await expect(asVisitor.recovery.sendActivationEmail(identityId)).rejects.toMatchObject({ details: { applicationError: { code: "PERMISSION_DENIED" } } });

    await admin().recovery.sendActivationEmail(identityId, {
      emailOptions: { redirect: { url: `${platform.config.siteUrl}/login`, clientId: LOCAL_CLIENT_ID } },
    });
    const [mail] = platform.ctx.outbox.list(email).filter((message) => message.kind === "activation");
    expect(mail).toMatchObject({ subject: expect.stringContaining("Set a password"), link: expect.stringContaining("/hosted/reset?token=") });
    const reset = await new TestBrowser().submitForm(mail.link!, { password: "Another-long-ridge-77" });
    expect(reset.location).toBe(`${platform.config.siteUrl}/login?passwordReset=1`);
    expect((await strategy().login({ email, password: "Another-long-ridge-77" })).loginState).toBe("SUCCESS");
    await expect(admin().recovery.sendActivationEmail("no-such-identity")).rejects.toMatchObject({ details: { applicationError: { code: "NOT_FOUND" } } });
  });

  it("starts a verification for the member themselves or, with the admin key, for anyone; a code goes by e-mail", async () => {
    const { client, tokens } = await signInThroughHostedPage(platform.callbackUrl);
    const me = (await client.members.getCurrentMember()).member!._id!;
    const own = createClient({ modules: { verification }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, tokens }) });
    const before = codes(DEMO_MEMBER.email).length;
    expect(await own.verification.start({ identityId: me, target: "EMAIL" })).toEqual({ verificationId: expect.stringMatching(/.+/) });
    expect(codes(DEMO_MEMBER.email)).toHaveLength(before + 1);

    const other = freshEmail();
    await strategy().register({ email: other, password: PASSWORD });
    const otherId = platform.ctx.identities.findForLogin(other)!.identity.id;
    await expect(own.verification.start({ identityId: otherId, target: "EMAIL" })).rejects.toMatchObject({
      details: { applicationError: { code: "PERMISSION_DENIED" } },
    });
    await admin().verification.start({ identityId: otherId, target: "EMAIL" });
    expect(codes(other)[0]).toMatchObject({ kind: "verification", code: expect.stringMatching(/^\d{6}$/) });
  });
});

describe("invisible and visible captcha answers", () => {
  it("takes the local answer from either key, and only the visible one while invisible answers are not trusted", async () => {
    platform.ctx.settings.update({ requireCaptcha: true });
    const login = (captchaTokens: { recaptchaToken?: string; invisibleRecaptchaToken?: string }) =>
      strategy().login({ email: DEMO_MEMBER.email, password: DEMO_MEMBER.password, captchaTokens });
    expect(await login({})).toMatchObject({ loginState: "FAILURE", errorCode: "missingCaptchaToken" });
    expect((await login({ invisibleRecaptchaToken: LOCAL_CAPTCHA_TOKEN })).loginState).toBe("SUCCESS");
    expect((await login({ recaptchaToken: LOCAL_CAPTCHA_TOKEN })).loginState).toBe("SUCCESS");

    platform.ctx.settings.update({ rejectInvisibleCaptcha: true });
    expect(await login({ invisibleRecaptchaToken: LOCAL_CAPTCHA_TOKEN })).toMatchObject({ loginState: "FAILURE", errorCode: "invalidCaptchaToken" });
    expect((await login({ recaptchaToken: LOCAL_CAPTCHA_TOKEN })).loginState).toBe("SUCCESS");
  });
});

describe("session pre-warm (a login redirect session asked for with a member's token)", () => {
  async function prewarmUrl(authorization: string) {
    const answer = await post("/_api/redirects-api/v1/redirect-session", { login: {} }, authorization);
    return (answer.body as unknown as { redirectSession: { fullUrl: string } }).redirectSession.fullUrl;
  }

  it("signs the browser in as the member once, in a page only the site may frame", async () => {
    const { tokens } = await signInThroughHostedPage(platform.callbackUrl);
    const url = await prewarmUrl(tokens.accessToken.value);
    const browser = new TestBrowser();
    const page = await browser.get(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain(`frame-ancestors ${new URL(platform.callbackUrl).origin}`);
    expect(page.text).not.toContain("<script");
    const session = platform.ctx.loginSessions.byToken(browser.cookies.get("lp_session"));
    expect(session?.memberId).toBe(platform.ctx.identities.findForLogin(DEMO_MEMBER.email)!.identity.id);

    // Used once: loading it again, in another browser, signs nobody in.
    const other = new TestBrowser();
    expect((await other.get(url)).status).toBe(200);
    expect(other.cookies.has("lp_session")).toBe(false);
  });

  it("asked for by a visitor, it is the ordinary log-in page", async () => {
    const page = await new TestBrowser().get(await prewarmUrl(await visitorToken()));
    expect(page.text).toContain('name="password"');
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("a member who must set a new password", () => {
  it("cannot log in (the SDK's resetPassword) and has no session left, until a reset link sets one", async () => {
    const email = freshEmail();
    expect((await strategy().register({ email, password: PASSWORD })).loginState).toBe("SUCCESS");
    const { tokens } = await signInThroughHostedPage(platform.callbackUrl, { email, password: PASSWORD });
    const required = await fetch(`${platform.url}/_local/require-reset`, {
      method: "POST",
      headers: { authorization: platform.config.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(required.status).toBe(200);
    expect((await fetch(`${platform.url}/members/v1/members/my`, { headers: { authorization: tokens.accessToken.value } })).status).toBe(401);
    expect(await strategy().login({ email, password: PASSWORD })).toMatchObject({ loginState: "FAILURE", errorCode: "resetPassword" });

    await strategy().sendPasswordResetEmail(email, `${platform.config.siteUrl}/login`);
    const [mail] = platform.ctx.outbox.list(email).filter((message) => message.kind === "password-reset");
    await new TestBrowser().submitForm(mail.link!, { password: "Fresh-granite-path-9" });
    expect((await strategy().login({ email, password: "Fresh-granite-path-9" })).loginState).toBe("SUCCESS");
  });
});
