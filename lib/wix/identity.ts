import "server-only";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { OAuthStrategy } from "@wix/sdk";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { LOCAL_CAPTCHA_TOKEN, LOCAL_MAILBOX_PATH } from "@ridgeline/platform-contract";
import { publicRead, publicVisitorPair, sessionClient, type WixClient } from "./client";
import { privacyStatusOf } from "./members";
import { PlatformUnavailableError, readRefusal, refusalOf, type Refusal } from "./errors";
import { platformCall, platformFetch, withinPlatformTimeout } from "./platform-fetch";

/** What a registration, login or verification came to, in the site's own terms. */
export type AuthOutcome =
  /** `deviceToken`: the browser was remembered at this step; it shows the token at its next logins to skip the second step. */
  | { kind: "signed-in"; sessionToken: string; deviceToken?: string }
  | { kind: "verify-email"; stateToken: string }
  /**
   * The member has a second factor: a code went by it, and `hint` says where ("j•••@example.com").
   * `appToo`: the member's authenticator app can answer instead (they choose); `others`: their other
   * factors that send a code, which they may have it sent by instead.
   */
  | {
      kind: "second-factor";
      stateToken: string;
      factorType: ChallengedFactorType;
      hint: string;
      appToo: boolean;
      others: SendingFactorType[];
      /** The member has recovery codes left: the challenge lists them among its factors. */
      recoveryCodes: boolean;
      /** The member has passkeys: this login's request for one of them, whatever factor was challenged. */
      passkey?: PasskeyRequest;
    }
  | { kind: "awaiting-approval" }
  /** `retryAfterSeconds`: for too many attempts, how long the platform said to wait, when it said. */
  | { kind: "failed"; reason: AuthFailure; fields: Partial<Record<AuthField, string>>; retryAfterSeconds?: number };

/** The second factors the site can ask a code for. */
export const SECOND_FACTOR_TYPES = ["EMAIL", "SMS", "TOTP"] as const;
export type SecondFactorType = (typeof SECOND_FACTOR_TYPES)[number];
/** What a login's second step may be challenged by: a factor with a code, or a passkey (which sends nothing). */
export const CHALLENGED_FACTOR_TYPES = [...SECOND_FACTOR_TYPES, "WEBAUTHN"] as const;
export type ChallengedFactorType = (typeof CHALLENGED_FACTOR_TYPES)[number];
/** The second factors that send a code (an app makes its own). */
export const SENDING_FACTOR_TYPES = ["EMAIL", "SMS"] as const;
export type SendingFactorType = (typeof SENDING_FACTOR_TYPES)[number];

export type AuthField = "email" | "password" | "firstName" | "lastName" | "nickname" | "code";

/**
 * Why it failed. The SDK's own codes, plus what the site tells apart from the platform's reply:
 * a wrong verification code, too many attempts, a blocked account (after a right password),
 * field violations (`invalidField`).
 */
export type AuthFailure =
  | "invalidEmail"
  | "invalidPassword"
  | "resetPassword"
  | "emailAlreadyExists"
  | "missingCaptchaToken"
  | "invalidCaptchaToken"
  | "invalidCode"
  | "codeExpired"
  | "tooManyAttempts"
  | "blocked"
  | "invalidField"
  | "unknown";

const sdkResult = z.discriminatedUnion("loginState", [
  z.object({ loginState: z.literal("SUCCESS"), data: z.object({ sessionToken: z.string().min(1) }) }),
  z.object({ loginState: z.literal("EMAIL_VERIFICATION_REQUIRED"), data: z.object({ stateToken: z.string().min(1) }) }),
  z.object({ loginState: z.literal("OWNER_APPROVAL_REQUIRED") }),
  z.object({ loginState: z.literal("FAILURE"), error: z.unknown().optional(), errorCode: z.string().optional() }),
]);

/** Codes the SDK does not map itself: an HTTP 429 without details arrives as its status number. */
const EXTRA_CODES: Record<string, AuthFailure> = {
  "429": "tooManyAttempts",
  THROTTLED_FEATURE: "tooManyAttempts",
  VERIFICATION_FAILED: "invalidCode",
  VERIFICATION_EXPIRED: "codeExpired",
  // The platform answers it only to a right password (a wrong one is refused as wrong first).
  "-19958": "blocked",
};

