import { randomBytes, randomInt } from "node:crypto";
import { setTimeout as pause } from "node:timers/promises";
import { z } from "zod";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
import type { PlatformContext } from "../context";
import {
  FieldViolations,
  codeExpired,
  codesThrottled,
  currentPasswordFirst,
  identityRefused,
  invalidArgument,
  passwordChangedInSession,
  throttledFor,
  tooManyWrongCodes,
  wrongCode,
  type FieldViolation,
} from "../http/errors";
import type { NewMail } from "../mail/outbox";
import { hashToken } from "../oauth/store";
import { SECOND_FACTOR_TYPES, type Factor, type SecondFactorType, type VerifyFactorType } from "./factors";
import { HOSTED_PAGES } from "./paths";
import { BRANDING } from "./branding";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { weakPasswordReason } from "./password-policy";
import { MemberPrivacyStore } from "../member-privacy/store";
import { isShutOut, nicknameOrDefault, normaliseEmail, type Identity } from "./store";
import { WRONG_CODES_PER_DAY } from "./throttle";
import { totpStep } from "./totp";
import { passkeyChallenge, webauthnData } from "./webauthn-challenge";
import type { Caller, MemberCaller } from "../types";
import type { VerificationPurpose } from "./verifications";

/**
 * The identity service behind the site's own forms (docs/platform/identity.md §3): register,
 * log in, verify an e-mail, change and recover a password. Answers are the platform's state
 * machine replies; failures carry the numeric codes the SDK's helpers map to its error names.
 */

/** The application error codes OAuthStrategy's `login` and `register` recognise. */
export const IAM_CODES = {
  invalidPassword: "-19976",
  resetPassword: "-19973",
  missingCaptcha: "-19971",
  invalidCaptcha: "-19970",
  emailExists: "-19995",
  /** Not one the SDK names: it reports any other code as `invalidEmail`. */
  unknownEmail: "-19999",
  blocked: "-19958",
} as const;

/** A session token from a form login is for one exchange (the prompt=none authorize), soon after. */
export const SESSION_TOKEN_TTL_MS = 10 * 60 * 1000;

export type StateReply = {
  state: "SUCCESS" | "REQUIRE_EMAIL_VERIFICATION" | "REQUIRE_OWNER_APPROVAL" | "MFA_CHALLENGE";
  sessionToken?: string;
  stateToken?: string;
  identity: ReturnType<typeof identityWire>;
  /** With MFA_CHALLENGE: which factor the code went by, a hint of where, and the member's other factors. */
  mfaChallengeData?: {
    factorType: SecondFactorType;
    /** With a passkey among the factors: its challenge and the browser's request options. */
    verificationChallengeData: { hint: string; webauthnData?: ReturnType<typeof passkeyChallenge> };
    availableFactors: Array<{ factorType: SecondFactorType | "RECOVERY_CODE"; factorStatus: "ENABLED" }>;
    reason: "USER_SETTINGS";
  };
  /** With SUCCESS after a verify that asked to remember the browser: the token it shows at its next logins. */
  additionalData?: { deviceToken: { strValue: string } };
};

const captchaTokens = z
  .array(z.object({ Recaptcha: z.string().optional(), InvisibleRecaptcha: z.string().optional() }).partial())
  .max(5)
  .optional();

export const registerRequest = z.object({
  loginId: z.object({ email: z.string().max(320) }),
  password: z.string().max(1024).optional(),
  profile: z
    .object({
      firstName: z.string().max(200),
      lastName: z.string().max(200),
      nickname: z.string().max(200),
      privacyStatus: z.enum(["UNDEFINED", "PUBLIC", "PRIVATE"]),
    })
    .partial()
    .passthrough()
    .optional(),
  captchaTokens,
});

/** External login: the API key's holder vouches for who this is (docs/platform/identity.md §3.7). */
export const signOnRequest = z.object({
  loginId: z.object({ email: z.string().max(320) }),
  profile: registerRequest.shape.profile,
  verifyEmail: z.boolean().optional(),
  mergeExistingContact: z.boolean().optional(),
});

export const loginRequest = z.object({
  loginId: z.object({ email: z.string().max(320) }),
  password: z.string().max(1024).optional(),
  captchaTokens,
  stateToken: z.string().max(1000).optional(),
  /**
   * A browser remembered at an earlier login shows its token here, and skips the second step; a
   * login going on from its challenge (a state token, no password) may name the factor to send the code by.
   */
  clientMetaData: z
    .object({ deviceToken: z.string().max(200).optional(), factorType: z.enum(SECOND_FACTOR_TYPES).optional() })
    .passthrough()
    .nullish(),
});

/** `POST /v2/{factorType}/verify`: the state token of the challenge and the code, in the factor's own data object. */
export const factorVerifyRequest = z.object({
  stateToken: z.string().min(1).max(1000),
  rememberThisDevice: z.boolean().optional(),
  emailData: z.object({ code: z.string().min(1).max(100) }).optional(),
  smsData: z.object({ code: z.string().min(1).max(100) }).optional(),
  totpData: z.object({ code: z.string().min(1).max(100) }).optional(),
  recoveryCodeData: z.object({ code: z.string().min(1).max(100) }).optional(),
  webauthnData: webauthnData.optional(),
});

