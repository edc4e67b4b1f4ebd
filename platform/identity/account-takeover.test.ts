import { authentication } from "@wix/identity";
import { createClient, OAuthStrategy, type Tokens } from "@wix/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { openSignUp, refusalOf, startTestPlatform, type TestPlatform } from "../testing";
import { LoginSessionStore, PASSWORD_PROOF_TTL_MS } from "./login-sessions";
import { PROOFS_PER_SESSION } from "./throttle";

/**
 * What a stolen member access token can do to the account (docs/security.md, "Account recovery
 * and sessions"): not change the password, not use a password it set as proof, not outlast a change
 * of password made by the owner, and not guess the password faster than a login could.
 */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
  openSignUp(platform);
});
afterAll(() => platform.close());

const PASSWORD = "Granite-ridge-walk-42";
const NEW_PASSWORD = "Another-long-walk-7";
let counter = 0;
const freshEmail = () => `takeover-${Date.now()}-${++counter}@ridgeline.example`;
const strategy = () => OAuthStrategy({ clientId: LOCAL_CLIENT_ID });

/** A member session as the site holds it: member tokens from a form login's session token, on a client of the authentication module. */
async function signIn(email: string, password = PASSWORD) {
  const login = await strategy().login({ email, password });
  expect(login.loginState).toBe("SUCCESS");
  return sessionFrom((login as { data: { sessionToken: string } }).data.sessionToken);
}

function sessionFrom(sessionToken: string) {
  const session = platform.ctx.loginSessions.byToken(sessionToken)!;
  const issued = platform.ctx.tokens.issuePair({ role: "member", subjectId: session.memberId, clientId: LOCAL_CLIENT_ID, loginSessionId: session.id });
  const now = Math.floor(Date.now() / 1000);
  const tokens: Tokens = {
    accessToken: { value: issued.accessToken, expiresAt: now + issued.expiresIn },
    refreshToken: { value: issued.refreshToken, role: "member" as Tokens["refreshToken"]["role"] },
  };
  const client = createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID, tokens }) });
  return { client, memberId: session.memberId, accessToken: issued.accessToken, refreshToken: issued.refreshToken };
}

async function newMember() {
  const email = freshEmail();
  await strategy().register({ email, password: PASSWORD });
  return email;
}

/** A raw call with a member's token, for the factor endpoints no installed client function sends. */
async function call(path: string, token: string | null, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", ...(token && { authorization: token }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json()) as { factor?: { factorId: string }; sessionToken?: string; details?: { applicationError?: { code?: string } } };
  return { status: response.status, code: body.details?.applicationError?.code, body };
}

/** The password re-check the account page makes: a login sent with the member's own token. */
const recheck = (client: Awaited<ReturnType<typeof signIn>>["client"], email: string, password: string) =>
  client.authentication.loginV2({ email }, { password });

describe("changing the password", () => {
  it("is refused on the access token alone: the password stays and the owner still logs in", async () => {
    const email = await newMember();
    const thief = await signIn(email);
    expect(await refusalOf(thief.client.authentication.changePassword(NEW_PASSWORD))).toEqual({ status: 403, code: "REAUTHENTICATION_REQUIRED" });
    expect((await strategy().login({ email, password: PASSWORD })).loginState).toBe("SUCCESS");
    expect(await strategy().login({ email, password: NEW_PASSWORD })).toMatchObject({ errorCode: "invalidPassword" });
  });

  it("works once after the session re-checks the current password, a wrong re-check gives no such right", async () => {
    const email = await newMember();
    const owner = await signIn(email);
    await expect(recheck(owner.client, email, "not-the-password-1")).rejects.toMatchObject({ details: { applicationError: { code: "-19976" } } });
    expect(await refusalOf(owner.client.authentication.changePassword(NEW_PASSWORD))).toMatchObject({ code: "REAUTHENTICATION_REQUIRED" });

    expect(await recheck(owner.client, email, PASSWORD)).toMatchObject({ state: "SUCCESS" });
    // A password the platform refuses does not use up the re-check.
    await expect(owner.client.authentication.changePassword("password")).rejects.toMatchObject({ details: { validationError: expect.anything() } });
    await owner.client.authentication.changePassword(NEW_PASSWORD);
    expect((await strategy().login({ email, password: NEW_PASSWORD })).loginState).toBe("SUCCESS");
    // The re-check was used up by the change.
    expect(await refusalOf(owner.client.authentication.changePassword("Third-long-walk-9"))).toMatchObject({ code: "REAUTHENTICATION_REQUIRED" });
  });

  it("ends every other session and token pair of the member, keeps the one that changed it, and mails the member", async () => {
    const email = await newMember();
    const other = await signIn(email);
    const owner = await signIn(email);
    await recheck(owner.client, email, PASSWORD);
    await owner.client.authentication.changePassword(NEW_PASSWORD);

    expect(platform.ctx.tokens.resolveAccess(other.accessToken)).toBeNull();
    expect(platform.ctx.tokens.refresh(other.refreshToken, LOCAL_CLIENT_ID)).toBeNull();
    expect(platform.ctx.tokens.resolveAccess(owner.accessToken)).toMatchObject({ subjectId: owner.memberId });
    expect(platform.ctx.tokens.refresh(owner.refreshToken, LOCAL_CLIENT_ID)).not.toBeNull();
    const [mail] = platform.ctx.outbox.list(email).filter((each) => each.kind === "password-changed");
    expect(mail).toMatchObject({ subject: expect.stringContaining("password was changed"), text: expect.stringContaining("/forgot-password") });
  });

  it("a re-check counts for PASSWORD_PROOF_TTL_MS only", async () => {
    const { memberId } = await signIn(await newMember());
    let now = Date.now();
    const sessions = new LoginSessionStore(platform.ctx.db, () => now);
    const { session } = sessions.start(memberId);
    sessions.recordPasswordProof(session.id);
    now += PASSWORD_PROOF_TTL_MS + 1;
    expect(sessions.takePasswordProof(session.id)).toBe(false);
    sessions.recordPasswordProof(session.id);
    now += PASSWORD_PROOF_TTL_MS;
    expect(sessions.takePasswordProof(session.id)).toBe(true);
    expect(sessions.takePasswordProof(session.id)).toBe(false);
  });
});