/** The numeric codes OAuthStrategy's `login` maps, for the login the site asks of `loginV2` itself; any other is its catch-all. */
const LOGIN_CODES: Record<string, AuthFailure> = {
  "-19976": "invalidPassword",
  "-19973": "resetPassword",
  "-19971": "missingCaptchaToken",
  "-19970": "invalidCaptchaToken",
};

const KNOWN_ERROR_CODES = new Set<AuthFailure>([
  "invalidEmail",
  "invalidPassword",
  "resetPassword",
  "emailAlreadyExists",
  "missingCaptchaToken",
  "invalidCaptchaToken",
]);

function fieldOf(path: string): AuthField | undefined {
  const leaf = path.split(".").at(-1)?.toLowerCase() ?? "";
  if (leaf.includes("password")) return "password";
  if (leaf.includes("email") || leaf === "loginid") return "email";
  if (leaf === "firstname") return "firstName";
  if (leaf === "lastname") return "lastName";
  if (leaf === "nickname") return "nickname";
  if (leaf === "code") return "code";
  return undefined;
}

/** The SDK puts the platform's error, as JSON, in `error`. */
function parseErrorBody(error: unknown): Refusal | null {
  if (typeof error !== "string") return null;
  try {
    return readRefusal((JSON.parse(error) as { details?: unknown })?.details);
  } catch {
    return null;
  }
}

/** Maps what OAuthStrategy's `login`, `register` and `processVerification` return. Pure: tested on its own. */
export function toAuthOutcome(result: unknown): AuthOutcome {
  const parsed = sdkResult.safeParse(result);
  if (!parsed.success) return { kind: "failed", reason: "unknown", fields: {} };
  const outcome = parsed.data;
  switch (outcome.loginState) {
    case "SUCCESS":
      return { kind: "signed-in", sessionToken: outcome.data.sessionToken };
    case "EMAIL_VERIFICATION_REQUIRED":
      return { kind: "verify-email", stateToken: outcome.data.stateToken };
    case "OWNER_APPROVAL_REQUIRED":
      return { kind: "awaiting-approval" };
  }
  const body = parseErrorBody(outcome.error);
  // The SDK names every login failure it does not know `invalidEmail`, a system error included:
  // its name is believed only for the numeric codes it maps, or when it passed no platform error.
  const sdkNamed = !body || /^-\d+$/.test(body.code ?? "");
  if (sdkNamed && outcome.errorCode && KNOWN_ERROR_CODES.has(outcome.errorCode as AuthFailure)) {
    const reason = outcome.errorCode as AuthFailure;
    // The SDK passes an e-mail violation's own description for invalidEmail on registration.
    const fields = reason === "invalidEmail" && typeof outcome.error === "string" && !body ? { email: outcome.error } : {};
    return { kind: "failed", reason, fields };
  }
  return failureOf(body);
}

const stateReply = z.object({
  state: z.string(),
  sessionToken: z.string().nullish(),
  stateToken: z.string().nullish(),
  additionalData: z.object({ deviceToken: z.object({ strValue: z.string().min(1).max(200) }).nullish() }).nullish(),
  mfaChallengeData: z
    .object({
      factorType: z.string(),
      verificationChallengeData: z
        .object({
          hint: z.string().max(200).nullish(),
          webauthnData: z.object({ challengeId: z.string().min(1).max(100), publicKeyCredentialRequestOptionsJson: z.string().max(64_000) }).nullish(),
        })
        .nullish(),
      availableFactors: z
        .array(z.object({ factorType: z.string() }))
        .max(20)
        .nullish(),
    })
    .nullish(),
});

/**
 * Maps the platform's state-machine reply (loginV2, a factor's verify) as OAuthStrategy's
 * `handleState` does, plus the second-factor challenge it does not know. Pure: tested on its own.
 */