/** What proves it is the member, beyond their access token: the password, or the code their authenticator app shows now. */
export const memberProof = z.object({ password: z.string().max(1024).optional(), totpData: z.object({ code: z.string().max(20) }).optional() });

const emailFormat = z.email();

/** Whether an address is one the platform takes for a login e-mail: its format, and at most 254 characters. */
const isEmailAddress = (email: string) => emailFormat.safeParse(email).success && email.length <= 254;

function emailViolation(email: string): FieldViolation | null {
  if (isEmailAddress(email)) return null;
  return { field: "loginId.email", description: "Enter a valid e-mail address.", violatedRule: "FORMAT", data: { type: "EMAIL" } };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A second factor as the identity's `factors` list shows it (no phone number: a login's first step shows the identity too). */
export const factorWire = (factor: Factor) => ({ factorId: factor.factorId, type: factor.type, status: factor.status === "ENABLED" ? "ACTIVE" : "INACTIVE" });

/** The identity in the platform's REST shape (the SDK renames `id` and the dates). */
export function identityWire(identity: Identity, factors: readonly Factor[] = []) {
  const reasons = identity.status === "PENDING" ? ["PENDING_ADMIN_APPROVAL_REQUIRED"] : [];
  return {
    id: identity.id,
    revision: String(identity.updatedAt),
    createdDate: iso(identity.createdAt),
    updatedDate: iso(identity.updatedAt),
    identityProfile: {
      ...(identity.firstName !== null && { firstName: identity.firstName }),
      ...(identity.lastName !== null && { lastName: identity.lastName }),
      nickname: identity.nickname,
      emails: [identity.loginEmail],
      privacyStatus: identity.privacyStatus,
      slug: identity.slug,
    },
    email: { address: identity.loginEmail, isVerified: identity.emailVerified },
    status: { name: identity.status === "APPROVED" ? "ACTIVE" : identity.status, reasons },
    metadata: {},
    connections: [],
    factors: [{ factorId: `${identity.id}-password`, type: "PASSWORD", status: "ACTIVE" }, ...factors.map(factorWire)],
  };
}

/**
 * The owner's "must set a new password" (also how a member imported without one starts): the
 * password stops working, so a login answers -19973 (the SDK's `resetPassword`), and every
 * session and token of the member ends. Only a reset link lets them in again. Null for an unknown e-mail.
 */
export function requirePasswordReset(stores: Pick<PlatformContext, "identities" | "loginSessions" | "tokens">, email: string): Identity | null {
  const found = stores.identities.findForLogin(email);
  if (!found) return null;
  stores.identities.setPasswordHash(found.identity.id, "");
  endAllSessions(stores, found.identity.id);
  return found.identity;
}

/**
 * Signs a member out everywhere (or everywhere but the login session `keep`): their platform login
 * sessions (the hosted pages' cookie, a form login's session token) end and every token pair they
 * hold is revoked. Answers how many pairs were.
 */
export function endAllSessions(stores: Pick<PlatformContext, "loginSessions" | "tokens">, memberId: string, keep: string | null = null): number {
  for (const sessionId of stores.loginSessions.endAllFor(memberId, keep)) stores.tokens.revokeLoginSession(sessionId);
  return stores.tokens.revokeSubject(memberId, keep);
}

export class IdentityService {
  constructor(
    private readonly ctx: Pick<
      PlatformContext,
      | "db"
      | "identities"
      | "verifications"
      | "factors"
      | "recoveryCodes"
      | "rememberedDevices"
      | "passkeys"
      | "recoveries"
      | "loginSessions"
      | "settings"
      | "outbox"
      | "loginThrottle"
      | "sessionProofs"
      | "addressLimit"
      | "mailLimit"
      | "wrongCodes"
      | "tokens"
      | "clients"
      | "config"
    >,
  ) {}

  /**
   * The privacy a new member starts with: what they asked for (UNDEFINED is no answer), as far as
   * the site's member privacy settings allow, else the site's default (docs/platform/member-privacy.md).
   */
  initialPrivacy(profile?: z.infer<typeof registerRequest>["profile"]): Identity["privacyStatus"] {
    const asked = profile?.privacyStatus;
    return new MemberPrivacyStore(this.ctx.db).initialPrivacy(asked === "PUBLIC" || asked === "PRIVATE" ? asked : undefined);
  }

