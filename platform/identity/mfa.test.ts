import { authentication, recovery } from "@wix/identity";
import { createClient, OAuthStrategy } from "@wix/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { MAILS_PER_HOUR, MAX_FAILURES, PROOFS_PER_SESSION, WRONG_CODES_PER_DAY } from "./throttle";
import { MAX_VERIFICATION_ATTEMPTS } from "./verifications";
import { HOSTED_PAGES } from "./paths";
import { waitInWords } from "@ridgeline/platform-contract/words";
import { memberSiteClient, passwordOnHostedPage, TestBrowser } from "./test-browser";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const PASSWORD = "Granite-ridge-walk-42";
let counter = 0;
const freshEmail = () => `second-factor-${Date.now()}-${++counter}@ridgeline.example`;
const latestCode = (to: string) => platform.ctx.outbox.list(to)[0]?.code;

/** The site's way to call the authentication module: a client with the visitor's tokens. */
function visitorAuthentication() {
  return createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) }).authentication;
}

/** What the tests read of the platform's replies. */
type Reply = {
  state?: string;
  sessionToken?: string;
  stateToken?: string;
  access_token?: string;
  factor?: { factorId: string };
  factors?: unknown[];
  additionalData?: { deviceToken?: { strValue: string } };
  devices?: Array<{ deviceId: string; name: string; createdDate: string; lastUsedDate: string; expiresDate: string }>;
  message?: string;
  details?: { applicationError?: { code?: string; description?: string; data?: { retryAfterSeconds?: number } } };
};

/** A raw call to the platform, for the endpoints no installed SDK function sends. */
async function call(path: string, init: { method?: string; body?: unknown; token?: string; userAgent?: string } = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", ...(init.token && { authorization: init.token }), ...(init.userAgent && { "user-agent": init.userAgent }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Reply };
}

/** A new member, signed in with member tokens, with the given second factor turned on. */
async function memberWithFactor(factor: { type: "EMAIL" | "SMS"; phone?: string }) {
  const email = freshEmail();
  const registered = await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).register({ email, password: PASSWORD });
  const sessionToken = (registered as { data: { sessionToken: string } }).data.sessionToken;
  const session = platform.ctx.loginSessions.byToken(sessionToken)!;
  const { accessToken } = platform.ctx.tokens.issuePair({ role: "member", subjectId: session.memberId, clientId: LOCAL_CLIENT_ID, loginSessionId: session.id });
  const enrolled = await call("/_api/iam/factors/v1/factors", { body: { factor, password: PASSWORD }, token: accessToken });
  expect(enrolled.status).toBe(200);
  const factorId = enrolled.body.factor!.factorId;
  // A phone turns on with the code texted to it.
  if (factor.phone) {
    const code = latestCode(factor.phone.replace(/ /g, ""));
    expect((await call(`/_api/iam/factors/v1/factors/${factorId}/activate`, { body: { code }, token: accessToken })).status).toBe(200);
  }
  return { email, accessToken, factorId };
}

describe("second factors: enrolment", () => {
  it("lets a member turn an e-mail factor on and off for themselves; the identity's factors list shows it", async () => {
    const { email, accessToken, factorId } = await memberWithFactor({ type: "EMAIL" });
    expect((await call("/_api/iam/factors/v1/factors", { method: "GET", token: accessToken })).body).toEqual({
      factors: [{ factorId, type: "EMAIL", status: "ACTIVE", factorStatus: "ENABLED" }],
      recoveryCodes: { remaining: 0 },
    });
    const challenge = await visitorAuthentication().loginV2({ email }, { password: PASSWORD });
    expect(challenge.identity?.factors).toEqual([expect.objectContaining({ type: "PASSWORD" }), { factorId, type: "EMAIL", status: "ACTIVE" }]);

    const remove = (body: unknown) => call(`/_api/iam/factors/v1/factors/${factorId}`, { method: "DELETE", body, token: accessToken });
    // The access token alone does not turn it off (a stolen one must not), nor does a wrong password.
    expect(await remove({})).toMatchObject({ status: 400, body: { details: { validationError: { fieldViolations: [{ field: "password" }] } } } });
    expect(await remove({ password: "not-the-password" })).toMatchObject({ status: 403, body: { details: { applicationError: { code: "-19976" } } } });
    expect((await remove({ password: PASSWORD })).status).toBe(200);
    expect((await remove({ password: PASSWORD })).status).toBe(404);
    expect((await visitorAuthentication().loginV2({ email }, { password: PASSWORD })).state).toBe("SUCCESS");
  });

  it("refuses visitors, an SMS factor without a valid phone number, and an unknown type", async () => {
    const { accessToken } = await memberWithFactor({ type: "EMAIL" });
    const visitor = await call("/oauth2/token", { body: { clientId: LOCAL_CLIENT_ID, grantType: "anonymous" } });
    const asVisitor = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "EMAIL" } }, token: visitor.body.access_token! });
    expect(asVisitor).toMatchObject({ status: 403, body: { details: { applicationError: { code: "PERMISSION_DENIED" } } } });
    for (const factor of [{ type: "SMS" }, { type: "SMS", phone: "07700 900123" }, { type: "PUSH" }]) {
      expect((await call("/_api/iam/factors/v1/factors", { body: { factor, password: PASSWORD }, token: accessToken })).status).toBe(400);
    }
    // Nor does the token alone add one, or a wrong password.
    const bare = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "SMS", phone: "+447700900999" } }, token: accessToken });
    expect(bare).toMatchObject({ status: 400, body: { details: { validationError: { fieldViolations: [{ field: "password" }] } } } });
    const wrong = await call("/_api/iam/factors/v1/factors", {
      body: { factor: { type: "SMS", phone: "+447700900999" }, password: "nope" },
      token: accessToken,
    });
    expect(wrong.status).toBe(403);
    expect((await call("/_api/iam/factors/v1/factors", { method: "GET", token: accessToken })).body.factors).toHaveLength(1);
  });
});