export function stateOutcome(reply: unknown): AuthOutcome {
  const parsed = stateReply.safeParse(reply);
  if (!parsed.success) return { kind: "failed", reason: "unknown", fields: {} };
  const { state, sessionToken, stateToken, mfaChallengeData, additionalData } = parsed.data;
  const deviceToken = additionalData?.deviceToken?.strValue;
  if (state === "SUCCESS" && sessionToken) return { kind: "signed-in", sessionToken, ...(deviceToken && { deviceToken }) };
  if (state === "REQUIRE_EMAIL_VERIFICATION" && stateToken) return { kind: "verify-email", stateToken };
  if (state === "REQUIRE_OWNER_APPROVAL") return { kind: "awaiting-approval" };
  const factorType = CHALLENGED_FACTOR_TYPES.find((type) => type === mfaChallengeData?.factorType);
  const challengeData = mfaChallengeData?.verificationChallengeData;
  const passkey = challengeData?.webauthnData ? passkeyRequestOf(challengeData.webauthnData) : undefined;
  // A passkey's challenge sends nothing: without the request there is no way to answer it here.
  if (state === "MFA_CHALLENGE" && stateToken && factorType && (factorType !== "WEBAUTHN" || passkey)) {
    const available = (mfaChallengeData?.availableFactors ?? []).map((factor) => factor.factorType);
    const appToo = factorType !== "TOTP" && available.includes("TOTP");
    const others = SENDING_FACTOR_TYPES.filter((type) => type !== factorType && available.includes(type));
    const recoveryCodes = available.includes("RECOVERY_CODE");
    return { kind: "second-factor", stateToken, factorType, hint: challengeData?.hint ?? "", appToo, others, recoveryCodes, ...(passkey && { passkey }) };
  }
  return { kind: "failed", reason: "unknown", fields: {} };
}

/**
 * A login's request for a passkey, kept small (it travels in the sealed cookie of the pending
 * login): the challenge's id for the verify call, and what the browser's request needs of the
 * platform's options: the challenge, the member's passkeys and how much to ask of the
 * authenticator. The relying party is the site itself, which the browser assumes.
 */
export type PasskeyRequest = { challengeId: string; challenge: string; credentialIds: string[]; userVerification?: "required" | "preferred" | "discouraged" };

const requestOptions = z.object({
  challenge: z.string().min(1).max(200),
  allowCredentials: z
    .array(z.object({ id: z.string().min(1).max(1024) }))
    .max(50)
    .optional(),
  userVerification: z.enum(["required", "preferred", "discouraged"]).optional(),
});

/** The passkey request in a challenge's `webauthnData`, or none when its options are not what a browser can use. */
function passkeyRequestOf(data: { challengeId: string; publicKeyCredentialRequestOptionsJson: string }): PasskeyRequest | undefined {
  let options;
  try {
    options = requestOptions.safeParse(JSON.parse(data.publicKeyCredentialRequestOptionsJson)).data;
  } catch {
    return undefined;
  }
  if (!options) return undefined;
  const { challenge, allowCredentials = [], userVerification } = options;
  return {
    challengeId: data.challengeId,
    challenge,
    credentialIds: allowCredentials.map((credential) => credential.id),
    ...(userVerification && { userVerification }),
  };
}

/** The options the browser's WebAuthn request takes (`startAuthentication`) for a login's passkey request. */
export function passkeyRequestOptions(request: PasskeyRequest): PublicKeyCredentialRequestOptionsJSON {
  return {
    challenge: request.challenge,
    allowCredentials: request.credentialIds.map((id) => ({ id, type: "public-key" })),
    ...(request.userVerification && { userVerification: request.userVerification }),
  };
}

/** A refused login in the site's terms: the codes OAuthStrategy's `login` names, then the ones the site tells apart. Pure. */
export function loginRefusalOutcome(refusal: Refusal): AuthOutcome & { kind: "failed" } {
  const code = refusal.code ?? "";
  const named = LOGIN_CODES[code];
  if (named) return { kind: "failed", reason: named, fields: {} };
  // Any other numeric code is the SDK's catch-all, invalidEmail; a code it does not name (a
  // system error included) is not a wrong e-mail address, so it is told apart or "unknown".
  if (EXTRA_CODES[code] || refusal.violations.length > 0 || !/^-\d+$/.test(code)) return failureOf(refusal);
  return { kind: "failed", reason: "invalidEmail", fields: {} };
}

