"use server";

import { randomBytes } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import type { CaptchaStage, FormState } from "@/lib/form-state";
import { parseWithZod } from "@conform-to/zod/v4";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { clearPendingVerification, readPendingVerification, writePendingVerification, type PendingVerification } from "@/lib/auth/verification-store";
import {
  AWAITING_APPROVAL_MESSAGE,
  FAILURE_FIELD,
  FAILURE_MESSAGES,
  INVISIBLE_CAPTCHA_MESSAGE,
  CODE_STEP_MESSAGES,
  APP_CODE_MESSAGES,
  RECOVERY_CODE_MESSAGES,
  UNAVAILABLE_MESSAGE,
  VERIFICATION_EXPIRED_MESSAGE,
  codeResentMessage,
  codeStepMessage,
  loginCodeSentMessage,
  noNewLoginCodeMessage,
  failureMessage,
  forgotPasswordSchema,
  loginSchema,
  noMoreCodesMessage,
  passkeyAnswerSchema,
  PASSKEY_MESSAGES,
  secondStepSchema,
  SECOND_STEP_FIELDS,
  type SecondStepWay,
  registerSchema,
  resendCodeSchema,
  sendCodeBySchema,
  tooManyAttemptsMessage,
  verifySchema,
} from "@/lib/auth/forms";
import { codeTryOutcome, mayTryCode, newCodeVerdict, stepKey } from "@/lib/auth/code-steps";
import { rememberDevice, rememberedDeviceToken } from "@/lib/auth/device-store";
import { beginLogin } from "@/lib/auth/login";
import { siteUrl } from "@/lib/auth/responses";
import { safeReturnTo } from "@/lib/auth/return-to";
import { SITE_PAGES, newPasswordNeededHref } from "@/lib/auth/routes";
import { logger } from "@/lib/observability/log";
import { clientAddress } from "@/lib/security/client-address";
import { attemptAuthAction, countStepTry, forgetAccountFailures, forgetStepTries, stepTries, type AuthAction } from "@/lib/security/rate-limits";
import { describeFailure } from "@/lib/wix/errors";
import {
  logIn,
  register,
  resendLoginCode,
  resendVerificationCode,
  sendPasswordReset,
  verifyEmail,
  verifyPasskey,
  verifySecondFactor,
  type AuthFailure,
  type AuthOutcome,
  type CaptchaAnswer,
  type ChallengedFactorType,
} from "@/lib/wix/identity";

type Reply = (options?: {
  formErrors?: string[];
  fieldErrors?: Record<string, string[]>;
  resetForm?: boolean;
  hideFields?: string[];
}) => SubmissionResult<string[]>;

const HIDDEN = ["password"];

/**
 * Counts the attempt against this client's address and the account; a refused one gets a
 * message on the form saying how long to wait, and never reaches the platform. A slowed one
 * (an account past its login limit) waits first.
 */
async function refusedAttempt(action: AuthAction, account: string, reply: Reply, hideFields?: string[]): Promise<FormState | null> {
  const verdict = await attemptAuthAction(action, { address: clientAddress(await headers()), account });
  if (!verdict.allowed) return { result: reply({ formErrors: [tooManyAttemptsMessage(verdict.retryAfterSeconds)], hideFields }) };
  if (verdict.delayMs) await new Promise((resolve) => setTimeout(resolve, verdict.delayMs));
  return null;
}

type PendingCodeStep = NonNullable<Awaited<ReturnType<typeof readPendingVerification>>>;

/**
 * The code step waiting in the sealed cookie (an e-mail verification, or a login's second
 * factor), once the throttle lets this attempt through; otherwise the form's answer.
 */
async function pendingCodeStep(
  step: "verify-email" | "second-factor",
  action: AuthAction,
  reply: Reply,
): Promise<{ pending: PendingCodeStep } | { answer: FormState }> {
  const pending = await readPendingVerification(await cookies());
  if (!pending || pending.awaitingApproval || !!pending.secondFactor !== (step === "second-factor")) {
    return { answer: { result: reply({ formErrors: [VERIFICATION_EXPIRED_MESSAGE] }) } };
  }
  const refused = await refusedAttempt(action, pending.email, reply);
  return refused ? { answer: refused } : { pending };
}

/**
 * A code typed on the pending step, counted against the step's own tries (lib/auth/code-steps.ts):
 * the platform's answer, or past the tries the last one's without asking it.
 */
