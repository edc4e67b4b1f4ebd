import { authentication } from "@wix/identity";
import { createClient, OAuthStrategy } from "@wix/sdk";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { MAX_VERIFICATION_ATTEMPTS } from "./verifications";
import { passwordOnHostedPage } from "./test-browser";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const PASSWORD = "Granite-ridge-walk-42";
const STEP_MS = 30_000;
let counter = 0;
const freshEmail = () => `authenticator-${Date.now()}-${++counter}@ridgeline.example`;

/** What an authenticator app shows for a secret, `steps` time steps from now. */
const appCode = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * STEP_MS });

/** Waits out the end of a time step, so that "now" on the platform is the step the test computed its codes for. */
async function awayFromStepEdge() {
  const left = TOTP.remaining({ period: 30 });
  if (left < 4_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

type Reply = {
  state?: string;
  sessionToken?: string;
  factor?: { factorId: string; status: string; factorStatus: string; totpData?: { secret: string; uri: string } };
  factors?: Array<{ factorId: string; type: string; factorStatus: string; totpData?: unknown }>;
  recoveryCodes?: string[] | { remaining: number };
  details?: { applicationError?: { code?: string } };
};

async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", ...(init.token && { authorization: init.token }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Reply };
}

const login = (email: string) =>
  createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) }).authentication.loginV2({ email }, { password: PASSWORD });
const verifyApp = (stateToken: string | null | undefined, code: string) =>
  call("/_api/iam/authentication/v2/totp/verify", { body: { stateToken, totpData: { code } } });
const errorCode = (reply: { body: Reply }) => reply.body.details?.applicationError?.code;

/** A new member with member tokens, who has started (not finished) turning an authenticator app on. */
async function memberStartingApp() {
  const email = freshEmail();
  const registered = await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).register({ email, password: PASSWORD });
  const session = platform.ctx.loginSessions.byToken((registered as { data: { sessionToken: string } }).data.sessionToken)!;
  const { accessToken } = platform.ctx.tokens.issuePair({ role: "member", subjectId: session.memberId, clientId: LOCAL_CLIENT_ID, loginSessionId: session.id });
  const started = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "TOTP" }, password: PASSWORD }, token: accessToken });
  expect(started.status).toBe(200);
  const { factorId, totpData } = started.body.factor!;
  return { email, accessToken, factorId, secret: totpData!.secret, uri: totpData!.uri };
}

/** As above, with the app turned on by its first code (which is then used up); with the recovery codes that came with it. */
async function memberWithApp() {
  const member = await memberStartingApp();
  await awayFromStepEdge();
  const activated = await call(`/_api/iam/factors/v1/factors/${member.factorId}/activate`, {
    body: { code: appCode(member.secret) },
    token: member.accessToken,
  });
  expect(activated.body.factor).toMatchObject({ status: "ACTIVE", factorStatus: "ENABLED" });
  return { ...member, recoveryCodes: activated.body.recoveryCodes as string[] };
}

