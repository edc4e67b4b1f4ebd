import { generateKeyPairSync, sign } from "node:crypto";
import { authentication } from "@wix/identity";
import { createClient, OAuthStrategy } from "@wix/sdk";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../config";
import { startTestPlatform, type TestPlatform } from "../testing";
import { SoftAuthenticator, b64url, enrolPasskey, newMember } from "./test-authenticator";
import { MAX_VERIFICATION_ATTEMPTS } from "./verifications";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const PASSWORD = "Granite-ridge-walk-42";
let emails = 0;
const freshEmail = () => `passkey-${Date.now()}-${++emails}@ridgeline.example`;

type Reply = {
  state?: string;
  sessionToken?: string;
  message?: string;
  challengeId?: string;
  publicKeyCredentialCreationOptionsJson?: string;
  passkey?: { passkeyId: string; name: string; createdDate: string; lastUsedDate: string | null };
  passkeys?: Array<{ passkeyId: string; name: string; createdDate: string; lastUsedDate: string | null }>;
  userVerification?: string;
  factorId?: string;
  factors?: Array<{ factorId: string; type: string; factorStatus: string }>;
  recoveryCodes?: string[];
  details?: { applicationError?: { code?: string; description?: string } };
};

async function call(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/json", ...(init.token && { authorization: init.token }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Reply };
}
const errorCode = (reply: { body: Reply }) => reply.body.details?.applicationError?.code;

/** The SDK's login reply types no `mfaChallengeData`, yet hands the platform's on: the part a passkey step reads. */
type PasskeyChallengeReply = {
  state?: string;
  stateToken?: string | null;
  mfaChallengeData?: { verificationChallengeData?: { webauthnData?: { challengeId?: string; publicKeyCredentialRequestOptionsJson?: string } } };
};

const login = (email: string): Promise<PasskeyChallengeReply> =>
  createClient({ modules: { authentication }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) }).authentication.loginV2({ email }, { password: PASSWORD });

/** A login's passkey challenge, as the SDK hands it to the site. */
async function passkeyLogin(email: string) {
  const challenge = await login(email);
  expect(challenge.state).toBe("MFA_CHALLENGE");
  const webauthnData = challenge.mfaChallengeData?.verificationChallengeData?.webauthnData;
  expect(webauthnData?.challengeId).toBeTruthy();
  return { stateToken: challenge.stateToken!, challengeId: webauthnData!.challengeId!, optionsJson: webauthnData!.publicKeyCredentialRequestOptionsJson! };
}

const verifyPasskey = (stateToken: string, challengeId: string, credential: string) =>
  call("/_api/iam/authentication/v2/webauthn/verify", { body: { stateToken, webauthnData: { challengeId, credential } } });

const member = () => newMember(platform, freshEmail(), PASSWORD);

/** Runs the registration ceremony for a new passkey of the member's. */
async function addPasskey(who: { accessToken: string }, name = "Laptop", userVerification?: string) {
  const { authenticator, status, body } = await enrolPasskey(platform, who, { password: PASSWORD, name, userVerification });
  expect([status, body.message]).toEqual([200, undefined]);
  return { authenticator, added: body as Reply };
}