describe("second factors: a phone proves itself", () => {
  it("turns on only with the code texted to it; until then a login does not ask for it", async () => {
    const { email, accessToken } = await memberWithFactor({ type: "EMAIL" });
    const phone = `+4477009${String(++counter).padStart(5, "0")}`;
    const started = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "SMS", phone }, password: PASSWORD }, token: accessToken });
    expect(started.body.factor).toMatchObject({ type: "SMS", status: "INACTIVE", factorStatus: "REQUIRE_ACTIVATION", phone });
    const [text] = platform.ctx.outbox.list(phone);
    expect(text).toMatchObject({ kind: "sms", code: expect.stringMatching(/^\d{6}$/) });
    const challenge = await visitorAuthentication().loginV2({ email }, { password: PASSWORD });
    expect((challenge as { mfaChallengeData?: { availableFactors: unknown[] } }).mfaChallengeData?.availableFactors).toEqual([
      { factorType: "EMAIL", factorStatus: "ENABLED" },
    ]);
    const activate = (code: string) => call(`/_api/iam/factors/v1/factors/${started.body.factor!.factorId}/activate`, { body: { code }, token: accessToken });
    const wrong = text.code === "000000" ? "111111" : "000000";
    expect(await activate(wrong)).toMatchObject({ status: 400, body: { details: { applicationError: { code: "VERIFICATION_FAILED" } } } });
    expect(await activate(text.code!)).toMatchObject({ status: 200, body: { factor: { factorStatus: "ENABLED" } } });
    expect((await call("/_api/iam/factors/v1/factors", { method: "GET", token: accessToken })).body.factors).toHaveLength(2);
  });

  it("a mistyped number's code, tried too often, ends: the waiting factor is gone and the member starts again", async () => {
    const { accessToken } = await memberWithFactor({ type: "EMAIL" });
    const phone = `+4477009${String(++counter).padStart(5, "0")}`;
    const started = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "SMS", phone }, password: PASSWORD }, token: accessToken });
    const activate = (code: string) => call(`/_api/iam/factors/v1/factors/${started.body.factor!.factorId}/activate`, { body: { code }, token: accessToken });
    const code = latestCode(phone)!;
    const wrong = code === "000000" ? "111111" : "000000";
    for (let tried = 0; tried < MAX_VERIFICATION_ATTEMPTS; tried++) expect((await activate(wrong)).status).toBe(400);
    expect((await activate(code)).body.details?.applicationError?.code).toBe("VERIFICATION_EXPIRED");
    expect((await call("/_api/iam/factors/v1/factors", { method: "GET", token: accessToken })).body.factors).toHaveLength(1);
  });
});