describe("authenticator app: turning it on", () => {
  it("starts as REQUIRE_ACTIVATION with a secret and an otpauth link, and a login is not asked for it yet", async () => {
    const { email, accessToken, factorId, secret, uri } = await memberStartingApp();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const link = new URL(uri);
    expect([link.protocol, link.host]).toEqual(["otpauth:", "totp"]);
    expect(Object.fromEntries(link.searchParams)).toMatchObject({ secret, issuer: "Ridgeline Hiking Club", digits: "6", period: "30", algorithm: "SHA1" });
    expect(decodeURIComponent(link.pathname)).toBe(`/Ridgeline Hiking Club:${email}`);
    const listed = await call("/_api/iam/factors/v1/factors", { method: "GET", token: accessToken });
    expect(listed.body.factors).toEqual([{ factorId, type: "TOTP", status: "INACTIVE", factorStatus: "REQUIRE_ACTIVATION", totpData: { secret, uri } }]);
    expect((await login(email)).state).toBe("SUCCESS");
    // Guarding nothing yet, it is cancelled with the token alone.
    expect((await call(`/_api/iam/factors/v1/factors/${factorId}`, { method: "DELETE", token: accessToken })).status).toBe(200);
  });

  it("is ENABLED only by a right code; then the secret is never shown again and a login asks for the app's code", async () => {
    const { email, accessToken, factorId, secret } = await memberStartingApp();
    await awayFromStepEdge();
    const right = appCode(secret);
    const wrong = right === "000000" ? "111111" : "000000";
    const refused = await call(`/_api/iam/factors/v1/factors/${factorId}/activate`, { body: { code: wrong }, token: accessToken });
    expect([refused.status, errorCode(refused)]).toEqual([400, "VERIFICATION_FAILED"]);
    // Another member cannot activate it, even with the right code.
    const other = await memberStartingApp();
    const notTheirs = await call(`/_api/iam/factors/v1/factors/${factorId}/activate`, { body: { code: right }, token: other.accessToken });
    expect(notTheirs.status).toBe(404);

    const activated = await call(`/_api/iam/factors/v1/factors/${factorId}/activate`, { body: { code: right }, token: accessToken });
    expect(activated).toMatchObject({ status: 200, body: { factor: { factorId, type: "TOTP", status: "ACTIVE", factorStatus: "ENABLED" } } });
    expect(activated.body.factor?.totpData).toBeUndefined();
    expect((await call("/_api/iam/factors/v1/factors", { method: "GET", token: accessToken })).body.factors).toEqual([
      { factorId, type: "TOTP", status: "ACTIVE", factorStatus: "ENABLED" },
    ]);
    // Once enabled there is nothing left to activate.
    expect((await call(`/_api/iam/factors/v1/factors/${factorId}/activate`, { body: { code: appCode(secret, 1) }, token: accessToken })).status).toBe(404);

    const challenge = await login(email);
    expect(challenge).toMatchObject({
      state: "MFA_CHALLENGE",
      mfaChallengeData: {
        factorType: "TOTP",
        verificationChallengeData: { hint: "your authenticator app" },
        // The first app came with recovery codes, which answer the challenge too.
        availableFactors: [
          { factorType: "TOTP", factorStatus: "ENABLED" },
          { factorType: "RECOVERY_CODE", factorStatus: "ENABLED" },
        ],
      },
    });
    // Nothing is sent: the app makes the code.
    expect(platform.ctx.outbox.list(email).filter((mail) => mail.kind === "login-code")).toEqual([]);
  });
});

describe("authenticator app: logging in through /v2/totp/verify", () => {
  it("takes the current code, and one step either side, but not two", async () => {
    const { email, secret } = await memberWithApp();
    await awayFromStepEdge();
    // The activation used this step's code; the steps around it are still fresh.
    const early = await login(email);
    expect(errorCode(await verifyApp(early.stateToken, appCode(secret, -2)))).toBe("VERIFICATION_FAILED");
    expect(errorCode(await verifyApp(early.stateToken, appCode(secret, 2)))).toBe("VERIFICATION_FAILED");
    const ahead = await verifyApp(early.stateToken, appCode(secret, 1));
    expect(ahead).toMatchObject({ status: 200, body: { state: "SUCCESS", sessionToken: expect.any(String) } });
    expect(platform.ctx.loginSessions.byToken(ahead.body.sessionToken!)?.memberId).toBe(platform.ctx.identities.findForLogin(email)!.identity.id);
  });

  it("takes a code once: the same code, or an older one, is refused afterwards", async () => {
    const member = await memberStartingApp();
    await awayFromStepEdge();
    // Activated with the code of the step before now, which a slow phone would show.
    const behind = appCode(member.secret, -1);
    expect((await call(`/_api/iam/factors/v1/factors/${member.factorId}/activate`, { body: { code: behind }, token: member.accessToken })).status).toBe(200);
    const first = await login(member.email);
    expect(errorCode(await verifyApp(first.stateToken, behind))).toBe("VERIFICATION_FAILED");
    expect((await verifyApp(first.stateToken, appCode(member.secret))).body.state).toBe("SUCCESS");
    const second = await login(member.email);
    expect(errorCode(await verifyApp(second.stateToken, appCode(member.secret)))).toBe("VERIFICATION_FAILED");
    expect(errorCode(await verifyApp(second.stateToken, behind))).toBe("VERIFICATION_FAILED");
    expect((await verifyApp(second.stateToken, appCode(member.secret, 1))).body.state).toBe("SUCCESS");
  });

  it("refuses another member's code, a code by the wrong factor's endpoint, and a code of a removed app", async () => {
    const one = await memberWithApp();
    const other = await memberWithApp();
    await awayFromStepEdge();
    const challenge = await login(one.email);
    expect(errorCode(await verifyApp(challenge.stateToken, appCode(other.secret, 1)))).toBe("VERIFICATION_FAILED");
    const byEmail = await call("/_api/iam/authentication/v2/email/verify", {
      body: { stateToken: challenge.stateToken, emailData: { code: appCode(one.secret, 1) } },
    });
    expect(byEmail.status).toBe(400);
    const removed = await call(`/_api/iam/factors/v1/factors/${one.factorId}`, { method: "DELETE", body: { password: PASSWORD }, token: one.accessToken });
    expect(removed.status).toBe(200);
    expect(errorCode(await verifyApp(challenge.stateToken, appCode(one.secret, 1)))).toBe("VERIFICATION_FAILED");
  });

  it("counts wrong codes as for sent codes: past the limit even the right one is refused", async () => {
    const { email, secret } = await memberWithApp();
    await awayFromStepEdge();
    const { stateToken } = await login(email);
    const right = appCode(secret, 1);
    const wrong = right === "000000" ? "111111" : "000000";
    const answers = [];
    for (let attempt = 0; attempt < MAX_VERIFICATION_ATTEMPTS; attempt++) answers.push((await verifyApp(stateToken, wrong)).status);
    expect(answers).toEqual([...Array(MAX_VERIFICATION_ATTEMPTS - 1).fill(400), 429]);
    expect(errorCode(await verifyApp(stateToken, right))).toBe("THROTTLED_FEATURE");
  });

  it("names the missing totpData.code", async () => {
    const { email } = await memberWithApp();
    const { stateToken } = await login(email);
    const missing = await call("/_api/iam/authentication/v2/totp/verify", { body: { stateToken, smsData: { code: "123456" } } });
    expect(missing).toMatchObject({ status: 400, body: { details: { validationError: { fieldViolations: [{ field: "totpData.code" }] } } } });
  });
});