/** A refusal in the site's terms: a code it tells apart, else the fields it names. */
function failureOf(refusal: Refusal | null): AuthOutcome & { kind: "failed" } {
  const extra = EXTRA_CODES[refusal?.code ?? ""];
  if (extra) return { kind: "failed", reason: extra, fields: {}, ...(refusal?.retryAfterSeconds && { retryAfterSeconds: refusal.retryAfterSeconds }) };
  const fields: Partial<Record<AuthField, string>> = {};
  for (const violation of refusal?.violations ?? []) {
    const field = fieldOf(violation.field);
    if (field && !fields[field]) fields[field] = violation.description ?? "This value is not accepted.";
  }
  return { kind: "failed", reason: Object.keys(fields).length > 0 ? "invalidField" : "unknown", fields };
}

async function auth() {
  const pair = await publicVisitorPair();
  return OAuthStrategy({
    clientId: getConfig().wixClientId,
    tokens: { accessToken: { value: pair.accessToken, expiresAt: pair.expiresAt }, refreshToken: { value: pair.refreshToken, role: pair.role } },
  });
}

/** The SDK's helpers catch the platform's answers; anything that escapes them means it could not be asked. */
async function asked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await withinPlatformTimeout(call);
  } catch (cause) {
    throw new PlatformUnavailableError("the identity service did not answer", { cause });
  }
}

/** A robot check's answer: from the invisible check (its own site key) or the visible challenge. */
export type CaptchaAnswer = { token: string; invisible: boolean };

const captcha = (answer: CaptchaAnswer | undefined) =>
  answer ? { captchaTokens: answer.invisible ? { invisibleRecaptchaToken: answer.token } : { recaptchaToken: answer.token } } : {};

export type Registration = {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  nickname?: string;
  /** Whether others may see the new member's profile (and their nickname on their reports). */
  publicProfile: boolean;
  captcha?: CaptchaAnswer;
};

export async function register(input: Registration): Promise<AuthOutcome> {
  const strategy = await auth();
  const profile = { firstName: input.firstName, lastName: input.lastName, nickname: input.nickname, privacyStatus: privacyStatusOf(input.publicProfile) };
  return toAuthOutcome(await asked(() => strategy.register({ email: input.email, password: input.password, profile, ...captcha(input.captcha) })));
}

/** A robot check's answer in loginV2's own shape: the invisible check's under its own key. */
type LoginCaptchaToken = { Recaptcha: string } | { InvisibleRecaptcha: string };

/**
 * The SDK's own `login` drops a second-factor challenge (it knows only SUCCESS, e-mail
 * verification and approval), so the site sends the same `loginV2` call itself.
 */
export async function logIn(input: { email: string; password: string; captcha?: CaptchaAnswer; deviceToken?: string }): Promise<AuthOutcome> {
  const answer = input.captcha;
  const token: LoginCaptchaToken | null = answer ? (answer.invisible ? { InvisibleRecaptcha: answer.token } : { Recaptcha: answer.token }) : null;
  return loginV2(input.email, {
    password: input.password,
    ...(token && { captchaTokens: [token] }),
    // A browser the member had remembered skips the second step.
    ...(input.deviceToken && { clientMetaData: { deviceToken: input.deviceToken } }),
  });
}

/**
 * A new code for a login waiting for its second factor: `loginV2` with the challenge's state token
 * and no password; by `factorType` when the member chose another of their factors. By "WEBAUTHN",
 * a new passkey challenge (a passkey's is answered once, even wrongly), which sends nothing.
 */
export async function resendLoginCode(email: string, stateToken: string, factorType?: SendingFactorType | "WEBAUTHN"): Promise<AuthOutcome> {
  return loginV2(email, { stateToken, ...(factorType && { clientMetaData: { factorType } }) });
}

async function loginV2(
  email: string,
  options: {
    password?: string;
    stateToken?: string;
    captchaTokens?: LoginCaptchaToken[];
    clientMetaData?: { deviceToken: string } | { factorType: SendingFactorType | "WEBAUTHN" };
  },
) {
  try {
    return stateOutcome(await publicRead((client) => client.authentication.loginV2({ email }, options)));
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return loginRefusalOutcome(refusal);
    throw error instanceof PlatformUnavailableError ? error : new PlatformUnavailableError("the identity service did not answer", { cause: error });
  }
}