async function tryStepCode(
  pending: PendingCodeStep,
  reply: Reply,
  failure: string,
  check: () => Promise<AuthOutcome>,
): Promise<{ value: AuthOutcome } | { answer: FormState }> {
  const { count } = await countStepTry("codeTries", stepOf(pending));
  if (!mayTryCode(count)) return { value: codeTryOutcome(count, null) };
  const checked = await platformStep(failure, reply, check);
  return "answer" in checked ? checked : { value: codeTryOutcome(count, checked.value) };
}

/** A platform call made for a form: its result, or the "unavailable" answer (keeping the form's hidden fields and robot check) once the failure is logged. */
async function platformStep<T>(
  failure: string,
  reply: Reply,
  call: () => Promise<T>,
  form: { hideFields?: string[]; captcha?: CaptchaStage } = {},
): Promise<{ value: T } | { answer: FormState }> {
  try {
    return { value: await call() };
  } catch (error) {
    logger().error({ failure: describeFailure(error) }, failure);
    return { answer: { result: reply({ formErrors: [UNAVAILABLE_MESSAGE], hideFields: form.hideFields }), captcha: form.captcha } };
  }
}

/** A login's second-factor challenge as the pending login keeps it. */
function pendingSecondFactor(outcome: AuthOutcome & { kind: "second-factor" }, login: { email: string; returnTo: string }): PendingVerification {
  const { factorType: type, hint, appToo, others, recoveryCodes, passkey } = outcome;
  return {
    stateToken: outcome.stateToken,
    email: login.email,
    returnTo: login.returnTo,
    secondFactor: { type, hint, appToo, others, recoveryCodes, ...(passkey && { passkey }) },
  };
}

/** The step's key in its tries: its first challenge's, through the fresh passkey challenges it may get. */
const stepOf = (pending: PendingCodeStep) => pending.step ?? stepKey(pending.stateToken);

type CaptchaFields = { captchaStage?: CaptchaStage; captchaToken?: string; invisibleCaptchaToken?: string };

/**
 * What the form's robot check answered: the invisible check's token, or the visible challenge's
 * (the local test widget's, or Google's widget's, which names its field itself).
 */
function captchaFrom(formData: FormData, fields: CaptchaFields): CaptchaAnswer | undefined {
  if (fields.captchaStage === "invisible") return fields.invisibleCaptchaToken ? { token: fields.invisibleCaptchaToken, invisible: true } : undefined;
  const google = formData.get("g-recaptcha-response");
  const token = fields.captchaToken || (typeof google === "string" && google) || undefined;
  return token ? { token, invisible: false } : undefined;
}

/** The check the form carries next: none until the platform asks, then the invisible one, then the visible one if that was not enough. */
function nextCaptchaStage(sent: CaptchaStage | undefined, reason: AuthFailure): CaptchaStage | undefined {
  if (reason !== "missingCaptchaToken" && reason !== "invalidCaptchaToken") return sent;
  return sent ? "visible" : "invisible";
}

/**
 * Where a successful step goes next: member tokens through the callback (the session token
 * never reaches the browser's address bar, only the platform's authorize request), or the
 * page that asks for a code (an e-mail verification, a second factor) with the state token
 * sealed in a cookie.
 */
async function continueWith(
  outcome: AuthOutcome,
  reply: Reply,
  context: { email: string; returnTo: string; captcha?: CaptchaStage; signUp: boolean; decoy?: true },
): Promise<FormState> {
  const jar = await cookies();
  switch (outcome.kind) {
    case "signed-in": {
      let target: string;
      try {
        target = await beginLogin(jar, jar, { returnTo: context.returnTo, mode: "direct", sessionToken: outcome.sessionToken, signUp: context.signUp });
      } catch (error) {
        logger().error({ failure: describeFailure(error) }, "finishing a form login failed");
        return { result: reply({ formErrors: [UNAVAILABLE_MESSAGE], hideFields: HIDDEN }) };
      }
      redirect(target);
    }
    case "verify-email":
      await writePendingVerification(jar, {
        stateToken: outcome.stateToken,
        email: context.email,
        returnTo: context.returnTo,
        signUp: context.signUp,
        decoy: context.decoy,
      });
      redirect(SITE_PAGES.verify);
    case "second-factor":
      await writePendingVerification(jar, pendingSecondFactor(outcome, context));
      redirect(SITE_PAGES.loginCode);
    case "awaiting-approval":
      return { result: reply({ resetForm: true }), done: AWAITING_APPROVAL_MESSAGE, finished: { href: "/", label: "Back to the home page" } };
    case "failed": {
      const fieldErrors: Record<string, string[]> = {};
      for (const [field, message] of Object.entries(outcome.fields)) fieldErrors[field] = [message];
      const field = FAILURE_FIELD[outcome.reason];
      if (field && !fieldErrors[field]) fieldErrors[field] = [FAILURE_MESSAGES[outcome.reason]];
      const captcha = nextCaptchaStage(context.captcha, outcome.reason);
      // The invisible check asks nothing of the person: only another try.
      const message = captcha === "invisible" && !context.captcha ? INVISIBLE_CAPTCHA_MESSAGE : failureMessage(outcome);
      const formErrors = field ? [] : [message];
      return { result: reply({ formErrors, fieldErrors, hideFields: HIDDEN }), captcha };
    }
  }
}