  /** Required when the owner asks for it, or for an account past its failed-login limit. */
  private checkCaptcha(tokens: z.infer<typeof captchaTokens>, required = this.ctx.settings.get().requireCaptcha) {
    if (!required) return;
    const given = (values: Array<string | undefined>) => values.filter((value): value is string => Boolean(value));
    const visible = given((tokens ?? []).map((token) => token.Recaptcha));
    const invisible = given((tokens ?? []).map((token) => token.InvisibleRecaptcha));
    if (visible.length + invisible.length === 0) throw identityRefused(IAM_CODES.missingCaptcha, "A captcha answer is required.");
    const trusted = this.ctx.settings.get().rejectInvisibleCaptcha ? visible : [...visible, ...invisible];
    if (!trusted.includes(LOCAL_CAPTCHA_TOKEN)) throw identityRefused(IAM_CODES.invalidCaptcha, "The captcha answer is not valid.");
  }

  /**
   * Where the identity goes next after proving who it is (its password, or an e-mailed code):
   * verification, approval, a second factor (unless this browser is one the member had
   * remembered), or a session.
   */
  private continueWith(identity: Identity, deviceToken?: string): StateReply {
    const factors = this.ctx.factors.list(identity.id);
    const wire = identityWire(identity, factors);
    if (this.ctx.settings.get().requireEmailVerification && !identity.emailVerified) {
      return { state: "REQUIRE_EMAIL_VERIFICATION", stateToken: this.sendVerification(identity), identity: wire };
    }
    if (identity.status === "PENDING") return { state: "REQUIRE_OWNER_APPROVAL", identity: wire };
    if (factors.length > 0 && !(deviceToken && this.ctx.rememberedDevices.recognise(identity.id, deviceToken))) return this.challenge(identity, factors);
    return this.signedIn(identity);
  }

  /**
   * The API's recover call signs in with the new password, so it asks what a login would still
   * ask (owner approval, a second factor: the reset link proves only the e-mail address), and a
   * blocked member gets no session.
   */
  afterRecovery(identity: Identity): StateReply {
    if (isShutOut(identity)) throw identityRefused(IAM_CODES.blocked, "This account is blocked.", 403);
    return this.continueWith(identity);
  }

  /** A new platform login session; its token is the session token the client exchanges for member tokens. */
  signedIn(identity: Identity): StateReply {
    const { token } = this.ctx.loginSessions.start(identity.id);
    this.ctx.identities.recordLogin(identity.id);
    return { state: "SUCCESS", sessionToken: token, identity: identityWire(identity, this.ctx.factors.list(identity.id)) };
  }

  /** E-mails a verification code; the state token it answers with carries the verification on. */
  sendVerification(identity: Identity): string {
    return this.sendCode(identity, "email", null);
  }

  /**
   * The second step of a login (docs/platform/identity.md §3.8): a code by the member's first
   * factor (or the one they chose), and MFA_CHALLENGE with the state token that `/v2/{factorType}/verify` takes.
   */
  challenge(identity: Identity, factors: readonly Factor[], factor: Factor = factors[0], asked: "login" | "new-code" = "login"): StateReply {
    // Recovery codes answer any challenge (Wix's factor types name them): listed while the member has some left, so a page offers them only then.
    const recovery = this.ctx.recoveryCodes.remaining(identity.id) > 0 ? [{ factorType: "RECOVERY_CODE" as const, factorStatus: "ENABLED" as const }] : [];
    return {
      state: "MFA_CHALLENGE",
      stateToken: this.sendCode(identity, "mfa", factor, asked === "new-code"),
      identity: identityWire(identity, factors),
      mfaChallengeData: {
        factorType: factor.type,
        verificationChallengeData: {
          hint: factorHint(identity, factor),
          webauthnData: passkeyChallenge(this.ctx.passkeys, this.ctx.config, identity.id),
        },
        availableFactors: [...factors.map((each) => ({ factorType: each.type, factorStatus: "ENABLED" as const })), ...recovery],
        reason: "USER_SETTINGS",
      },
    };
  }

  /**
   * Sends a code (by e-mail, or by SMS for an SMS factor); the state token it answers with
   * carries the login on. Past a few codes an hour no new one is sent: a login continues with
   * the code already sent, and with none left to continue, it is refused. A new code asked for
   * (`newCode`) is refused with the wait instead: going on silently would tell the member a code
   * went that never did, by a factor it may not have gone by.
   */
  private sendCode(identity: Identity, purpose: VerificationPurpose, factor: Factor | null, newCode = false): string {
    if (purpose === "mfa") this.refusePastCeiling(identity.id);
    const key = codeMailKey(purpose, identity.id);
    if (!this.ctx.mailLimit.allow(key)) {
      const stateToken = newCode ? null : this.ctx.verifications.resume(identity.id, purpose);
      if (stateToken) return stateToken;
      throw codesThrottled(this.ctx.mailLimit.waitSeconds(key));
    }
    const { stateToken, code } = this.ctx.verifications.start(identity.id, purpose, factor?.type ?? null);
    // An authenticator app makes its own codes and a passkey signs: the challenge sends nothing, yet counts, which also limits guesses per hour.
    if (factor?.type !== "TOTP" && factor?.type !== "WEBAUTHN") this.mail(codeMessage(identity, factor, code));
    return stateToken;
  }