describe("second factors: logging in", () => {
  it("answers MFA_CHALLENGE with the challenge data, mails a code, and the right code through /v2/email/verify gives a session", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    // OAuthStrategy's own helper knows no such state: it answers a failure, so the site asks loginV2 itself.
    expect(await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).login({ email, password: PASSWORD })).toMatchObject({ loginState: "FAILURE" });
    // Each login sends a new code; the earlier one no longer works.
    const challenge = await visitorAuthentication().loginV2({ email }, { password: PASSWORD });
    expect(challenge).toMatchObject({
      state: "MFA_CHALLENGE",
      stateToken: expect.any(String),
      mfaChallengeData: {
        factorType: "EMAIL",
        verificationChallengeData: { hint: "s•••@ridgeline.example" },
        availableFactors: [{ factorType: "EMAIL", factorStatus: "ENABLED" }],
        reason: "USER_SETTINGS",
      },
    });
    expect(challenge.sessionToken).toBeFalsy();

    const [mail] = platform.ctx.outbox.list(email);
    expect(mail).toMatchObject({ kind: "login-code", code: expect.stringMatching(/^\d{6}$/) });
    const stateToken = challenge.stateToken!;
    const wrong = mail.code === "000000" ? "111111" : "000000";
    const refused = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken, emailData: { code: wrong } } });
    expect(refused).toMatchObject({ status: 400, body: { details: { applicationError: { code: "VERIFICATION_FAILED" } } } });
    const bySms = await call("/_api/iam/authentication/v2/sms/verify", { body: { stateToken, smsData: { code: mail.code } } });
    expect(bySms.status).toBe(400);

    const verified = await call("/_api/iam/authentication/v2/EMAIL/verify", { body: { stateToken, emailData: { code: mail.code } } });
    expect(verified).toMatchObject({ status: 200, body: { state: "SUCCESS", sessionToken: expect.any(String) } });
    expect(platform.ctx.loginSessions.byToken(verified.body.sessionToken!)?.memberId).toBe(platform.ctx.identities.findForLogin(email)!.identity.id);
    // A code works once.
    const again = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken, emailData: { code: mail.code } } });
    expect(again.body.details?.applicationError?.code).toBe("VERIFICATION_EXPIRED");
  });

  it("texts the code to an SMS factor's phone, in the local outbox", async () => {
    const { email } = await memberWithFactor({ type: "SMS", phone: "+44 7700 900123" });
    const challenge = await visitorAuthentication().loginV2({ email }, { password: PASSWORD });
    // The installed typings leave the challenge data out, though the reply carries it.
    expect((challenge as { mfaChallengeData?: unknown }).mfaChallengeData).toMatchObject({
      factorType: "SMS",
      verificationChallengeData: { hint: "•••• 0123" },
    });
    const [text] = platform.ctx.outbox.list("+447700900123");
    expect(text).toMatchObject({ kind: "sms", code: expect.stringMatching(/^\d{6}$/) });
    const verified = await call("/_api/iam/authentication/v2/sms/verify", { body: { stateToken: challenge.stateToken, smsData: { code: text.code } } });
    expect(verified.body.state).toBe("SUCCESS");
  });

  it("stops trying codes after too many wrong ones, even the right one", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const { stateToken } = await visitorAuthentication().loginV2({ email }, { password: PASSWORD });
    const code = latestCode(email)!;
    const wrong = code === "000000" ? "111111" : "000000";
    const answers = [];
    for (let attempt = 0; attempt < MAX_VERIFICATION_ATTEMPTS; attempt++) {
      answers.push((await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken, emailData: { code: wrong } } })).status);
    }
    expect(answers).toEqual([...Array(MAX_VERIFICATION_ATTEMPTS - 1).fill(400), 429]);
    const right = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken, emailData: { code } } });
    expect(right).toMatchObject({ status: 429, body: { details: { applicationError: { code: "THROTTLED_FEATURE" } } } });
  });

  it("goes on with a new code through loginV2 with the state token alone; the previous code stops working", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const auth = visitorAuthentication();
    const first = await auth.loginV2({ email }, { password: PASSWORD });
    const firstMail = platform.ctx.outbox.list(email)[0];
    const again = await auth.loginV2({ email }, { stateToken: first.stateToken });
    expect(again).toMatchObject({ state: "MFA_CHALLENGE", stateToken: expect.any(String) });
    expect(again.sessionToken).toBeFalsy();
    const secondMail = platform.ctx.outbox.list(email)[0];
    expect(secondMail.id).not.toBe(firstMail.id);
    const old = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken: first.stateToken, emailData: { code: firstMail.code } } });
    expect(old.body.details?.applicationError?.code).toBe("VERIFICATION_EXPIRED");
    // Another login's e-mail, or a used state token, does not go on.
    await expect(auth.loginV2({ email: "someone-else@ridgeline.example" }, { stateToken: again.stateToken })).rejects.toMatchObject({
      details: { applicationError: { code: "VERIFICATION_EXPIRED" } },
    });
    const verified = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken: again.stateToken, emailData: { code: secondMail.code } } });
    expect(verified.body.state).toBe("SUCCESS");
    await expect(auth.loginV2({ email }, { stateToken: again.stateToken })).rejects.toMatchObject({
      details: { applicationError: { code: "VERIFICATION_EXPIRED" } },
    });
  });

  it("refuses an expired code as expired", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const { stateToken } = await visitorAuthentication().loginV2({ email }, { password: PASSWORD });
    platform.ctx.db.prepare("UPDATE verification_states SET expires_at = 0 WHERE purpose = 'mfa'").run();
    const expired = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken, emailData: { code: latestCode(email) } } });
    expect(expired.body.details?.applicationError?.code).toBe("VERIFICATION_EXPIRED");
  });
});

describe("second factors: a new password", () => {
  it("set through the API's recover call, asks for the code as a login does: the reset link proves only the e-mail address", async () => {
    const phone = "+44 7700 900456";
    const { email } = await memberWithFactor({ type: "SMS", phone });
    await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).sendPasswordResetEmail(email, `${platform.config.siteUrl}/login`);
    const { recoveryToken } = platform.ctx.outbox.list(email)[0];
    const client = createClient({ modules: { recovery }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) });
    const recovered = await client.recovery.recover(recoveryToken!, { password: "Fresh-granite-step-7" });
    expect(recovered).toMatchObject({ state: "MFA_CHALLENGE", stateToken: expect.any(String) });
    expect(recovered.sessionToken).toBeFalsy();

    const [text] = platform.ctx.outbox.list(phone.replace(/ /g, ""));
    const verified = await call("/_api/iam/authentication/v2/sms/verify", { body: { stateToken: recovered.stateToken, smsData: { code: text.code } } });
    expect(verified).toMatchObject({ status: 200, body: { state: "SUCCESS", sessionToken: expect.any(String) } });
  });
});