const returnPath = (value: string | undefined) => safeReturnTo(value, siteUrl("/").origin);

export async function logInAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") return { result: submission.reply({ hideFields: HIDDEN }) };
  const { email, password, returnTo, captchaStage } = submission.value;
  const refused = await refusedAttempt("login", email, submission.reply, HIDDEN);
  if (refused) return refused;
  // A browser this member ticked "Remember this device" on shows its token; the platform decides whether it still counts.
  const deviceToken = await rememberedDeviceToken(await cookies(), email);
  const loggedIn = await platformStep(
    "logging in failed",
    submission.reply,
    () => logIn({ email, password, captcha: captchaFrom(formData, submission.value), deviceToken }),
    {
      hideFields: HIDDEN,
      captcha: captchaStage,
    },
  );
  if ("answer" in loggedIn) return loggedIn.answer;
  let outcome = loggedIn.value;
  // A right password counts as a success even when a second factor's code is still to come.
  if (outcome.kind === "signed-in" || outcome.kind === "second-factor") await forgetAccountFailures("login", email);
  // The account has no password to log in with (imported without one, or its owner asked for a
  // new one): the only way on is a reset link, so the member goes straight to asking for one.
  if (outcome.kind === "failed" && outcome.reason === "resetPassword") redirect(newPasswordNeededHref());
  // An unknown address reads as a wrong password, so the form does not tell who is a member.
  if (outcome.kind === "failed" && outcome.reason === "invalidEmail") outcome = { ...outcome, reason: "invalidPassword" };
  return continueWith(outcome, submission.reply, { email, returnTo: returnPath(returnTo), captcha: captchaStage, signUp: false });
}

export async function registerAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: registerSchema });
  if (submission.status !== "success") return { result: submission.reply({ hideFields: HIDDEN }) };
  const { returnTo, captchaToken, invisibleCaptchaToken, captchaStage, ...details } = submission.value;
  const refused = await refusedAttempt("register", details.email, submission.reply, HIDDEN);
  if (refused) return refused;
  const registered = await platformStep(
    "registering failed",
    submission.reply,
    () => register({ ...details, captcha: captchaFrom(formData, { captchaStage, captchaToken, invisibleCaptchaToken }) }),
    { hideFields: HIDDEN, captcha: captchaStage },
  );
  if ("answer" in registered) return registered.answer;
  let outcome = registered.value;
  // A taken address gets the same "we sent a code" page as a new one (its owner is mailed by the
  // platform instead); the state token leads nowhere, so any code typed there is simply wrong.
  const decoy = outcome.kind === "failed" && outcome.reason === "emailAlreadyExists" ? true : undefined;
  if (decoy) outcome = { kind: "verify-email", stateToken: randomBytes(32).toString("base64url") };
  return continueWith(outcome, submission.reply, { email: details.email, returnTo: returnPath(returnTo), captcha: captchaStage, signUp: true, decoy });
}

export async function verifyAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: verifySchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const step = await pendingCodeStep("verify-email", "verify", submission.reply);
  if ("answer" in step) return step.answer;
  const { pending } = step;
  const verified = await tryStepCode(pending, submission.reply, "verifying an e-mail failed", () => verifyEmail(submission.value.code, pending.stateToken));
  if ("answer" in verified) return verified.answer;
  const outcome = verified.value;
  if (outcome.kind === "failed" && outcome.reason === "tooManyAttempts")
    return { result: submission.reply({ fieldErrors: { code: [codeStepMessage(outcome)!] } }) };
  const jar = await cookies();
  // Confirmed, and now waiting for an organiser: the page says so in place of the code form.
  if (outcome.kind === "awaiting-approval") await writePendingVerification(jar, { ...pending, awaitingApproval: true });
  else if (outcome.kind !== "failed") clearPendingVerification(jar);
  return continueWith(outcome, submission.reply, { email: pending.email, returnTo: pending.returnTo, signUp: pending.signUp ?? false });
}

/**
 * "Resend code" on the verify page: a new code for the verification in the sealed cookie, within
 * the site's limits per address and account, the step's own (lib/auth/code-steps.ts) and the
 * platform's hourly limit of code mails. A decoy's step meets the same limits and answers alike.
 */