describe("passkeys: adding, listing and removing", () => {
  it("registers passkeys with the site as relying party; the first turns WEBAUTHN on and brings recovery codes", async () => {
    const who = await member();
    const options = await call("/_api/iam/factors/v1/passkeys/registration-options", { body: { password: PASSWORD }, token: who.accessToken });
    const creation = JSON.parse(options.body.publicKeyCredentialCreationOptionsJson!) as Record<string, unknown>;
    const site = new URL(platform.ctx.config.siteUrl);
    expect(creation).toMatchObject({ rp: { id: site.hostname, name: "Ridgeline Hiking Club" }, user: { name: who.email }, attestation: "none" });

    const first = await addPasskey(who, "Laptop");
    expect(first.added.recoveryCodes).toHaveLength(10);
    expect(first.added.passkey).toMatchObject({ passkeyId: first.authenticator.id, name: "Laptop", lastUsedDate: null });
    const second = await addPasskey(who, "Phone");
    expect(second.added.recoveryCodes).toBeUndefined();
    expect(second.added.factorId).toBe(first.added.factorId);

    const listed = await call("/_api/iam/factors/v1/passkeys", { method: "GET", token: who.accessToken });
    expect(listed.body.passkeys?.map((each) => each.name)).toEqual(["Laptop", "Phone"]);
    const factors = await call("/_api/iam/factors/v1/factors", { method: "GET", token: who.accessToken });
    expect(factors.body.factors).toEqual([{ factorId: first.added.factorId, type: "WEBAUTHN", status: "ACTIVE", factorStatus: "ENABLED" }]);
  });

  it("needs the password to start, and a challenge answered once, by the member it was made for", async () => {
    const who = await member();
    const noProof = await call("/_api/iam/factors/v1/passkeys/registration-options", { body: {}, token: who.accessToken });
    expect(noProof.status).toBe(400);
    const wrong = await call("/_api/iam/factors/v1/passkeys/registration-options", { body: { password: "not-it" }, token: who.accessToken });
    expect(wrong.status).toBe(403);
    const anonymous = await call("/_api/iam/factors/v1/passkeys/registration-options", { body: { password: PASSWORD } });
    expect(anonymous.status).toBe(403);

    const options = await call("/_api/iam/factors/v1/passkeys/registration-options", { body: { password: PASSWORD }, token: who.accessToken });
    const authenticator = new SoftAuthenticator(platform.ctx.config.siteUrl);
    const credential = authenticator.create(options.body.publicKeyCredentialCreationOptionsJson!);
    const other = await member();
    const byOther = await call("/_api/iam/factors/v1/passkeys", {
      body: { challengeId: options.body.challengeId, credential, name: "Theirs" },
      token: other.accessToken,
    });
    expect([byOther.status, errorCode(byOther)]).toEqual([400, "VERIFICATION_FAILED"]);
    const body = { challengeId: options.body.challengeId, credential, name: "Mine" };
    expect((await call("/_api/iam/factors/v1/passkeys", { body, token: who.accessToken })).status).toBe(200);
    const again = await call("/_api/iam/factors/v1/passkeys", { body, token: who.accessToken });
    expect([again.status, again.body.message]).toEqual([400, "This passkey registration has expired or was already finished. Start again."]);

    // An answer made for another origin than the site's is refused.
    const foreign = new SoftAuthenticator("https://elsewhere.example");
    const next = await call("/_api/iam/factors/v1/passkeys/registration-options", { body: { password: PASSWORD }, token: who.accessToken });
    const refused = await call("/_api/iam/factors/v1/passkeys", {
      body: { challengeId: next.body.challengeId, credential: foreign.create(next.body.publicKeyCredentialCreationOptionsJson!), name: "Foreign" },
      token: who.accessToken,
    });
    expect([refused.status, errorCode(refused)]).toEqual([400, "VERIFICATION_FAILED"]);
    const garbled = await call("/_api/iam/factors/v1/passkeys", { body: { challengeId: "x", credential: "{not json", name: "x" }, token: who.accessToken });
    expect(garbled.status).toBe(400);
    expect((await call("/_api/iam/factors/v1/passkeys", { method: "GET", token: who.accessToken })).body.passkeys).toHaveLength(1);
  });

  it("is not enrolled through the generic factor call", async () => {
    const who = await member();
    const refused = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "WEBAUTHN" }, password: PASSWORD }, token: who.accessToken });
    expect(refused.status).toBe(400);
    expect((await login(who.email)).state).toBe("SUCCESS");
  });

  it("removes a passkey only with proof; the last one gone turns the factor off", async () => {
    const who = await member();
    const { authenticator } = await addPasskey(who);
    const path = `/_api/iam/factors/v1/passkeys/${authenticator.id}`;
    expect((await call(path, { method: "DELETE", body: {}, token: who.accessToken })).status).toBe(400);
    expect((await call(path, { method: "DELETE", body: { password: "not-it" }, token: who.accessToken })).status).toBe(403);
    const other = await member();
    expect((await call(path, { method: "DELETE", body: { password: PASSWORD }, token: other.accessToken })).status).toBe(404);
    expect((await call(path, { method: "DELETE", body: { password: PASSWORD }, token: who.accessToken })).status).toBe(200);
    expect((await call("/_api/iam/factors/v1/factors", { method: "GET", token: who.accessToken })).body.factors).toEqual([]);
    expect((await login(who.email)).state).toBe("SUCCESS");
  });

  it("forgets the member's remembered browsers when a passkey is added or removed, as any factor change does", async () => {
    const who = await member();
    platform.ctx.rememberedDevices.remember(who.memberId, "Firefox on Linux");
    const { authenticator } = await addPasskey(who);
    expect(platform.ctx.rememberedDevices.list(who.memberId)).toEqual([]);
    platform.ctx.rememberedDevices.remember(who.memberId, "Firefox on Linux");
    await call(`/_api/iam/factors/v1/passkeys/${authenticator.id}`, { method: "DELETE", body: { password: PASSWORD }, token: who.accessToken });
    expect(platform.ctx.rememberedDevices.list(who.memberId)).toEqual([]);
  });

  it("turning the WEBAUTHN factor off (with proof) removes all the member's passkeys", async () => {
    const who = await member();
    const { added } = await addPasskey(who, "Laptop");
    await addPasskey(who, "Phone");
    const path = `/_api/iam/factors/v1/factors/${added.factorId}`;
    expect((await call(path, { method: "DELETE", body: {}, token: who.accessToken })).status).toBe(400);
    expect((await call(path, { method: "DELETE", body: { password: PASSWORD }, token: who.accessToken })).status).toBe(200);
    expect((await call("/_api/iam/factors/v1/passkeys", { method: "GET", token: who.accessToken })).body.passkeys).toEqual([]);
    expect((await login(who.email)).state).toBe("SUCCESS");
  });
});