describe("second factors: the hosted login page", () => {
  it("asks for the code after the password, refuses a wrong one in place, and the right one completes the sign-in", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const client = memberSiteClient();
    const oauthData = client.auth.generateOAuthData(platform.callbackUrl);
    const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode: "query" });
    const browser = new TestBrowser();
    const submitted = await browser.submitForm(authUrl, { email, password: PASSWORD });
    expect(submitted.status).toBe(303);
    expect(submitted.location).toBe(`/hosted/login/code?rs=${new URL(authUrl).searchParams.get("rs")}`);
    const codePage = await browser.follow(submitted);
    expect(codePage.status).toBe(200);
    expect(codePage.text).toContain("Enter your login code");
    expect(codePage.text).toContain("s•••@ridgeline.example");
    expect(codePage.text).toMatch(/<label for="code">Login code<\/label>\s*<input id="code"[^>]*autocomplete="one-time-code"/);
    // The challenge stays on the platform: the page carries no state token.
    expect(codePage.text).not.toContain("stateToken");
    // Another browser with the same link has no login waiting for a code: back to the password.
    expect((await new TestBrowser().get(new URL(submitted.location!, authUrl).href)).location).toMatch(/^\/hosted\/login\?rs=/);

    const code = latestCode(email)!;
    const wrong = await browser.submitForm(codePage.url, { code: code === "000000" ? "111111" : "000000" });
    expect(wrong.location).toBe(submitted.location);
    const again = await browser.follow(wrong);
    expect(again.text).toContain("That code is not right");
    expect(again.text).toMatch(/<input id="code"[^>]*aria-invalid="true"[^>]*autofocus/);

    const right = await browser.submitForm(codePage.url, { code });
    expect(right.status).toBe(303);
    const { code: authCode, state } = client.auth.parseFromUrl(right.location!, "query");
    const tokens = await client.auth.getMemberTokens(authCode, state, oauthData);
    expect(tokens.refreshToken.role).toBe("member");
  });
});