export async function resendCodeAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: resendCodeSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  // A login waiting for a second factor has its own "Send a new code" on the login-code page.
  const step = await pendingCodeStep("verify-email", "resendCode", submission.reply);
  if ("answer" in step) return step.answer;
  const { pending } = step;
  const key = stepOf(pending);
  const verdict = newCodeVerdict(await stepTries("codeTries", key), await countStepTry("newCodes", key));
  if (verdict === "expired") return { result: submission.reply({ formErrors: [VERIFICATION_EXPIRED_MESSAGE] }) };
  if (verdict !== "send") return { result: submission.reply({ formErrors: [noMoreCodesMessage(verdict.waitSeconds)] }) };
  // A taken address's page answers as a new account's would; its owner was mailed instead.
  if (!pending.decoy) {
    const resent = await platformStep("resending a verification code failed", submission.reply, () => resendVerificationCode(pending.stateToken));
    if ("answer" in resent) return resent.answer;
    if (resent.value.kind === "expired") return { result: submission.reply({ formErrors: [VERIFICATION_EXPIRED_MESSAGE] }) };
    if (resent.value.kind === "tooManyAttempts") return { result: submission.reply({ formErrors: [noMoreCodesMessage(resent.value.retryAfterSeconds)] }) };
  }
  // The new code gets the tries afresh, as the platform gives them.
  await forgetStepTries("codeTries", key);
  return { result: submission.reply(), done: codeResentMessage(pending.email) };
}

/**
 * A login's second step answered with something typed, the member's choice of way: the code its
 * second factor was sent (or the app shows, for a login challenged by the app), the app's code in
 * its place, or a one-time recovery code for a member who lost their phone. A wrong one may be
 * tried again; an expired one, or one tried too often, no longer works, so the member logs in again.
 */
export async function secondStepAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: secondStepSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const { way, code, rememberDevice } = submission.value;
  const field = SECOND_STEP_FIELDS[way];
  if (way === "app") return codeStep(submission.reply, field, { code, rememberDevice }, () => APP_CODE_MESSAGES, "TOTP");
  if (way === "recovery") return codeStep(submission.reply, field, { code, rememberDevice }, () => RECOVERY_CODE_MESSAGES, "RECOVERY_CODE");
  return codeStep(submission.reply, field, { code, rememberDevice }, (type) => (type === "TOTP" ? APP_CODE_MESSAGES : CODE_STEP_MESSAGES));
}

/**
 * A passkey's answer to the login's request (the browser's credential JSON), counted against the
 * step's tries as a code is. A refused one has used the request up, so the login gets a fresh
 * one (which sends nothing) for the next press, in the same step.
 */
export async function passkeyAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: passkeyAnswerSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const { reply } = submission;
  return secondStep(
    reply,
    submission.value.rememberDevice,
    (pending, remember) => {
      const request = pending.secondFactor?.passkey;
      return request ? verifyPasskey(request, submission.value.credential, pending.stateToken, remember) : Promise.resolve(NO_PASSKEY_REQUEST);
    },
    async (outcome, pending) => {
      const message = codeStepMessage(outcome, PASSKEY_MESSAGES);
      if (!message) return undefined;
      if (outcome.reason === "invalidCode") {
        const fresh = await platformStep("asking a fresh passkey challenge failed", reply, () =>
          resendLoginCode(pending.email, pending.stateToken, "WEBAUTHN"),
        );
        if ("answer" in fresh) return fresh.answer;
        if (fresh.value.kind === "second-factor") {
          await writePendingVerification(await cookies(), { ...pendingSecondFactor(fresh.value, pending), step: stepOf(pending) });
        }
      }
      return { result: reply({ formErrors: [message] }) };
    },
  );
}

/** A login without a passkey request was sent a passkey's answer (a stale page): as a refused one. */
const NO_PASSKEY_REQUEST: AuthOutcome = { kind: "failed", reason: "codeExpired", fields: {} };

/**
 * The login's second step with a code in `field`: by the challenged factor, or as an app's or a
 * recovery code. A login challenged by a passkey sent no code to type.
 */