describe("passkeys: the login's second step", () => {
  it("challenges with the member's passkeys and signs in with a right assertion; the last-used date is kept", async () => {
    const who = await member();
    const laptop = await addPasskey(who, "Laptop");
    const phone = await addPasskey(who, "Phone");
    const challenge = await login(who.email);
    expect(challenge).toMatchObject({
      state: "MFA_CHALLENGE",
      // The first passkey came with recovery codes, which answer the challenge too.
      mfaChallengeData: {
        factorType: "WEBAUTHN",
        verificationChallengeData: { hint: "your passkey" },
        availableFactors: [{ factorType: "WEBAUTHN" }, { factorType: "RECOVERY_CODE" }],
      },
    });
    // No code is mailed for a passkey.
    expect(platform.ctx.outbox.list().filter((mail) => mail.to === who.email && mail.kind === "login-code")).toEqual([]);
    const webauthnData = challenge.mfaChallengeData!.verificationChallengeData!.webauthnData!;
    const options = JSON.parse(webauthnData.publicKeyCredentialRequestOptionsJson!) as Record<string, unknown>;
    expect(options).toMatchObject({
      rpId: new URL(platform.ctx.config.siteUrl).hostname,
      userVerification: "preferred",
      extensions: {},
      allowCredentials: [
        { id: laptop.authenticator.id, type: "public-key", transports: ["internal"] },
        { id: phone.authenticator.id, type: "public-key", transports: ["internal"] },
      ],
    });
    expect(options.challenge).toMatch(/^[\w-]{43}$/);

    const credential = phone.authenticator.get(webauthnData.publicKeyCredentialRequestOptionsJson!);
    const signedIn = await verifyPasskey(challenge.stateToken!, webauthnData.challengeId!, credential);
    expect(signedIn.body.state).toBe("SUCCESS");
    expect(platform.ctx.loginSessions.byToken(signedIn.body.sessionToken!)?.memberId).toBe(who.memberId);
    const listed = await call("/_api/iam/factors/v1/passkeys", { method: "GET", token: who.accessToken });
    expect(listed.body.passkeys?.find((each) => each.name === "Phone")?.lastUsedDate).toEqual(expect.any(String));
    expect(listed.body.passkeys?.find((each) => each.name === "Laptop")?.lastUsedDate).toBeNull();

    // Replayed: the login it answered is over, and at a new login its challenge is not the new one.
    const replayed = await verifyPasskey(challenge.stateToken!, webauthnData.challengeId!, credential);
    expect([replayed.status, errorCode(replayed)]).toEqual([400, "VERIFICATION_EXPIRED"]);
    const next = await passkeyLogin(who.email);
    const atNext = await verifyPasskey(next.stateToken, next.challengeId, credential);
    expect([atNext.status, errorCode(atNext)]).toEqual([400, "VERIFICATION_FAILED"]);
    expect(atNext.body.message).toMatch(/^The passkey's answer could not be verified: .*challenge/);
    const withOldChallenge = await verifyPasskey((await passkeyLogin(who.email)).stateToken, webauthnData.challengeId!, credential);
    expect(withOldChallenge.body.message).toBe("This passkey challenge has expired or was already answered. Log in again for a new one.");
  });

  it("refuses a replayed assertion at its own challenge, a wrong origin and a bad signature", async () => {
    const who = await member();
    const { authenticator } = await addPasskey(who);
    const first = await passkeyLogin(who.email);
    // A wrong answer uses the challenge up: the same challenge cannot be answered twice.
    const elsewhere = await verifyPasskey(first.stateToken, first.challengeId, authenticator.get(first.optionsJson, { origin: "https://elsewhere.example" }));
    expect([elsewhere.status, errorCode(elsewhere)]).toEqual([400, "VERIFICATION_FAILED"]);
    expect(elsewhere.body.message).toMatch(/^The passkey's answer could not be verified: .*origin/);
    const retried = await verifyPasskey(first.stateToken, first.challengeId, authenticator.get(first.optionsJson));
    expect(retried.body.message).toBe("This passkey challenge has expired or was already answered. Log in again for a new one.");

    const second = await passkeyLogin(who.email);
    const tampered = JSON.parse(authenticator.get(second.optionsJson)) as { response: { signature: string } };
    tampered.response.signature = b64url(sign("sha256", Buffer.from("something else"), generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey));
    const forged = await verifyPasskey(second.stateToken, second.challengeId, JSON.stringify(tampered));
    expect([forged.status, errorCode(forged)]).toEqual([400, "VERIFICATION_FAILED"]);
  });

  it("refuses a counter that did not increase", async () => {
    const who = await member();
    const { authenticator } = await addPasskey(who);
    const first = await passkeyLogin(who.email);
    expect((await verifyPasskey(first.stateToken, first.challengeId, authenticator.get(first.optionsJson, { counter: 7 }))).body.state).toBe("SUCCESS");
    for (const counter of [7, 3]) {
      const next = await passkeyLogin(who.email);
      const refused = await verifyPasskey(next.stateToken, next.challengeId, authenticator.get(next.optionsJson, { counter }));
      expect([refused.status, errorCode(refused), refused.body.message]).toEqual([
        400,
        "VERIFICATION_FAILED",
        "This passkey's signature counter did not increase: the answer was replayed or the passkey copied.",
      ]);
    }
    const last = await passkeyLogin(who.email);
    expect((await verifyPasskey(last.stateToken, last.challengeId, authenticator.get(last.optionsJson, { counter: 8 }))).body.state).toBe("SUCCESS");
  });

  it("refuses another member's passkey and a removed one", async () => {
    const who = await member();
    await addPasskey(who);
    const other = await member();
    const theirs = await addPasskey(other);
    const challenge = await passkeyLogin(who.email);
    const wrongUser = await verifyPasskey(challenge.stateToken, challenge.challengeId, theirs.authenticator.get(challenge.optionsJson));
    expect([wrongUser.status, wrongUser.body.message]).toEqual([400, "This passkey belongs to another member."]);

    const { authenticator: spare } = await addPasskey(who, "Spare");
    const beforeRemoval = await passkeyLogin(who.email);
    expect((await call(`/_api/iam/factors/v1/passkeys/${spare.id}`, { method: "DELETE", body: { password: PASSWORD }, token: who.accessToken })).status).toBe(
      200,
    );
    const removed = await verifyPasskey(beforeRemoval.stateToken, beforeRemoval.challengeId, spare.get(beforeRemoval.optionsJson));
    expect([removed.status, removed.body.message]).toEqual([400, "This passkey is not registered: it may have been removed."]);
  });

  it("counts refusals as wrong codes: past the limit the login is refused, a right answer too", async () => {
    const who = await member();
    const { authenticator } = await addPasskey(who);
    const other = await member();
    const theirs = await addPasskey(other);
    const { stateToken, challengeId, optionsJson } = await passkeyLogin(who.email);
    const answers = [];
    for (let attempt = 0; attempt < MAX_VERIFICATION_ATTEMPTS; attempt++) {
      answers.push(await verifyPasskey(stateToken, challengeId, theirs.authenticator.get(optionsJson)));
    }
    expect(answers.map((answer) => [answer.status, errorCode(answer)])).toEqual([
      ...Array.from({ length: MAX_VERIFICATION_ATTEMPTS - 1 }, () => [400, "VERIFICATION_FAILED"]),
      [429, "THROTTLED_FEATURE"],
    ]);
    const right = await verifyPasskey(stateToken, challengeId, authenticator.get(optionsJson));
    expect([right.status, errorCode(right)]).toEqual([400, "VERIFICATION_EXPIRED"]);
  });

  it("leaves recovery codes and an authenticator app working at a passkey challenge, and takes no e-mailed code", async () => {
    const who = await member();
    const { added } = await addPasskey(who);
    const challenge = await passkeyLogin(who.email);
    const recovered = await call("/_api/iam/authentication/v2/recovery_code/verify", {
      body: { stateToken: challenge.stateToken, recoveryCodeData: { code: added.recoveryCodes![0] } },
    });
    expect(recovered.body.state).toBe("SUCCESS");

    // No code was sent, so none is taken by e-mail.
    const next = await passkeyLogin(who.email);
    const byEmail = await call("/_api/iam/authentication/v2/email/verify", { body: { stateToken: next.stateToken, emailData: { code: "123456" } } });
    expect([byEmail.status, errorCode(byEmail)]).toEqual([400, "INVALID_ARGUMENT"]);

    const started = await call("/_api/iam/factors/v1/factors", { body: { factor: { type: "TOTP" }, password: PASSWORD }, token: who.accessToken });
    const { factorId, totpData } = (started.body as unknown as { factor: { factorId: string; totpData: { secret: string } } }).factor;
    const appCode = (steps: number) => TOTP.generate({ secret: Secret.fromBase32(totpData.secret), timestamp: Date.now() + steps * 30_000 });
    expect((await call(`/_api/iam/factors/v1/factors/${factorId}/activate`, { body: { code: appCode(0) }, token: who.accessToken })).status).toBe(200);
    const withApp = await passkeyLogin(who.email);
    // The activation used this time step's code up; the next step's is within the drift allowed.
    const byApp = await call("/_api/iam/authentication/v2/totp/verify", { body: { stateToken: withApp.stateToken, totpData: { code: appCode(1) } } });
    expect(byApp.body.state).toBe("SUCCESS");
  });
});

describe("passkeys: the member's user-verification preference", () => {
  const listed = async (who: { accessToken: string }) => (await call("/_api/iam/factors/v1/passkeys", { method: "GET", token: who.accessToken })).body;
  const startAdding = (who: { accessToken: string }, userVerification?: string) =>
    call("/_api/iam/factors/v1/passkeys/registration-options", { body: { password: PASSWORD, userVerification }, token: who.accessToken });

  it("is PREFERRED until chosen, and then asked at registration and at login; an answer without the person's check is taken", async () => {
    const who = await member();
    expect(await listed(who)).toEqual({ passkeys: [], userVerification: "PREFERRED" });
    const options = await startAdding(who);
    const creation = JSON.parse(options.body.publicKeyCredentialCreationOptionsJson!) as { authenticatorSelection: { userVerification: string } };
    expect(creation.authenticatorSelection.userVerification).toBe("preferred");
    const authenticator = new SoftAuthenticator(platform.ctx.config.siteUrl);
    const credential = authenticator.create(options.body.publicKeyCredentialCreationOptionsJson!, { userVerified: false });
    const added = await call("/_api/iam/factors/v1/passkeys", {
      body: { challengeId: options.body.challengeId, credential, name: "Key" },
      token: who.accessToken,
    });
    expect(added.status).toBe(200);

    const challenge = await passkeyLogin(who.email);
    expect(JSON.parse(challenge.optionsJson)).toMatchObject({ userVerification: "preferred" });
    const answer = authenticator.get(challenge.optionsJson, { userVerified: false });
    expect((await verifyPasskey(challenge.stateToken, challenge.challengeId, answer)).body.state).toBe("SUCCESS");
  });

  it("REQUIRED: kept for the member, asked in the options, and an answer without the user-verification flag is refused", async () => {
    const who = await member();
    const options = await startAdding(who, "REQUIRED");
    const creation = JSON.parse(options.body.publicKeyCredentialCreationOptionsJson!) as { authenticatorSelection: { userVerification: string } };
    expect(creation.authenticatorSelection.userVerification).toBe("required");
    const unverified = new SoftAuthenticator(platform.ctx.config.siteUrl);
    const refusedRegistration = await call("/_api/iam/factors/v1/passkeys", {
      body: {
        challengeId: options.body.challengeId,
        credential: unverified.create(options.body.publicKeyCredentialCreationOptionsJson!, { userVerified: false }),
        name: "Key",
      },
      token: who.accessToken,
    });
    expect([refusedRegistration.status, errorCode(refusedRegistration)]).toEqual([400, "VERIFICATION_FAILED"]);
    expect(refusedRegistration.body.message).toMatch(/user could not be verified/i);

    // Left out, the preference stays as chosen.
    const { authenticator } = await addPasskey(who, "Key");
    expect(await listed(who)).toMatchObject({ userVerification: "REQUIRED" });
    const challenge = await passkeyLogin(who.email);
    expect(JSON.parse(challenge.optionsJson)).toMatchObject({ userVerification: "required" });
    const withoutCheck = await verifyPasskey(challenge.stateToken, challenge.challengeId, authenticator.get(challenge.optionsJson, { userVerified: false }));
    expect([withoutCheck.status, errorCode(withoutCheck)]).toEqual([400, "VERIFICATION_FAILED"]);
    expect(withoutCheck.body.message).toMatch(/^The passkey's answer could not be verified: .*user could not be verified/i);
    const next = await passkeyLogin(who.email);
    expect((await verifyPasskey(next.stateToken, next.challengeId, authenticator.get(next.optionsJson))).body.state).toBe("SUCCESS");

    // Back to PREFERRED: the same passkey's answer without the check is taken.
    expect((await startAdding(who, "PREFERRED")).status).toBe(200);
    const relaxed = await passkeyLogin(who.email);
    const taken = await verifyPasskey(relaxed.stateToken, relaxed.challengeId, authenticator.get(relaxed.optionsJson, { userVerified: false }));
    expect(taken.body.state).toBe("SUCCESS");
  });

  it("takes DISCOURAGED, refuses a value outside the specification's and changes nothing without the member's proof", async () => {
    const who = await member();
    expect((await startAdding(who, "DISCOURAGED")).status).toBe(200);
    expect(await listed(who)).toMatchObject({ userVerification: "DISCOURAGED" });
    expect((await startAdding(who, "required")).status).toBe(400);
    const unproven = await call("/_api/iam/factors/v1/passkeys/registration-options", {
      body: { password: "not-it", userVerification: "REQUIRED" },
      token: who.accessToken,
    });
    expect(unproven.status).toBe(403);
    expect(await listed(who)).toMatchObject({ userVerification: "DISCOURAGED" });
  });

  it("remembers the browser when the verify asks it to, as the code factors do", async () => {
    const who = await member();
    const { authenticator } = await addPasskey(who);
    const challenge = await passkeyLogin(who.email);
    const verified = await call("/_api/iam/authentication/v2/webauthn/verify", {
      body: {
        stateToken: challenge.stateToken,
        webauthnData: { challengeId: challenge.challengeId, credential: authenticator.get(challenge.optionsJson) },
        rememberThisDevice: true,
      },
    });
    expect(verified.body.state).toBe("SUCCESS");
    expect((verified.body as { additionalData?: { deviceToken?: { strValue?: string } } }).additionalData?.deviceToken?.strValue).toEqual(expect.any(String));
    expect(platform.ctx.rememberedDevices.list(who.memberId)).toHaveLength(1);
  });
});