  /**
   * A new code for the e-mail verification a state token stands for (the "Resend code" of a
   * verify page), counted against the same hourly limit as every code mail; the state token stays.
   */
  resendVerification(stateToken: string): StateReply {
    const identityId = this.ctx.verifications.identityOf(stateToken, "email");
    const identity = identityId ? this.ctx.identities.get(identityId) : null;
    if (!identity) throw identityRefused("VERIFICATION_FAILED", "This verification has expired. Log in again for a new code.");
    const key = codeMailKey("email", identity.id);
    if (!this.ctx.mailLimit.allow(key)) throw codesThrottled(this.ctx.mailLimit.waitSeconds(key));
    const renewed = this.ctx.verifications.renew(stateToken, "email");
    if (!renewed) throw identityRefused("VERIFICATION_FAILED", "This verification has expired. Log in again for a new code.");
    this.mail(codeMessage(identity, null, renewed.code));
    return { state: "REQUIRE_EMAIL_VERIFICATION", stateToken, identity: identityWire(identity, this.ctx.factors.list(identity.id)) };
  }

  private mail(message: NewMail) {
    this.ctx.outbox.send(message);
  }

  /** Past the day's wrong second-step codes, no code is sent or checked until the window frees up or the password changes. */
  private refusePastCeiling(identityId: string) {
    if (this.ctx.wrongCodes.reached(identityId)) throw codesThrottled(this.ctx.wrongCodes.waitSeconds(identityId));
  }

  /** A wrong second-step code counts towards the day's ceiling; the one that reaches it tells the member. */
  private countWrongCode(identityId: string) {
    if (!this.ctx.wrongCodes.add(identityId)) return;
    const identity = this.ctx.identities.get(identityId);
    if (!identity) return;
    this.mail({
      to: identity.loginEmail,
      kind: "code-ceiling",
      subject: `Too many wrong login codes for your ${BRANDING.name} account`,
      text:
        `Someone entered ${WRONG_CODES_PER_DAY} wrong login codes for your account in the last day, after typing your password. ` +
        "To keep them from guessing a code, we have stopped sending login codes for a day.\n\n" +
        `Set a new password now with “Forgot password?”: ${this.ctx.config.siteUrl}/forgot-password\n` +
        "A new password shuts out whoever knows the old one, and you can log in again at once.",
    });
  }

  /**
   * A password someone else may know is gone: the wrong codes counted against it no longer
   * matter, no browser remembered with the old one skips the second step, and the member is told.
   */
  private passwordChanged(identityId: string) {
    this.ctx.wrongCodes.clear(identityId);
    this.ctx.rememberedDevices.forgetAll(identityId);
    const identity = this.ctx.identities.get(identityId);
    if (!identity) return;
    this.mail({
      to: identity.loginEmail,
      kind: "password-changed",
      subject: `Your ${BRANDING.name} password was changed`,
      text:
        "The password of your account was just changed, and every other device was signed out.\n\n" +
        `If this was not you, set a new password now with “Forgot password?”: ${this.ctx.config.siteUrl}/forgot-password`,
    });
  }

  /**
   * `authentication.validateEmail`: whether an address would be taken at sign-up. Only its format
   * can be checked here; Wix also looks up the domain's mail records and past bounces, which need
   * the internet, so an address in a valid format is valid (docs/platform/identity.md §3.9).
   */
  validateEmail(email: string): { valid: boolean; formatInvalid: boolean } {
    const valid = isEmailAddress(email.trim());
    return { valid, formatInvalid: !valid };
  }

  async register(input: z.infer<typeof registerRequest>): Promise<StateReply> {
    this.checkCaptcha(input.captchaTokens);
    const email = input.loginId.email.trim();
    const violations: FieldViolation[] = [];
    const badEmail = emailViolation(email);
    if (badEmail) violations.push(badEmail);
    const weak = weakPasswordReason(input.password ?? "");
    if (weak) violations.push({ field: "password", description: weak, violatedRule: "FORMAT", data: {} });
    if (violations.length > 0) throw new FieldViolations(violations);
    const profile = input.profile ?? {};
    const identity = this.ctx.identities.create({
      email,
      passwordHash: await hashPassword(input.password ?? ""),
      nickname: nicknameOrDefault(profile),
      firstName: profile.firstName?.trim() || null,
      lastName: profile.lastName?.trim() || null,
      privacyStatus: this.initialPrivacy(profile),
      status: this.ctx.settings.get().requireOwnerApproval ? "PENDING" : "APPROVED",
    });
    if (!identity) {
      this.tellOwnerOfSignup(email);
      throw identityRefused(IAM_CODES.emailExists, "An account with this e-mail address already exists.");
    }
    return this.continueWith(identity);
  }