describe("second factors beside the identity calls", () => {
  it("'Resend code' of an e-mail verification does not renew a second factor's challenge", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const challenge = await visitorAuthentication().loginV2({ email }, { password: PASSWORD });
    expect(challenge.state).toBe("MFA_CHALLENGE");
    const code = latestCode(email);
    const resent = await call("/_api/iam/verification/v1/auth/resend", { body: { stateToken: challenge.stateToken } });
    expect([resent.status, resent.body.details?.applicationError?.code]).toEqual([400, "VERIFICATION_FAILED"]);
    expect(latestCode(email)).toBe(code);
    const verified = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken: challenge.stateToken, emailData: { code } } });
    expect(verified.body.state).toBe("SUCCESS");
  });

  it("a factor's verify without its code names the missing field in a validationError", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const challenge = await visitorAuthentication().loginV2({ email }, { password: PASSWORD });
    const refused = await fetch(`${platform.url}/_api/iam/authentication/v2/sms/verify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stateToken: challenge.stateToken, emailData: { code: "123456" } }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ details: { validationError: { fieldViolations: [{ field: "smsData.code" }] } } });
  });

  it("an e-mail verification past its wrong codes gets no new code by 'Resend code': the member logs in again", async () => {
    platform.ctx.settings.update({ requireEmailVerification: true });
    try {
      const email = freshEmail();
      const started = await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).register({ email, password: PASSWORD });
      const stateToken = (started as { data: { stateToken: string } }).data.stateToken;
      const wrong = latestCode(email) === "000000" ? "111111" : "000000";
      for (let tried = 0; tried < MAX_VERIFICATION_ATTEMPTS; tried++) {
        await call("/_api/iam/verification/v1/auth/verify", { body: { code: wrong, stateToken } });
      }
      const resent = await call("/_api/iam/verification/v1/auth/resend", { body: { stateToken } });
      expect([resent.status, resent.body.details?.applicationError?.code]).toEqual([400, "VERIFICATION_FAILED"]);
    } finally {
      platform.ctx.settings.update({ requireEmailVerification: false });
    }
  });
});

describe("second factors: how many codes", () => {
  const verify = (stateToken: string | undefined, code: string | undefined) =>
    call("/_api/iam/authentication/v2/email/verify", { body: { stateToken, emailData: { code } } });
  const login = (email: string, token?: string) => call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password: PASSWORD }, token });
  const wrongFor = (code: string | undefined) => (code === "000000" ? "111111" : "000000");

  it("a code that signs the member in costs nothing: ordinary logins never run out of codes", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    for (let round = 0; round < MAILS_PER_HOUR + 3; round++) {
      const challenge = await login(email);
      expect(challenge.body.state).toBe("MFA_CHALLENGE");
      expect((await verify(challenge.body.stateToken, latestCode(email))).body.state).toBe("SUCCESS");
    }
  });

  it("past the hour's codes, the refusal says how long to wait", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    for (let round = 0; round < MAILS_PER_HOUR; round++) expect((await login(email)).body.state).toBe("MFA_CHALLENGE");
    // The last code no longer works, so there is none to go on with.
    platform.ctx.db.prepare("UPDATE verification_states SET expires_at = 0 WHERE purpose = 'mfa'").run();
    const refused = await login(email);
    expect(refused).toMatchObject({ status: 429, body: { details: { applicationError: { code: "THROTTLED_FEATURE" } } } });
    const wait = refused.body.details!.applicationError!.data!.retryAfterSeconds!;
    expect(wait).toBeGreaterThan(59 * 60);
    expect(wait).toBeLessThanOrEqual(60 * 60);
  });

  it("stops a code guesser who has the password at a ceiling a day, mails the member, and a new password lifts it", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    let guesses = 0;
    while (guesses < WRONG_CODES_PER_DAY) {
      const { stateToken } = (await login(email)).body;
      for (let tried = 0; tried < MAX_VERIFICATION_ATTEMPTS && guesses < WRONG_CODES_PER_DAY; tried++, guesses++) {
        await verify(stateToken, wrongFor(latestCode(email)));
      }
    }
    expect(platform.ctx.outbox.list(email).filter((mail) => mail.kind === "code-ceiling")).toHaveLength(1);
    const [notice] = platform.ctx.outbox.list(email);
    expect(notice.text).toContain("/forgot-password");

    const refused = await login(email);
    expect(refused).toMatchObject({ status: 429, body: { details: { applicationError: { code: "THROTTLED_FEATURE" } } } });
    expect(refused.body.details!.applicationError!.data!.retryAfterSeconds).toBeGreaterThan(23 * 60 * 60);

    await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).sendPasswordResetEmail(email, `${platform.config.siteUrl}/login`);
    const { recoveryToken } = platform.ctx.outbox.list(email)[0];
    const recovered = await createClient({ modules: { recovery }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) }).recovery.recover(recoveryToken!, {
      password: PASSWORD,
    });
    expect(recovered.state).toBe("MFA_CHALLENGE");
    expect((await verify(recovered.stateToken!, latestCode(email))).body.state).toBe("SUCCESS");
  }, 30_000);

  it("re-checks the signed-in member's own password without a robot check, a code or a session", async () => {
    const { email, accessToken } = await memberWithFactor({ type: "EMAIL" });
    const mailsBefore = platform.ctx.outbox.list(email).length;
    for (let failure = 0; failure < MAX_FAILURES; failure++) {
      await call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password: "Not-the-password-1" } });
    }
    // Anyone else now needs the robot check, another member included: their token is no re-check of this account.
    expect((await login(email)).body.details?.applicationError?.code).toBe("-19971");
    const other = await memberWithFactor({ type: "EMAIL" });
    expect((await login(email, other.accessToken)).body.details?.applicationError?.code).toBe("-19971");
    const wrong = await call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password: "Not-the-password-2" }, token: accessToken });
    expect(wrong.body.details?.applicationError?.code).toBe("-19976");
    const rechecked = await login(email, accessToken);
    expect(rechecked).toMatchObject({ status: 200, body: { state: "SUCCESS" } });
    expect(rechecked.body.sessionToken).toBeUndefined();
    expect(platform.ctx.outbox.list(email)).toHaveLength(mailsBefore);
  }, 30_000);
});

describe("second factors: remembered devices", () => {
  const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
  const login = (email: string, deviceToken?: string) =>
    call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password: PASSWORD, ...(deviceToken && { clientMetaData: { deviceToken } }) } });

  /** A login through the e-mailed code, asking to remember the browser: the device token it is given. */
  async function rememberedLogin(email: string): Promise<string> {
    const challenge = await login(email);
    expect(challenge.body.state).toBe("MFA_CHALLENGE");
    const verified = await call("/_api/iam/authentication/v2/email/verify", {
      body: { stateToken: challenge.body.stateToken, rememberThisDevice: true, emailData: { code: latestCode(email) } },
      userAgent: FIREFOX,
    });
    expect(verified.body.state).toBe("SUCCESS");
    return verified.body.additionalData!.deviceToken!.strValue;
  }

  it("skips the second step for a browser remembered at verify, lists it by name, and asks again once it is forgotten", async () => {
    const { email, accessToken } = await memberWithFactor({ type: "EMAIL" });
    // Not asked to remember: no token.
    const plain = await login(email);
    const unremembered = await call("/_api/iam/authentication/v2/email/verify", {
      body: { stateToken: plain.body.stateToken, emailData: { code: latestCode(email) } },
    });
    expect(unremembered.body.additionalData).toBeUndefined();

    const deviceToken = await rememberedLogin(email);
    const mailsBefore = platform.ctx.outbox.list(email).length;
    expect(await login(email, deviceToken)).toMatchObject({ status: 200, body: { state: "SUCCESS", sessionToken: expect.any(String) } });
    expect(platform.ctx.outbox.list(email)).toHaveLength(mailsBefore);
    // The token never stands in for the password.
    const wrongPassword = await call("/_api/iam/authentication/v2/login", {
      body: { loginId: { email }, password: "not-it", clientMetaData: { deviceToken } },
    });
    expect(wrongPassword.body.details?.applicationError?.code).toBe("-19976");
    expect((await login(email, "made-up-token")).body.state).toBe("MFA_CHALLENGE");

    const listed = await call("/_api/iam/factors/v1/remembered-devices", { method: "GET", token: accessToken });
    expect(listed.body.devices).toEqual([
      {
        deviceId: expect.any(String),
        name: "Firefox on Windows",
        createdDate: expect.any(String),
        lastUsedDate: expect.any(String),
        expiresDate: expect.any(String),
      },
    ]);
    const [device] = listed.body.devices!;
    expect(Date.parse(device.expiresDate) - Date.parse(device.createdDate)).toBe(30 * 24 * 60 * 60 * 1000);
    const forget = (id: string) => call(`/_api/iam/factors/v1/remembered-devices/${id}`, { method: "DELETE", token: accessToken });
    expect((await forget(device.deviceId)).status).toBe(200);
    expect((await forget(device.deviceId)).status).toBe(404);
    expect((await login(email, deviceToken)).body.state).toBe("MFA_CHALLENGE");

    // Forgetting them all.
    const second = await rememberedLogin(email);
    const third = await rememberedLogin(email);
    expect((await call("/_api/iam/factors/v1/remembered-devices", { method: "GET", token: accessToken })).body.devices).toHaveLength(2);
    expect((await call("/_api/iam/factors/v1/remembered-devices", { method: "DELETE", token: accessToken })).status).toBe(200);
    for (const token of [second, third]) expect((await login(email, token)).body.state).toBe("MFA_CHALLENGE");
  }, 30_000);

  it("another member's device token is no use, and a visitor cannot list or forget devices", async () => {
    const first = await memberWithFactor({ type: "EMAIL" });
    const other = await memberWithFactor({ type: "EMAIL" });
    const deviceToken = await rememberedLogin(first.email);
    expect((await login(other.email, deviceToken)).body.state).toBe("MFA_CHALLENGE");
    expect((await login(first.email, deviceToken)).body.state).toBe("SUCCESS");
    const [device] = (await call("/_api/iam/factors/v1/remembered-devices", { method: "GET", token: first.accessToken })).body.devices!;
    // Nor can another member forget it.
    expect((await call(`/_api/iam/factors/v1/remembered-devices/${device.deviceId}`, { method: "DELETE", token: other.accessToken })).status).toBe(404);
    const visitor = await call("/oauth2/token", { body: { clientId: LOCAL_CLIENT_ID, grantType: "anonymous" } });
    expect((await call("/_api/iam/factors/v1/remembered-devices", { method: "GET", token: visitor.body.access_token! })).status).toBe(403);
    expect((await login(first.email, deviceToken)).body.state).toBe("SUCCESS");
  }, 30_000);

  it("forgets every device when the password changes or a factor is added or removed", async () => {
    const { email, accessToken } = await memberWithFactor({ type: "EMAIL" });
    const devices = () => call("/_api/iam/factors/v1/remembered-devices", { method: "GET", token: accessToken }).then((reply) => reply.body.devices);

    let deviceToken = await rememberedLogin(email);
    const phone = `+4477009${String(++counter).padStart(5, "0")}`;
    const added = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "SMS", phone }, password: PASSWORD }, token: accessToken });
    expect(added.status).toBe(200);
    expect(await devices()).toEqual([]);
    expect((await login(email, deviceToken)).body.state).toBe("MFA_CHALLENGE");

    deviceToken = await rememberedLogin(email);
    const activated = await call(`/_api/iam/factors/v1/factors/${added.body.factor!.factorId}/activate`, {
      body: { code: latestCode(phone) },
      token: accessToken,
    });
    expect(activated.status).toBe(200);
    expect(await devices()).toEqual([]);

    deviceToken = await rememberedLogin(email);
    const smsFactorId = added.body.factor!.factorId;
    expect((await call(`/_api/iam/factors/v1/factors/${smsFactorId}`, { method: "DELETE", body: { password: PASSWORD }, token: accessToken })).status).toBe(
      200,
    );
    expect(await devices()).toEqual([]);
    // The e-mail factor is still on: the login is challenged again.
    expect((await login(email, deviceToken)).body.state).toBe("MFA_CHALLENGE");

    // Last, as the password changed in a session is no proof for factor changes there.
    deviceToken = await rememberedLogin(email);
    const rechecked = await call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password: PASSWORD }, token: accessToken });
    expect(rechecked.body.state).toBe("SUCCESS");
    const changed = await call("/_api/iam/authentication/v2/change-password", { body: { newPassword: PASSWORD }, token: accessToken });
    expect(changed.status).toBe(200);
    expect(await devices()).toEqual([]);
    expect((await login(email, deviceToken)).body.state).toBe("MFA_CHALLENGE");
  }, 30_000);

  it("on the hosted page: the ticked box sets a remembered-device cookie, and the next log-in there skips the code", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const client = memberSiteClient();
    const browser = new TestBrowser();
    const logIn = async () => {
      const oauthData = client.auth.generateOAuthData(platform.callbackUrl);
      const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode: "query" });
      return { oauthData, answer: await browser.submitForm(authUrl, { email, password: PASSWORD }) };
    };
    const first = await logIn();
    const codePage = await browser.follow(first.answer);
    expect(codePage.text).toContain('<input type="checkbox" name="remember" value="1">Remember this device for 30 days');
    const done = await browser.submitForm(codePage.url, { code: latestCode(email)!, remember: "1" });
    expect(done.status).toBe(303);
    expect(browser.cookies.get("lp_device")).toMatch(/^[\w-]{43}$/);
    expect(done.headers.getSetCookie().find((cookie) => cookie.startsWith("lp_device="))).toMatch(/Max-Age=2592000; HttpOnly/);

    // Signed out of the hosted pages, the remembered browser logs in with its password alone.
    browser.cookies.delete("lp_session");
    const mailsBefore = platform.ctx.outbox.list(email).length;
    const second = await logIn();
    expect(second.answer.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(second.answer.location!, "query");
    expect((await client.auth.getMemberTokens(code, state, second.oauthData)).refreshToken.role).toBe("member");
    expect(platform.ctx.outbox.list(email)).toHaveLength(mailsBefore);

    // Another browser, without the cookie, is asked for the code.
    const stranger = new TestBrowser();
    const oauthData = client.auth.generateOAuthData(platform.callbackUrl);
    const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode: "query" });
    expect((await stranger.submitForm(authUrl, { email, password: PASSWORD })).location).toContain(HOSTED_PAGES.loginCode);
  }, 30_000);
});

describe("second factors: the true wait when a change is refused", () => {
  it("past the wrong proofs, a factor change answers 429 with the seconds until the failures are forgotten, and says them", async () => {
    const { accessToken } = await memberWithFactor({ type: "EMAIL" });
    const enrol = (password: string) => call("/_api/iam/factors/v1/factors", { body: { factor: { type: "TOTP" }, password }, token: accessToken });
    for (let failure = 0; failure < PROOFS_PER_SESSION; failure++) expect((await enrol("not-the-password")).status).toBe(403);
    const refused = await enrol(PASSWORD);
    expect(refused.status).toBe(429);
    const wait = refused.body.details!.applicationError!.data!.retryAfterSeconds!;
    // The failure window is 15 minutes from the first failure: what is left of it, not a fixed figure.
    expect(wait).toBeGreaterThan(800);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(refused.body.message).toBe(`Too many wrong passwords or codes in this session. Try again in ${waitInWords(wait)}.`);
  }, 60_000);

  it("past the hour's codes texted to phones being turned on, the wait is the time until the oldest is an hour old", async () => {
    const { accessToken } = await memberWithFactor({ type: "EMAIL" });
    const startPhone = () =>
      call("/_api/iam/factors/v1/factors", {
        body: { factor: { type: "SMS", phone: `+4477009${String(++counter).padStart(5, "0")}` }, password: PASSWORD },
        token: accessToken,
      });
    for (let sent = 0; sent < MAILS_PER_HOUR; sent++) expect((await startPhone()).status).toBe(200);
    const refused = await startPhone();
    expect(refused.status).toBe(429);
    const wait = refused.body.details!.applicationError!.data!.retryAfterSeconds!;
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(refused.body.message).toBe(`Too many codes sent to phones for this account. Try again in ${waitInWords(wait)}.`);
  }, 30_000);
});

describe("second factors: choosing the one that sends the code", () => {
  /** A member with e-mail codes (their first factor) and text-message codes to `phone`. */
  async function memberWithEmailAndSms() {
    const member = await memberWithFactor({ type: "EMAIL" });
    const phone = `+4477009${String(++counter).padStart(5, "0")}`;
    const added = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "SMS", phone }, password: PASSWORD }, token: member.accessToken });
    const activated = await call(`/_api/iam/factors/v1/factors/${added.body.factor!.factorId}/activate`, {
      body: { code: latestCode(phone) },
      token: member.accessToken,
    });
    expect(activated.status).toBe(200);
    return { ...member, phone };
  }
  type Challenge = Reply & { mfaChallengeData?: { factorType: string; verificationChallengeData: { hint: string } } };
  const goOn = (email: string, stateToken: string, factorType?: string) =>
    call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, stateToken, ...(factorType && { clientMetaData: { factorType } }) } }) as Promise<{
      status: number;
      body: Challenge;
    }>;

  it("a login challenged by e-mail goes on by SMS when the member asks: a code to the phone, the e-mailed one no longer works", async () => {
    const { email, phone } = await memberWithEmailAndSms();
    const challenge = (await call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password: PASSWORD } })) as { body: Challenge };
    expect(challenge.body.mfaChallengeData?.factorType).toBe("EMAIL");
    const mailed = latestCode(email)!;
    const bySms = await goOn(email, challenge.body.stateToken!, "SMS");
    expect(bySms.body).toMatchObject({
      state: "MFA_CHALLENGE",
      mfaChallengeData: { factorType: "SMS", verificationChallengeData: { hint: `•••• ${phone.slice(-4)}` } },
    });
    const stateToken = bySms.body.stateToken!;
    expect((await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken, emailData: { code: mailed } } })).status).toBe(400);
    // "Send a new code" keeps to the chosen factor: a second text.
    const texts = platform.ctx.outbox.list(phone).length;
    const again = await goOn(email, stateToken);
    expect(platform.ctx.outbox.list(phone)).toHaveLength(texts + 1);
    expect(again.body.mfaChallengeData?.factorType).toBe("SMS");
    const verified = await call("/_api/iam/authentication/v2/sms/verify", {
      body: { stateToken: again.body.stateToken, smsData: { code: latestCode(phone) } },
    });
    expect(verified.body.state).toBe("SUCCESS");
  });

  it("a new code asked past the hour's codes is refused with the true wait, and the code sent before still works", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const challenge = (await call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password: PASSWORD } })) as { body: Challenge };
    let stateToken = challenge.body.stateToken!;
    // The login's code and four new ones: the hour's five.
    for (let asked = 0; asked < 4; asked++) stateToken = (await goOn(email, stateToken)).body.stateToken!;
    const sent = platform.ctx.outbox.list(email).length;
    const refused = await goOn(email, stateToken);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ details: { applicationError: { code: "THROTTLED_FEATURE" } } });
    expect(JSON.stringify(refused.body)).toMatch(/"retryAfterSeconds":(3[5-6]\d\d)/);
    expect(platform.ctx.outbox.list(email)).toHaveLength(sent);
    const verified = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken, emailData: { code: latestCode(email) } } });
    expect(verified.body.state).toBe("SUCCESS");
  });

  it("refuses a factor the member does not have on, and an unknown one", async () => {
    const { email } = await memberWithFactor({ type: "EMAIL" });
    const challenge = await call("/_api/iam/authentication/v2/login", { body: { loginId: { email }, password: PASSWORD } });
    expect((await goOn(email, challenge.body.stateToken!, "SMS")).status).toBe(400);
    expect((await goOn(email, challenge.body.stateToken!, "PUSH")).status).toBe(400);
    // The challenge itself still stands.
    expect((await goOn(email, challenge.body.stateToken!)).body.mfaChallengeData?.factorType).toBe("EMAIL");
  });

  it("on the hosted page: the way set up last is asked first, a button sends the code by the other, and its code logs in", async () => {
    const { email, phone } = await memberWithEmailAndSms();
    const mailed = platform.ctx.outbox.list(email).length;
    const { client, oauthData, browser, page: codePage } = await passwordOnHostedPage(platform.callbackUrl, { email, password: PASSWORD });
    // Text messages were turned on after e-mail codes: the page texts the code, and mails none.
    expect(codePage.text).toContain(`by text message to <strong>•••• ${phone.slice(-4)}</strong>`);
    expect(codePage.text).toContain("We ask for this way first because you set it up most recently");
    expect(platform.ctx.outbox.list(email)).toHaveLength(mailed);
    expect(codePage.text).toContain("Send the code by e-mail instead");
    const csrf = /name="csrf" value="([^"]*)"/.exec(codePage.text)![1];
    const rs = new URL(codePage.url).searchParams.get("rs")!;
    const switched = await browser.follow(await browser.post(`${platform.url}${HOSTED_PAGES.loginCodeSendBy}`, { rs, csrf, factorType: "EMAIL" }));
    expect(switched.text).toContain("We sent a 6-digit code by e-mail");
    expect(switched.text).toContain("Send the code by text message instead");
    // The member chose: the page no longer says why it led with the other way.
    expect(switched.text).not.toContain("We ask for this way first");
    const done = await browser.submitForm(switched.url, { code: latestCode(email)! });
    expect(done.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(done.location!, "query");
    expect((await client.auth.getMemberTokens(code, state, oauthData)).refreshToken.role).toBe("member");
    // The e-mailed code finished the login: this browser's next hosted login asks for it first.
    expect(browser.cookies.get("lp_way")).toBe("EMAIL");
    const { authUrl } = await client.auth.getAuthUrl(client.auth.generateOAuthData(platform.callbackUrl), { responseMode: "query" });
    const next = await browser.follow(await browser.submitForm(authUrl, { email, password: PASSWORD }));
    expect(next.text).toContain("We sent a 6-digit code by e-mail");
    expect(next.text).toContain("We ask for this way first because you last logged in with it on this browser");
  });
});