describe("authenticator app beside another factor", () => {
  const challengeData = (reply: unknown) => (reply as { mfaChallengeData?: { factorType: string; availableFactors: unknown[] } }).mfaChallengeData;
  const enrol = (token: string, factor: unknown) => call("/_api/iam/factors/v1/factors", { body: { factor, password: PASSWORD }, token });

  it("answers a challenge that sent an e-mail code: the member chooses the app instead", async () => {
    const { email, accessToken, factorId } = await memberWithApp();
    // E-mail codes first, then the app again: the login challenges the older factor, e-mail.
    await call(`/_api/iam/factors/v1/factors/${factorId}`, { method: "DELETE", body: { password: PASSWORD }, token: accessToken });
    expect((await enrol(accessToken, { type: "EMAIL" })).status).toBe(200);
    const app = (await enrol(accessToken, { type: "TOTP" })).body.factor!;
    await awayFromStepEdge();
    const secret = app.totpData!.secret;
    // Each code counts once, so the steps go up: activation one behind, then now, then one ahead.
    expect((await call(`/_api/iam/factors/v1/factors/${app.factorId}/activate`, { body: { code: appCode(secret, -1) }, token: accessToken })).status).toBe(200);

    const challenge = await login(email);
    expect(challengeData(challenge)).toMatchObject({
      factorType: "EMAIL",
      // The app came with recovery codes: listed too, so a login page offers the form for one.
      availableFactors: [
        { factorType: "EMAIL", factorStatus: "ENABLED" },
        { factorType: "TOTP", factorStatus: "ENABLED" },
        { factorType: "RECOVERY_CODE", factorStatus: "ENABLED" },
      ],
    });
    expect((await verifyApp(challenge.stateToken, appCode(secret))).body.state).toBe("SUCCESS");

    // The hosted page chooses before it sends: the app, set up after e-mail codes, is asked first and nothing is mailed;
    // the e-mailed code is a button away, and the recovery code under "Use another way".
    const mailed = platform.ctx.outbox.list(email).length;
    const { client, oauthData, browser, page: codePage } = await passwordOnHostedPage(platform.callbackUrl, { email, password: PASSWORD });
    expect(codePage.text).toContain("Open your authenticator app and enter the 6-digit code it shows for this site.");
    expect(codePage.text).toContain("We ask for this way first because you set it up most recently");
    expect(platform.ctx.outbox.list(email)).toHaveLength(mailed);
    expect(codePage.text).toContain("Send the code by e-mail instead");
    expect(codePage.text).not.toContain(`<label for="appCode">`);
    const byApp = await browser.submitForm(codePage.url, { way: "code", code: appCode(secret, 1) });
    expect(byApp.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(byApp.location!, "query");
    expect((await client.auth.getMemberTokens(code, state, oauthData)).refreshToken.role).toBe("member");
    expect(browser.cookies.get("lp_way")).toBe("TOTP");
  });

  it("on the hosted page, a member asked for the e-mailed code chooses the app under “Use another way”, in the same form", async () => {
    const { email, accessToken, factorId } = await memberWithApp();
    // The app, then e-mail codes: e-mail is the newest, so the hosted page mails the code first.
    await call(`/_api/iam/factors/v1/factors/${factorId}`, { method: "DELETE", body: { password: PASSWORD }, token: accessToken });
    const app = (await enrol(accessToken, { type: "TOTP" })).body.factor!;
    await awayFromStepEdge();
    const secret = app.totpData!.secret;
    expect((await call(`/_api/iam/factors/v1/factors/${app.factorId}/activate`, { body: { code: appCode(secret, -1) }, token: accessToken })).status).toBe(200);
    expect((await enrol(accessToken, { type: "EMAIL" })).status).toBe(200);
    const { client, oauthData, browser, page: codePage } = await passwordOnHostedPage(platform.callbackUrl, { email, password: PASSWORD });
    expect(codePage.text).toContain("We sent a 6-digit code by e-mail");
    expect(codePage.text).toMatch(/<details class="ways">\n<summary>Use another way<\/summary>[\s\S]*<label for="appCode">Code from your app<\/label>/);
    // One "Remember this device" box, for every way.
    expect(codePage.text.match(/name="remember"/g)).toHaveLength(1);
    // A wrong app code comes back with "Use another way" open, at the app's field.
    const wrong = await browser.follow(await browser.submitForm(codePage.url, { way: "app", code: "", appCode: appCode(secret, 5) }));
    expect(wrong.text).toContain(`<details class="ways" open>`);
    expect(wrong.text).toMatch(/<input id="appCode"[^>]*aria-invalid="true" autofocus>/);
    // Enter in the app's field presses the form's first button ("Log in", the e-mailed code's): the filled field wins.
    const byApp = await browser.submitForm(codePage.url, { way: "code", code: "", appCode: appCode(secret, 1), remember: "1" });
    expect(byApp.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(byApp.location!, "query");
    expect((await client.auth.getMemberTokens(code, state, oauthData)).refreshToken.role).toBe("member");
    expect(browser.cookies.get("lp_way")).toBe("TOTP");
    expect(browser.cookies.get("lp_device")).toBeTruthy();
  });

  it("does not let a member whose app was never turned on answer by app", async () => {
    const member = await memberStartingApp();
    expect((await enrol(member.accessToken, { type: "EMAIL" })).status).toBe(200);
    const challenge = await login(member.email);
    expect(challengeData(challenge)?.factorType).toBe("EMAIL");
    await awayFromStepEdge();
    expect(errorCode(await verifyApp(challenge.stateToken, appCode(member.secret)))).toBe("VERIFICATION_FAILED");
  });
});

describe("authenticator app: the hosted login page", () => {
  it("asks for the app's code after the password and signs in with it", async () => {
    const { email, secret } = await memberWithApp();
    const { client, oauthData, browser, page: codePage } = await passwordOnHostedPage(platform.callbackUrl, { email, password: PASSWORD });
    expect(codePage.text).toContain("Open your authenticator app and enter the 6-digit code");
    await awayFromStepEdge();
    const right = await browser.submitForm(codePage.url, { code: appCode(secret, 1) });
    expect(right.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(right.location!, "query");
    expect((await client.auth.getMemberTokens(code, state, oauthData)).refreshToken.role).toBe("member");
  });
});

describe("recovery codes", () => {
  const verifyRecovery = (stateToken: string | null | undefined, code: string) =>
    call("/_api/iam/authentication/v2/recovery_code/verify", { body: { stateToken, recoveryCodeData: { code } } });
  const remaining = async (token: string) =>
    ((await call("/_api/iam/factors/v1/factors", { method: "GET", token })).body.recoveryCodes as { remaining: number }).remaining;

  it("come once, with the first app: ten of them, kept only as digests", async () => {
    const { accessToken, recoveryCodes, factorId, email } = await memberWithApp();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect(await remaining(accessToken)).toBe(10);
    const identityId = platform.ctx.identities.findForLogin(email)!.identity.id;
    const stored = platform.ctx.db.prepare("SELECT code_hash FROM identity_recovery_codes WHERE identity_id = ?").all(identityId) as { code_hash: string }[];
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) expect(recoveryCodes.map((code) => code.replace("-", ""))).not.toContain(code_hash);

    // An app set up again later comes without new codes: the member has theirs.
    await call(`/_api/iam/factors/v1/factors/${factorId}`, { method: "DELETE", body: { password: PASSWORD }, token: accessToken });
    const again = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "TOTP" }, password: PASSWORD }, token: accessToken });
    await awayFromStepEdge();
    const { secret } = again.body.factor!.totpData!;
    const activated = await call(`/_api/iam/factors/v1/factors/${again.body.factor!.factorId}/activate`, {
      body: { code: appCode(secret) },
      token: accessToken,
    });
    expect(activated.status).toBe(200);
    expect(activated.body.recoveryCodes).toBeUndefined();
  });

  it("log in in place of the app's code, each once, for their own member only; case and dashes do not matter", async () => {
    const { email, accessToken, recoveryCodes } = await memberWithApp();
    const other = await memberWithApp();
    const first = await login(email);
    expect(errorCode(await verifyRecovery(first.stateToken, other.recoveryCodes[0]))).toBe("VERIFICATION_FAILED");
    const typed = recoveryCodes[0].toLowerCase().replace("-", " ");
    const signedIn = await verifyRecovery(first.stateToken, typed);
    expect(signedIn).toMatchObject({ status: 200, body: { state: "SUCCESS", sessionToken: expect.any(String) } });
    expect(await remaining(accessToken)).toBe(9);

    const second = await login(email);
    expect(errorCode(await verifyRecovery(second.stateToken, recoveryCodes[0]))).toBe("VERIFICATION_FAILED");
    expect((await verifyRecovery(second.stateToken, recoveryCodes[1])).body.state).toBe("SUCCESS");
    // The other member's code still works for them.
    expect((await verifyRecovery((await login(other.email)).stateToken, other.recoveryCodes[0])).body.state).toBe("SUCCESS");
  });

  it("are made anew only with the password or a current app code; the earlier ones then stop working", async () => {
    const { email, accessToken, recoveryCodes, secret } = await memberWithApp();
    const path = "/_api/iam/factors/v1/recovery-codes";
    // The access token alone is not enough.
    const bare = await call(path, { body: {}, token: accessToken });
    expect(bare).toMatchObject({ status: 400, body: { details: { validationError: { fieldViolations: [{ field: "password" }] } } } });
    const wrongPassword = await call(path, { body: { password: "not-the-password" }, token: accessToken });
    expect([wrongPassword.status, errorCode(wrongPassword)]).toEqual([403, "-19976"]);
    await awayFromStepEdge();
    const wrongCode = await call(path, { body: { totpData: { code: appCode(secret, 2) } }, token: accessToken });
    expect([wrongCode.status, errorCode(wrongCode)]).toEqual([400, "VERIFICATION_FAILED"]);

    const byPassword = await call(path, { body: { password: PASSWORD }, token: accessToken });
    expect(byPassword.status).toBe(200);
    const fresh = byPassword.body.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);
    const challenge = await login(email);
    expect(errorCode(await verifyRecovery(challenge.stateToken, recoveryCodes[0]))).toBe("VERIFICATION_FAILED");
    expect((await verifyRecovery(challenge.stateToken, fresh[0])).body.state).toBe("SUCCESS");

    const byApp = await call(path, { body: { totpData: { code: appCode(secret, 1) } }, token: accessToken });
    expect(byApp.status).toBe(200);
    // That app code is now used: it proves nothing a second time.
    expect(errorCode(await call(path, { body: { totpData: { code: appCode(secret, 1) } }, token: accessToken }))).toBe("VERIFICATION_FAILED");
  });

  it("work on the hosted login page, in a form of their own beside the code", async () => {
    const { email, recoveryCodes } = await memberWithApp();
    const { client, oauthData, browser, page: codePage } = await passwordOnHostedPage(platform.callbackUrl, { email, password: PASSWORD });
    expect(codePage.text).toMatch(/<label for="recoveryCode">Recovery code<\/label>/);
    const wrong = await browser.follow(await browser.submitForm(codePage.url, { code: "", recoveryCode: "AAAAA-AAAAA" }));
    expect(wrong.text).toContain("That recovery code is not right");
    expect(wrong.text).toMatch(/<input id="recoveryCode"[^>]*aria-invalid="true"[^>]*autofocus/);
    const right = await browser.submitForm(codePage.url, { code: "", recoveryCode: recoveryCodes[3] });
    expect(right.status).toBe(303);
    const { code, state } = client.auth.parseFromUrl(right.location!, "query");
    expect((await client.auth.getMemberTokens(code, state, oauthData)).refreshToken.role).toBe("member");
  });
});