  /**
   * A sign-up with an address that has an account: the site answers "check your inbox" as for a
   * new one, and the inbox holds this notice, so the owner hears of it and nobody else learns
   * the address is taken. A few an hour at most.
   */
  tellOwnerOfSignup(email: string): void {
    const found = this.ctx.identities.findForLogin(email);
    if (!found || !this.ctx.mailLimit.allow(`signup-attempt:${found.identity.id}`)) return;
    this.mail({
      to: found.identity.loginEmail,
      kind: "signup-attempt",
      subject: `Someone tried to create a ${BRANDING.name} account with your address`,
      text:
        "Someone tried to create an account with this e-mail address, which already has one.\n\n" +
        `If it was you, you need no new account: log in with your password at ${this.ctx.config.siteUrl}/login\n` +
        `Forgotten the password? Set a new one with “Forgot password?”: ${this.ctx.config.siteUrl}/forgot-password\n\n` +
        "If it was not you, ignore this message: nothing changed, and your password still works.",
    });
  }

  /**
   * External login: a login session for the member with this e-mail, created on first sign-on
   * with an unguessable password (they have no password here; the caller vouches for them).
   * Blocked members get none. Its token becomes member tokens through the authorized_client grant.
   */
  async signOn(input: z.infer<typeof signOnRequest>): Promise<{ sessionToken: string; identity: ReturnType<typeof identityWire> }> {
    const email = input.loginId.email.trim();
    const badEmail = emailViolation(email);
    if (badEmail) throw new FieldViolations([badEmail]);
    const identity =
      this.ctx.identities.findForLogin(email)?.identity ??
      this.ctx.identities.create({
        email,
        passwordHash: await hashPassword(randomBytes(32).toString("base64url")),
        nickname: nicknameOrDefault(input.profile),
        firstName: input.profile?.firstName?.trim() || null,
        lastName: input.profile?.lastName?.trim() || null,
        privacyStatus: this.initialPrivacy(input.profile),
        // The caller may vouch for the address too; by default it is still to be verified.
        emailVerified: input.verifyEmail === true,
      }) ??
      // Created by a concurrent sign-on between the two calls above.
      this.ctx.identities.findForLogin(email)!.identity;
    if (isShutOut(identity)) throw identityRefused(IAM_CODES.blocked, "This member is blocked and cannot sign on.", 403);
    const { token } = this.ctx.loginSessions.start(identity.id);
    this.ctx.identities.recordLogin(identity.id);
    return { sessionToken: token, identity: identityWire(identity) };
  }

  /**
   * A login; or, asked with a member's own token for that member's address, a re-check of the
   * password (below). `from` is the client's address when it is surely the person's own
   * (iam-routes.ts): failures count against it too, and past its limit every login from it is refused.
   */
  async login(input: z.infer<typeof loginRequest>, caller: Caller = { kind: "anonymous" }, from: string | null = null): Promise<StateReply> {
    if (input.stateToken && input.password === undefined) {
      return this.continueChallenge(input.loginId.email, input.stateToken, input.clientMetaData?.factorType);
    }
    const locked = from ? await this.ctx.addressLimit.refusedFor(from) : 0;
    if (locked > 0) throw throttledFor("Too many failed logins from this address.", locked);
    const email = normaliseEmail(input.loginId.email);
    if (caller.kind === "member" && this.ctx.identities.get(caller.id)?.loginEmail === email) return this.recheckPassword(caller, input.password ?? "");
    const { delayMs, captcha } = await this.ctx.loginThrottle.before(email);
    await pause(delayMs);
    this.checkCaptcha(input.captchaTokens, captcha || this.ctx.settings.get().requireCaptcha);
    const found = this.ctx.identities.findForLogin(email);
    // Unknown e-mails are checked against a decoy hash so they take as long as a wrong password.
    const passwordOk = await verifyPassword(input.password ?? "", found?.passwordHash || (await decoyPasswordHash()));
    if (!found) {
      await this.loginFailed(email, from);
      throw identityRefused(IAM_CODES.unknownEmail, "No member has this e-mail address.", 404);
    }
    if (!found.passwordHash) throw identityRefused(IAM_CODES.resetPassword, "This account needs a new password before it can log in.");
    if (!passwordOk) {
      await this.loginFailed(email, from);
      throw identityRefused(IAM_CODES.invalidPassword, "The password is not right.");
    }
    await this.ctx.loginThrottle.succeeded(email);
    if (isShutOut(found.identity)) throw identityRefused(IAM_CODES.blocked, "This account is blocked.", 403);
    return this.continueWith(found.identity, input.clientMetaData?.deviceToken);
  }

  private async loginFailed(email: string, from: string | null) {
    await this.ctx.loginThrottle.failed(email);
    if (from) await this.ctx.addressLimit.failed(from);
  }

  /**
   * Takes one of the tries a login session has to prove who its member is (PROOFS_PER_SESSION in a
   * window: re-checks of the password, and the proofs factor changes ask for), or refuses with the
   * true wait. It is taken before the answer is checked, so parallel guesses cannot outrun the
   * count, and given back (the function returned) when the answer was right. Only a holder of the
   * session's token spends it: a stolen token guesses a few times and stops, a stranger's wrong
   * logins spend none of it, and the owner's other sessions keep their own.
   */
  private takeProof(member: MemberCaller): () => void {
    const key = member.loginSessionId ?? `member:${member.id}`;
    if (!this.ctx.sessionProofs.allow(key)) throw throttledFor("Too many wrong passwords or codes in this session.", this.ctx.sessionProofs.waitSeconds(key));
    return () => this.ctx.sessionProofs.refund(key);
  }