/**
 * The code a second factor was sent, with the state token of the login's challenge: the login's
 * last step. `remember`: the member asked to remember this browser, named by its User-Agent.
 */
export async function verifySecondFactor(
  factorType: SecondFactorType | "RECOVERY_CODE",
  code: string,
  stateToken: string,
  remember: { userAgent: string } | null = null,
): Promise<AuthOutcome> {
  // Each factor has its data object: emailData, smsData, totpData; a recovery code goes in recoveryCodeData.
  const data = { [factorType === "RECOVERY_CODE" ? "recoveryCodeData" : `${factorType.toLowerCase()}Data`]: { code } };
  return verifyStep(factorType, { stateToken, ...data }, remember);
}

/**
 * A login's second step answered with a passkey: the browser's answer (its credential JSON) to
 * the request's challenge, with the state token of the login's challenge.
 */
export async function verifyPasskey(
  request: Pick<PasskeyRequest, "challengeId">,
  credential: string,
  stateToken: string,
  remember: { userAgent: string } | null = null,
): Promise<AuthOutcome> {
  return verifyStep("WEBAUTHN", { stateToken, webauthnData: { challengeId: request.challengeId, credential } }, remember);
}

/** `POST /v2/{factorType}/verify`, the login's last step, as the site's outcome; a refusal in the site's terms. */
async function verifyStep(
  factorType: SecondFactorType | "RECOVERY_CODE" | "WEBAUTHN",
  data: { stateToken: string } & Record<string, unknown>,
  remember: { userAgent: string } | null,
): Promise<AuthOutcome> {
  const body = { ...data, ...(remember && { rememberThisDevice: true }) };
  // The platform names the remembered device from the User-Agent it is sent: the member's browser's, passed on.
  const headers = remember ? { "User-Agent": remember.userAgent } : undefined;
  try {
    return stateOutcome(
      await publicRead((_client, accessToken) =>
        platformCall(`/_api/iam/authentication/v2/${factorType.toLowerCase()}/verify`, { accessToken, body, headers }),
      ),
    );
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return failureOf(refusal);
    throw error;
  }
}

/** The code from the verification e-mail, with the state token the registration or login gave. */
export async function verifyEmail(code: string, stateToken: string): Promise<AuthOutcome> {
  const strategy = await auth();
  try {
    return toAuthOutcome(
      await withinPlatformTimeout(() =>
        strategy.processVerification({ verificationCode: code }, { loginState: "EMAIL_VERIFICATION_REQUIRED", data: { stateToken } } as never),
      ),
    );
  } catch (error) {
    // A wrong code is not caught by the SDK: it rejects with the platform's error.
    const refusal = refusalOf(error);
    if (refusal) return failureOf(refusal);
    throw new PlatformUnavailableError("the verification service did not answer", { cause: error });
  }
}

/** What asking for a new verification code came to: mailed, the verification is gone, or too many codes (and for how long, when the platform said). */
export type ResendOutcome = { kind: "sent" } | { kind: "expired" } | { kind: "tooManyAttempts"; retryAfterSeconds?: number };

/** The SDK has no function for it, so the call goes where its verify call goes, the same way. */
const RESEND_URL = "https://www.wixapis.com/_api/iam/verification/v1/auth/resend";

/** Mails a new code for the verification a state token stands for; the state token stays the same. */
export async function resendVerificationCode(stateToken: string): Promise<ResendOutcome> {
  const { accessToken } = await publicVisitorPair();
  const response = await platformFetch(RESEND_URL, {
    method: "POST",
    headers: { authorization: accessToken, "content-type": "application/json" },
    body: JSON.stringify({ stateToken }),
  });
  const body = (await response.json()) as { details?: unknown } | null;
  if (response.ok) return { kind: "sent" };
  const refusal = readRefusal(body?.details);
  if (response.status === 429 || (refusal?.code && EXTRA_CODES[refusal.code] === "tooManyAttempts")) {
    return { kind: "tooManyAttempts", ...(refusal?.retryAfterSeconds && { retryAfterSeconds: refusal.retryAfterSeconds }) };
  }
  if (refusal?.code && EXTRA_CODES[refusal.code] === "invalidCode") return { kind: "expired" };
  throw new PlatformUnavailableError(`answered ${response.status} to a new verification code`);
}