describe("a password set in a session is no proof there for the second step", () => {
  it("cannot take the factors off with the password it set; a new login with that password can", async () => {
    const email = await newMember();
    const first = await signIn(email);
    const factor = await call("/_api/iam/factors/v1/factors", first.accessToken, { body: { factor: { type: "EMAIL" }, password: PASSWORD } });
    expect(factor.status).toBe(200);
    const factorId = factor.body.factor!.factorId;

    await recheck(first.client, email, PASSWORD);
    await first.client.authentication.changePassword(NEW_PASSWORD);
    const removal = await call(`/_api/iam/factors/v1/factors/${factorId}`, first.accessToken, { method: "DELETE", body: { password: NEW_PASSWORD } });
    expect(removal).toMatchObject({ status: 403, code: "REAUTHENTICATION_REQUIRED" });
    const codes = await call("/_api/iam/factors/v1/recovery-codes", first.accessToken, { body: { password: NEW_PASSWORD } });
    expect(codes).toMatchObject({ status: 403, code: "REAUTHENTICATION_REQUIRED" });
    expect((await call("/_api/iam/factors/v1/factors", first.accessToken, { method: "GET" })).body).toMatchObject({ factors: [{ factorId }] });

    // A new login with the new password passes the second step, which proves the owner: there the password counts.
    const visitor = createClient({ modules: { authentication }, auth: strategy() });
    const challenge = await visitor.authentication.loginV2({ email }, { password: NEW_PASSWORD });
    expect(challenge.state).toBe("MFA_CHALLENGE");
    const code = platform.ctx.outbox.list(email).find((mail) => mail.kind === "login-code")!.code;
    const verified = await call("/_api/iam/authentication/v2/email/verify", null, { body: { stateToken: challenge.stateToken, emailData: { code } } });
    const second = sessionFrom(verified.body.sessionToken!);
    expect((await call(`/_api/iam/factors/v1/factors/${factorId}`, second.accessToken, { method: "DELETE", body: { password: NEW_PASSWORD } })).status).toBe(
      200,
    );
  });
});

describe("the password re-check is throttled like a login", () => {
  it(`answers at most ${PROOFS_PER_SESSION} wrong guesses of a session, even sent at once; the owner's other sessions keep theirs`, async () => {
    const email = await newMember();
    const thief = await signIn(email);
    const owner = await signIn(email);
    const guesses = await Promise.all(Array.from({ length: 20 }, (_, index) => refusalOf(recheck(thief.client, email, `wrong-guess-${index}-long`))));
    const checked = guesses.filter((refusal) => refusal.code === "-19976");
    expect(checked).toHaveLength(PROOFS_PER_SESSION);
    expect(guesses.filter((refusal) => refusal.status === 429 && refusal.code === "THROTTLED_FEATURE")).toHaveLength(20 - PROOFS_PER_SESSION);
    // The right password, guessed next, is refused too: the session has no tries left.
    expect(await refusalOf(recheck(thief.client, email, PASSWORD))).toMatchObject({ status: 429, code: "THROTTLED_FEATURE" });
    expect(await refusalOf(thief.client.authentication.changePassword(NEW_PASSWORD))).toMatchObject({ code: "REAUTHENTICATION_REQUIRED" });

    expect(await recheck(owner.client, email, PASSWORD)).toMatchObject({ state: "SUCCESS" });
    await owner.client.authentication.changePassword(NEW_PASSWORD);
    expect(platform.ctx.tokens.resolveAccess(thief.accessToken)).toBeNull();
  });
});