  /**
   * A member already signed in types their password again (the account page asks for it before a
   * change). Its session passed the robot check and the second step when it began, so it is asked
   * neither (nor mailed a code), and it starts no session: a right password answers SUCCESS without
   * a session token, and lets this session change the password for a few minutes. It takes one of
   * the session's proofs (takeProof); a wrong one also counts towards the account's failed logins.
   */
  private async recheckPassword(member: MemberCaller, password: string): Promise<StateReply> {
    const giveBack = this.takeProof(member);
    const found = this.ctx.identities.findForLogin(this.ctx.identities.get(member.id)?.loginEmail ?? "");
    if (!found) throw identityRefused(IAM_CODES.unknownEmail, "No member has this e-mail address.", 404);
    const email = found.identity.loginEmail;
    await pause((await this.ctx.loginThrottle.before(email)).delayMs);
    if (!found.passwordHash) throw identityRefused(IAM_CODES.resetPassword, "This account needs a new password before it can log in.");
    if (!(await verifyPassword(password, found.passwordHash))) {
      await this.ctx.loginThrottle.failed(email);
      throw identityRefused(IAM_CODES.invalidPassword, "The password is not right.");
    }
    giveBack();
    await this.ctx.loginThrottle.succeeded(email);
    if (isShutOut(found.identity)) throw identityRefused(IAM_CODES.blocked, "This account is blocked.", 403);
    if (member.loginSessionId) this.ctx.loginSessions.recordPasswordProof(member.loginSessionId);
    return { state: "SUCCESS", identity: identityWire(found.identity, this.ctx.factors.list(found.identity.id)) };
  }

  /**
   * The e-mailed code of a verification. An unknown state token gets the same answer as a wrong
   * code: the site's sign-up hands out made-up ones for addresses already taken.
   */
  verify(code: string, stateToken: string): StateReply {
    const result = this.ctx.verifications.check(stateToken, code.trim(), "email");
    if (result === "too-many") throw tooManyWrongCodes();
    if (result === "unknown" || result === "wrong-code") throw wrongCode();
    // A code that did its job costs nothing: only unused ones count against the hourly mails.
    this.ctx.mailLimit.refund(codeMailKey("email", result.identityId));
    this.ctx.identities.markEmailVerified(result.identityId);
    const identity = this.ctx.identities.get(result.identityId);
    if (!identity) throw wrongCode();
    return this.continueWith(identity);
  }

  /**
   * `loginV2({stateToken})` with no password: the login whose second-factor challenge the token
   * stands for goes on with a new code (the previous one stops working), by the factor named in
   * `clientMetaData.factorType` when the member has it on (a member with several chooses), else by
   * the one the challenge used. Only while that challenge is live and not tried too often, and
   * for the same login e-mail.
   */
  continueChallenge(email: string, stateToken: string, factorType?: SecondFactorType): StateReply {
    const live = this.ctx.verifications.peek(stateToken, "mfa");
    const identity = live ? this.ctx.identities.get(live.identityId) : null;
    const factors = identity ? this.ctx.factors.list(identity.id) : [];
    if (!identity || identity.loginEmail !== normaliseEmail(email) || factors.length === 0) throw codeExpired();
    const chosen = factors.find((factor) => factor.type === (factorType ?? live?.factorType));
    if (factorType && !chosen) throw invalidArgument(`This member has no ${factorType} factor turned on.`);
    return this.challenge(identity, factors, chosen, "new-code");
  }

  /**
   * The code of a second-factor challenge: the login's last step, so a right one answers SUCCESS;
   * asked to remember the browser (named from its User-Agent), with the token it is to show next time.
   */
  verifyFactor(factorType: VerifyFactorType, stateToken: string, code: string, remember: { deviceName: string } | null = null): StateReply {
    return this.finishLogin(this.checkFactor(stateToken, code, factorType), remember);
  }

  /** A login whose second step was answered: signed in, and the browser remembered when the member asked. */
  finishLogin(identity: Identity, remember: { deviceName: string } | null): StateReply {
    const reply = this.signedIn(identity);
    if (!remember) return reply;
    return { ...reply, additionalData: { deviceToken: { strValue: this.ctx.rememberedDevices.remember(identity.id, remember.deviceName) } } };
  }