function codeStep(
  reply: Reply,
  field: (typeof SECOND_STEP_FIELDS)[SecondStepWay],
  { code, rememberDevice }: { code: string; rememberDevice?: boolean },
  messagesFor: (type: ChallengedFactorType) => Partial<Record<AuthFailure, string>>,
  as?: "TOTP" | "RECOVERY_CODE",
): Promise<FormState> {
  return secondStep(
    reply,
    rememberDevice,
    (pending, remember) => {
      const type = as ?? pending.secondFactor!.type;
      return type === "WEBAUTHN" ? Promise.resolve(NO_CODE_SENT) : verifySecondFactor(type, code, pending.stateToken, remember);
    },
    // The pending login stays even when its code no longer works: a cookie changed here would
    // re-render the page without the message. It expires on its own; the platform refuses it until then.
    async (outcome, pending) => {
      const message = codeStepMessage(outcome, messagesFor(pending.secondFactor!.type));
      return message ? { result: reply({ fieldErrors: { [field]: [message] } }) } : undefined;
    },
  );
}

/** A code typed for a login challenged by a passkey, which sent none: as a wrong code. */
const NO_CODE_SENT: AuthOutcome = { kind: "failed", reason: "invalidCode", fields: {} };

/**
 * The login's second step: `answer` puts the member's answer to the platform, within the step's
 * tries; `refused` words a refusal it names. With "Remember this device" ticked, the token the
 * platform gives for this browser is kept in its sealed cookie.
 */
async function secondStep(
  reply: Reply,
  remember: boolean | undefined,
  answer: (pending: PendingCodeStep, remember: { userAgent: string } | null) => Promise<AuthOutcome>,
  refused: (outcome: AuthOutcome & { kind: "failed" }, pending: PendingCodeStep) => Promise<FormState | undefined>,
): Promise<FormState> {
  const step = await pendingCodeStep("second-factor", "verify", reply);
  if ("answer" in step) return step.answer;
  const { pending } = step;
  const userAgent = (await headers()).get("user-agent") ?? "";
  const checked = await tryStepCode(pending, reply, "checking a login's second step failed", () => answer(pending, remember ? { userAgent } : null));
  if ("answer" in checked) return checked.answer;
  const outcome = checked.value;
  const answered = outcome.kind === "failed" ? await refused(outcome, pending) : undefined;
  if (answered) return answered;
  if (outcome.kind !== "failed") {
    const jar = await cookies();
    clearPendingVerification(jar);
    if (outcome.kind === "signed-in" && outcome.deviceToken) await rememberDevice(jar, jar, pending.email, outcome.deviceToken);
    await forgetAccountFailures("login", pending.email);
  }
  return continueWith(outcome, reply, { email: pending.email, returnTo: pending.returnTo, signUp: false });
}

/**
 * A new code for the login waiting for one, by the same factor or (`factorType`) another of the
 * member's that they chose: the page shows again, for the new code (the previous one stops working).
 */
export async function resendLoginCodeAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: sendCodeBySchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const step = await pendingCodeStep("second-factor", "verify", submission.reply);
  if ("answer" in step) return step.answer;
  const { pending } = step;
  const { factorType } = submission.value;
  if (factorType && !pending.secondFactor?.others?.includes(factorType)) return { result: submission.reply({ formErrors: [FAILURE_MESSAGES.unknown] }) };
  const resent = await platformStep("sending a new login code failed", submission.reply, () => resendLoginCode(pending.email, pending.stateToken, factorType));
  if ("answer" in resent) return resent.answer;
  const outcome = resent.value;
  if (outcome.kind === "failed") {
    const message = outcome.reason === "tooManyAttempts" && outcome.retryAfterSeconds ? noNewLoginCodeMessage(outcome.retryAfterSeconds) : undefined;
    return { result: submission.reply({ formErrors: [message ?? codeStepMessage(outcome) ?? failureMessage(outcome)] }) };
  }
  if (outcome.kind !== "second-factor" || (outcome.factorType !== "EMAIL" && outcome.factorType !== "SMS")) {
    return continueWith(outcome, submission.reply, { email: pending.email, returnTo: pending.returnTo, signUp: false });
  }
  // The page stays, with the new challenge in the cookie and the answer where the button was (not a
  // redirect, which would say nothing and drop the focus to the top).
  await writePendingVerification(await cookies(), pendingSecondFactor(outcome, pending));
  return { result: submission.reply(), done: loginCodeSentMessage(outcome.factorType, outcome.hint) };
}

/** The same answer whether or not the address has an account. */
export async function forgotPasswordAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const refused = await refusedAttempt("forgotPassword", submission.value.email, submission.reply);
  if (refused) return refused;
  const sent = await platformStep("sending a reset e-mail failed", submission.reply, () =>
    sendPasswordReset(submission.value.email, siteUrl(SITE_PAGES.login).href),
  );
  if ("answer" in sent) return sent.answer;
  return {
    result: submission.reply({ resetForm: true }),
    done: "If an account exists for that address, we have sent it a link to set a new password. Check your inbox (and the spam folder).",
  };
}