/** Where the SDK's own redirect-session calls go (OAuthStrategy's logout and getAuthUrl use the same). */
const REDIRECT_SESSION_URL = "https://www.wixapis.com/_api/redirects-api/v1/redirect-session";

const redirectSessionReply = z.object({ redirectSession: z.object({ fullUrl: z.url() }).partial().optional() });

/**
 * The URL that signs the member's browser in on the platform's own pages (session pre-warm, what
 * the SDK's `sessions.syncToWixPages` does): a `login` redirect session asked for with the
 * member's token, for the browser to load in a hidden frame. Null when the platform gave none.
 * `@wix/redirects` is not one of the site's packages, so the call is made as that module makes it.
 */
export async function sessionPrewarmUrl(accessToken: string): Promise<string | null> {
  const response = await platformFetch(REDIRECT_SESSION_URL, {
    method: "POST",
    headers: { authorization: accessToken, "content-type": "application/json" },
    body: JSON.stringify({ login: {} }),
  });
  const body: unknown = await response.json();
  if (!response.ok) throw new PlatformUnavailableError(`answered ${response.status} to a session pre-warm`);
  return redirectSessionReply.safeParse(body).data?.redirectSession?.fullUrl ?? null;
}

/** Sends the reset e-mail; its link leads back to `returnUrl`. Unknown addresses are not told apart. */
export async function sendPasswordReset(email: string, returnUrl: string): Promise<void> {
  const strategy = await auth();
  try {
    await withinPlatformTimeout(() => strategy.sendPasswordResetEmail(email, returnUrl));
  } catch (error) {
    if (refusalOf(error)) return;
    throw new PlatformUnavailableError("the recovery service did not answer", { cause: error });
  }
}

/**
 * Checks a signed-in member's current password: `loginV2` sent with the member's own session, which
 * the platform takes as a re-check (docs/two-step-sign-in.md): no robot check, no login code, no
 * new session. Any answer but a refusal means the password is right.
 */
export async function recheckPassword(client: WixClient, email: string, password: string): Promise<{ ok: true } | (AuthOutcome & { kind: "failed" })> {
  try {
    await client.authentication.loginV2({ email }, { password });
    return { ok: true };
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return loginRefusalOutcome(refusal);
    throw error;
  }
}

/**
 * Sets a new password for the member a session's client belongs to. A password the platform
 * will not take comes back as the reason it gives; the caller checks the current one first.
 */
export async function changePassword(client: WixClient, newPassword: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    await client.authentication.changePassword(newPassword);
    return { ok: true };
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    const violation = refusal.violations.find((entry) => fieldOf(entry.field) === "password");
    return { ok: false, reason: violation?.description ?? "The sign-in service did not accept this password. Choose another one." };
  }
}

/**
 * Ends the member's session on the platform from the server: their access and refresh tokens
 * stop working whether or not the browser then visits the platform's logout page.
 */
export async function endMemberSession(accessToken: string): Promise<void> {
  await sessionClient(accessToken).authentication.logout({ clientId: getConfig().wixClientId });
}

/** Which robot check the platform wants: Google's widgets on Wix (an invisible and a visible key), a stand-in on the local platform. */
export type CaptchaConfig = { kind: "recaptcha"; siteKey: string; invisibleSiteKey: string } | { kind: "local"; token: string };

/** The robot check the forms show when asked: Google's widgets with the keys Wix expects, or the local platform's stand-in. */
export function captchaConfig(): CaptchaConfig {
  const { localPlatformUrl, wixClientId } = getConfig();
  if (localPlatformUrl) return { kind: "local", token: LOCAL_CAPTCHA_TOKEN };
  const strategy = OAuthStrategy({ clientId: wixClientId });
  return { kind: "recaptcha", siteKey: strategy.captchaVisibleSiteKey, invisibleSiteKey: strategy.captchaInvisibleSiteKey };
}

/** In local mode, where a person reads the e-mails the platform "sends". */
export function localMailboxUrl(): string | null {
  const { localPlatformUrl } = getConfig();
  return localPlatformUrl && `${localPlatformUrl}${LOCAL_MAILBOX_PATH}`;
}