  /**
   * Who a second-factor code proves to be logging in; refused when it is wrong, expired or
   * tried too often, or (given a type) was sent by another factor. The member's app, a passkey and
   * a recovery code answer any challenge (a member with several factors chooses), the recovery
   * code then used up. A passkey's answer comes judged (webauthn.ts: its signature is checked
   * before). The hosted page shares it.
   */
  checkFactor(stateToken: string, answer: string | ((identityId: string) => boolean), factorType?: VerifyFactorType): Identity {
    const code = typeof answer === "string" ? answer : "";
    // Checked before the code, which a right answer would use up.
    const live = this.ctx.verifications.peek(stateToken, "mfa");
    const sentBy = live?.factorType;
    const anyChallenge = factorType === "RECOVERY_CODE" || factorType === "TOTP" || factorType === "WEBAUTHN";
    if (factorType && !anyChallenge && sentBy && sentBy !== factorType) {
      throw invalidArgument(`This login's code was sent by ${sentBy}, not ${factorType}.`);
    }
    // A passkey's challenge sent no code: only another factor answers it.
    if (sentBy === "WEBAUTHN" && !anyChallenge) throw invalidArgument("This login waits for a passkey, an authenticator-app code or a recovery code.");
    if (live) this.refusePastCeiling(live.identityId);
    const result =
      typeof answer === "function"
        ? this.ctx.verifications.checkWith(stateToken, "mfa", ({ identityId }) => answer(identityId))
        : factorType === "RECOVERY_CODE"
          ? this.ctx.verifications.checkWith(stateToken, "mfa", ({ identityId }) => this.ctx.recoveryCodes.use(identityId, code.trim()))
          : factorType === "TOTP" || sentBy === "TOTP"
            ? this.ctx.verifications.checkWith(stateToken, "mfa", ({ identityId }) =>
                this.appCodeIsRight(
                  this.ctx.factors.list(identityId).find((each) => each.type === "TOTP"),
                  code.trim(),
                ),
              )
            : this.ctx.verifications.check(stateToken, code.trim(), "mfa");
    if (result === "unknown") throw codeExpired();
    // A live code's wrong answer, the one that used up its tries included; not a refusal of one already used up.
    if (live && (result === "wrong-code" || result === "too-many")) this.countWrongCode(live.identityId);
    if (result === "too-many") throw tooManyWrongCodes();
    if (result === "wrong-code") throw wrongCode();
    // A code that did its job costs nothing: only unused ones count against the hourly codes.
    this.ctx.mailLimit.refund(codeMailKey("mfa", result.identityId));
    const identity = this.ctx.identities.get(result.identityId);
    if (!identity) throw codeExpired();
    if (isShutOut(identity)) throw identityRefused(IAM_CODES.blocked, "This account is blocked.", 403);
    return identity;
  }

  /**
   * Texts a code to a phone being enrolled as a factor (proof that the member holds it, so a
   * mistyped number locks no one out), within an hourly limit; answers the code's digest to keep.
   */
  phoneEnrolmentCode(identityId: string, phone: string): string {
    const key = `factor-phone:${identityId}`;
    if (!this.ctx.mailLimit.allow(key)) throw throttledFor("Too many codes sent to phones for this account.", this.ctx.mailLimit.waitSeconds(key));
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    this.mail({
      to: phone,
      kind: "sms",
      subject: `Text message from ${BRANDING.name}`,
      text: `${code} is your ${BRANDING.name} code to turn on text-message codes.`,
      code,
    });
    return hashToken(code);
  }

  /** Whether a code is the app factor's for now (give or take a step) and not used before; its time step is then used up. */
  appCodeIsRight(factor: Factor | undefined, code: string): boolean {
    const step = factor?.secret ? totpStep(factor.secret, code, Date.now()) : null;
    return step !== null && this.ctx.factors.useStep(factor!.factorId, step);
  }

  /**
   * Refuses a change to a member's second factors unless they prove it is them: a stolen access
   * token alone must not add or remove factors. Wrong answers are counted per member, apart from
   * failed logins, which anyone can add to: the same growing delay, and past the limit the change waits.
   */
  async proveMember(member: MemberCaller, proof: z.infer<typeof memberProof>): Promise<void> {
    const memberId = member.id;
    const identity = this.ctx.identities.get(memberId);
    const found = identity ? this.ctx.identities.findForLogin(identity.loginEmail) : null;
    if (!found) throw identityRefused("PERMISSION_DENIED", "Only a signed-in member can do this, for themselves.", 403);
    if (proof.password === undefined && proof.totpData === undefined) {
      throw new FieldViolations([
        { field: "password", description: "Required: the password, or totpData.code from the authenticator app.", violatedRule: "VALIDATION", data: {} },
      ]);
    }
    // Whoever changed the password in this session knows the new one: only a second factor, or a new login, proves the owner.
    if (proof.password !== undefined && member.loginSessionId && this.ctx.loginSessions.passwordChangedIn(member.loginSessionId)) {
      throw passwordChangedInSession();
    }
    const giveBack = this.takeProof(member);
    const app = this.ctx.factors.list(memberId).find((each) => each.type === "TOTP");
    const proven =
      proof.password !== undefined ? await verifyPassword(proof.password, found.passwordHash) : this.appCodeIsRight(app, proof.totpData?.code.trim() ?? "");
    if (!proven) throw proof.password !== undefined ? identityRefused(IAM_CODES.invalidPassword, "The password is not right.", 403) : wrongCode();
    giveBack();
  }

  /**
   * A new password for a signed-in member, only right after their session re-checked the current
   * one (recheckPassword): a stolen access token alone cannot take the account. Every other session
   * and token pair of the member ends, this session no longer counts the password as proof for
   * factor changes, and the member is told by mail.
   */
  async changePassword(member: MemberCaller, newPassword: string): Promise<void> {
    const weak = weakPasswordReason(newPassword);
    if (weak) throw new FieldViolations([{ field: "newPassword", description: weak, violatedRule: "FORMAT", data: {} }]);
    const session = member.loginSessionId;
    if (!session || !this.ctx.loginSessions.takePasswordProof(session)) throw currentPasswordFirst();
    this.ctx.identities.setPasswordHash(member.id, await hashPassword(newPassword));
    this.passwordChanged(member.id);
    endAllSessions(this.ctx, member.id, session);
    this.ctx.loginSessions.markPasswordChanged(session);
  }

  /** Sends a reset link when the address is known; the reply is the same either way. */
  sendRecoveryEmail(email: string, redirect: { url?: string; clientId?: string } | undefined, platformUrl: string): void {
    const found = this.ctx.identities.findForLogin(email);
    if (!found) return;
    const client = redirect?.clientId ? this.ctx.clients.get(redirect.clientId) : null;
    // Only a page of the asking client's own site: the link must not lead anywhere else.
    const returnUrl = client ? this.ctx.clients.safeReturnUrl(redirect?.url, client) : null;
    this.sendResetLink(found.identity, returnUrl, platformUrl, "password-reset");
  }

  sendResetLink(identity: Identity, returnUrl: string | null, platformUrl: string, kind: "password-reset" | "activation"): void {
    const recoveryToken = this.ctx.recoveries.start(identity.id, returnUrl);
    const link = `${platformUrl}${HOSTED_PAGES.reset}?${new URLSearchParams({ token: recoveryToken })}`;
    this.mail({
      to: identity.loginEmail,
      kind,
      subject: kind === "activation" ? `Set a password for your ${BRANDING.name} account` : `Reset your ${BRANDING.name} password`,
      text: `Open this link to set a new password. It works once, for an hour:\n${link}\n\nIf you did not ask for it, ignore this message.`,
      link,
      recoveryToken,
    });
  }

  /** Sets a new password with a reset token: every other session ends, and the e-mail counts as verified. */
  async recover(recoveryToken: string, password: string): Promise<{ identity: Identity; redirectUrl: string | null } | { weak: string }> {
    const weak = weakPasswordReason(password);
    if (weak) return { weak };
    const recovery = this.ctx.recoveries.consume(recoveryToken);
    if (!recovery) throw identityRefused("INVALID_RECOVERY_TOKEN", "This reset link has expired or was already used.");
    this.ctx.identities.setPasswordHash(recovery.identityId, await hashPassword(password));
    this.ctx.identities.markEmailVerified(recovery.identityId);
    this.passwordChanged(recovery.identityId);
    for (const sessionId of this.ctx.loginSessions.endAllFor(recovery.identityId)) this.ctx.tokens.revokeLoginSession(sessionId);
    await this.ctx.loginThrottle.succeeded(this.ctx.identities.get(recovery.identityId)?.loginEmail ?? "");
    const identity = this.ctx.identities.get(recovery.identityId);
    if (!identity) throw identityRefused("INVALID_RECOVERY_TOKEN", "This reset link has expired or was already used.");
    return { identity, redirectUrl: recovery.redirectUrl };
  }
}

/** The hourly count of code mails an identity is sent, one per purpose. */
const codeMailKey = (purpose: VerificationPurpose, identityId: string) => `${purpose === "email" ? "verification" : "mfa"}:${identityId}`;

/** Where the code went (or comes from), as much as a person who knows it recognises: "j•••@example.com", "•••• 0123". */
export function factorHint(identity: Identity, factor: Factor): string {
  if (factor.type === "SMS") return `•••• ${(factor.phone ?? "").replace(/\D/g, "").slice(-4)}`;
  if (factor.type === "TOTP") return "your authenticator app";
  if (factor.type === "WEBAUTHN") return "your passkey";
  const [local, domain] = identity.loginEmail.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
}

/** The message a code goes out in: an e-mail verification, or a login's code by e-mail or text message. */
function codeMessage(identity: Identity, factor: Factor | null, code: string): NewMail {
  if (!factor) {
    return {
      to: identity.loginEmail,
      kind: "verification",
      subject: `Your ${BRANDING.name} verification code`,
      text: `Your verification code is ${code}. It works for 15 minutes.\n\nIf you did not ask for it, ignore this message.`,
      code,
    };
  }
  if (factor.type === "SMS") {
    return { to: factor.phone ?? "", kind: "sms", subject: `Text message from ${BRANDING.name}`, text: `${code} is your ${BRANDING.name} login code.`, code };
  }
  return {
    to: identity.loginEmail,
    kind: "login-code",
    subject: `Your ${BRANDING.name} login code`,
    text: `Your login code is ${code}. It works for 15 minutes.\n\nIf you did not just log in, change your password: someone else knows it.`,
    code,
  };
}
