import "@/lib/zod-csp";
import { z } from "zod";
import type { AuthFailure, SendingFactorType } from "@/lib/wix/identity";
import { waitInWords } from "@ridgeline/platform-contract/words";

/**
 * The site's own sign-up and login forms: their fields, rules and messages. Client components
 * validate with the same schemas before submitting; server actions validate again.
 */

const email = z
  .string({ error: "Enter your e-mail address." })
  .trim()
  .min(1, "Enter your e-mail address.")
  .max(254, "That e-mail address is too long.")
  .pipe(z.email("Enter an e-mail address like name@example.com."));
const returnTo = z.string().max(2048).optional();
const captchaToken = z.string().max(4096).optional();
/** The robot check the form carried (captcha-field.tsx), and the invisible check's answer. */
const captchaStage = z.enum(["invisible", "visible"]).optional();

/** The rules for a password a member chooses, checked again (and more strictly) by the platform. */
export function newPassword(missing: string) {
  return z
    .string({ error: missing })
    .min(8, "Use at least 8 characters.")
    .max(256, "Use at most 256 characters.")
    .refine((value) => value.trim().length > 0, "A password cannot be only spaces.");
}

export const loginSchema = z.object({
  email,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(256, "That password is too long."),
  returnTo,
  captchaToken,
  invisibleCaptchaToken: captchaToken,
  captchaStage,
});

/** A checkbox without a wrong answer: sent as "on" when ticked, left out when not. */
export const checkbox = z
  .boolean()
  .optional()
  .transform((value) => value ?? false);

const name = (label: string) => z.string().trim().max(100, `${label} can be at most 100 characters.`).optional();

export const registerSchema = z.object({
  email,
  password: newPassword("Choose a password."),
  firstName: name("First name"),
  lastName: name("Last name"),
  nickname: name("Nickname"),
  publicProfile: checkbox,
  returnTo,
  captchaToken,
  invisibleCaptchaToken: captchaToken,
  captchaStage,
});

export const verifySchema = z.object({
  code: z
    .string({ error: "Enter the code from the e-mail." })
    .trim()
    .regex(/^[0-9A-Za-z-]{4,12}$/, "Enter the code exactly as it appears in the e-mail."),
});

/** A form that is only a button (send a new code, turn on e-mail codes): nothing to check. */
export const buttonOnlySchema = z.object({});

/** "Send a new code", or "Send the code by text message instead": the factor chosen, if another. */
export const sendCodeBySchema = z.object({ factorType: z.enum(["EMAIL", "SMS"] satisfies SendingFactorType[]).optional() });

/** The second step of a login with a second factor: the 6-digit code it sent. */
/** A six-digit code, sent to the member or shown by their authenticator app; spaces allowed. */
export const sixDigitCode = z
  .string({ error: "Enter the 6-digit code." })
  .trim()
  .transform((value) => value.replace(/\s/g, ""))
  .pipe(z.string().regex(/^[0-9]{6}$/, "Enter the 6 digits of the code, like 123456."));

/** "Remember this device for 30 days", a checkbox: ticked, it is sent as "on". */
const rememberDevice = z.boolean().optional();

/** A passkey's answer at a login's second step: the credential JSON the browser's WebAuthn call gave. */
export const passkeyAnswerSchema = z.object({ credential: z.string().min(1).max(16_000), rememberDevice });

/** One of the member's one-time recovery codes, as written down: case, spaces and dashes do not matter. */
const recoveryCode = z
  .string({ error: "Enter one of your recovery codes." })
  .trim()
  .min(1, "Enter one of your recovery codes.")
  .max(20, "That is longer than a recovery code.");

/** The id of the login's second-step form: the fields and the passkey's button outside it name it. */
export const SECOND_STEP_FORM = "second-step";

/** The ways of answering a login's second step with something typed, each with its field. */
export const SECOND_STEP_FIELDS = { code: "code", app: "appCode", recovery: "recoveryCode" } as const;
export type SecondStepWay = keyof typeof SECOND_STEP_FIELDS;
const WAYS = Object.keys(SECOND_STEP_FIELDS) as SecondStepWay[];

/**
 * The login's second step, one form for every way of answering it (the code sent or asked for, the
 * app's code, a recovery code) and its one "Remember this device" box. The button pressed names the
 * way; Enter in a field presses the form's first button, so a way whose field is empty gives way to
 * the one that was filled in.
 */
export const secondStepSchema = z
  .object({
    way: z.enum(WAYS).optional(),
    code: z.string().optional(),
    appCode: z.string().optional(),
    recoveryCode: z.string().optional(),
    rememberDevice,
  })
  .transform((value, context) => {
    const filled = WAYS.filter((way) => value[SECOND_STEP_FIELDS[way]]?.trim());
    const way = value.way && filled.includes(value.way) ? value.way : (filled[0] ?? value.way ?? "code");
    const field = SECOND_STEP_FIELDS[way];
    const checked = (way === "recovery" ? recoveryCode : sixDigitCode).safeParse(value[field]);
    if (!checked.success) {
      context.addIssue({ code: "custom", path: [field], message: checked.error.issues[0].message });
      return z.NEVER;
    }
    return { way, code: checked.data, rememberDevice: value.rememberDevice };
  });

export const forgotPasswordSchema = z.object({ email });

/** "Resend code" sends nothing but itself: the verification it is for is in a sealed cookie. */
export const resendCodeSchema = z.object({});

/** One message for each way a login or registration can fail. */
export const FAILURE_MESSAGES: Record<AuthFailure, string> = {
  invalidEmail: "Enter a valid e-mail address.",
  // The login form shows this for an unknown address too: the same words whoever is a member.
  invalidPassword: "That e-mail address and password do not match. Check both, or reset the password.",
  resetPassword: "This account needs a new password before you can log in. Enter its e-mail address and we will send you a link to set one.",
  emailAlreadyExists: "An account with this e-mail address already exists. Log in instead, or reset the password.",
  missingCaptchaToken: "Please confirm you are not a robot, then try again.",
  invalidCaptchaToken: "The robot check did not pass. Please do it again.",
  invalidCode: "That code is not right, or it has expired. Check the latest e-mail and try again.",
  codeExpired: "That code has expired. Log in again and we will send you a new one.",
  // Only when the platform gave no wait: with one, `failureMessage` says how long.
  tooManyAttempts: "Too many attempts for this account just now. Please try again later.",
  // Only after a right password: a wrong one gets the common message.
  blocked: "This account is blocked, so it cannot log in. If you think this is a mistake, contact a club organiser: they can unblock it.",
  invalidField: "Some details need another look.",
  unknown: "Something went wrong on our side. Please try again in a moment.",
};

/** The field a failure is about, so that one field, and only it, is marked. */
export const FAILURE_FIELD: Partial<Record<AuthFailure, "email" | "password" | "code">> = {
  invalidEmail: "email",
  invalidPassword: "password",
  emailAlreadyExists: "email",
  invalidCode: "code",
};

/** When the platform first asks for a robot check: the invisible one needs nothing but another try (the password is cleared). */
export const INVISIBLE_CAPTCHA_MESSAGE = "For your security, please enter your password again and submit once more.";

/** A failure's message: for too many attempts, the wait the platform gave, when it gave one. */
export function failureMessage(outcome: { reason: AuthFailure; retryAfterSeconds?: number }): string {
  return outcome.reason === "tooManyAttempts" && outcome.retryAfterSeconds
    ? tooManyAttemptsMessage(outcome.retryAfterSeconds)
    : FAILURE_MESSAGES[outcome.reason];
}

/** What a code step (an e-mail confirmation, a login's second step) says next to the code: a wrong code, an expired one, too many wrong ones. */
export const CODE_STEP_MESSAGES: Partial<Record<AuthFailure, string>> = {
  invalidCode: "That code is not right. Check the latest message and try again.",
  codeExpired: FAILURE_MESSAGES.codeExpired,
  tooManyAttempts: "Too many wrong codes, so this one no longer works. Log in again and we will send you a new one.",
};

/** A code step's message for a failure it names: for too many tries, the wait when the platform gave one (a limit on codes), else the code is used up. */
export function codeStepMessage(
  outcome: { reason: AuthFailure; retryAfterSeconds?: number },
  messages: Partial<Record<AuthFailure, string>> = CODE_STEP_MESSAGES,
): string | undefined {
  if (outcome.reason === "tooManyAttempts" && outcome.retryAfterSeconds) return tooManyAttemptsMessage(outcome.retryAfterSeconds);
  return messages[outcome.reason];
}

/** The right code of a sign-up that an organiser has still to approve. */
export const EMAIL_CONFIRMED_AWAITING_APPROVAL = "E-mail confirmed; your account is waiting for approval.";

/** A recovery code in place of the factor's code: each works once. */
export const RECOVERY_CODE_MESSAGES: Partial<Record<AuthFailure, string>> = {
  ...CODE_STEP_MESSAGES,
  invalidCode: "That recovery code is not right, or it was already used. Each code works once.",
  tooManyAttempts: "Too many wrong codes for this login. Log in again to try once more.",
};

/** An authenticator app's code: nothing was sent, and a new one shows every 30 seconds. */
export const APP_CODE_MESSAGES: Partial<Record<AuthFailure, string>> = {
  ...CODE_STEP_MESSAGES,
  invalidCode: "That code is not right, or it was already used. Enter the code your app shows now.",
  tooManyAttempts: "Too many wrong codes for this login. Log in again, then enter the code your app shows.",
};

/** A passkey's answer: nothing was sent; a refused one leaves a fresh request for the next press. */
export const PASSKEY_MESSAGES: Partial<Record<AuthFailure, string>> = {
  ...CODE_STEP_MESSAGES,
  invalidCode: "Your passkey was not accepted. Try again, or use one of the other ways below.",
  tooManyAttempts: "Too many tries for this login. Log in again to try once more.",
};

export const AWAITING_APPROVAL_MESSAGE = "Thanks! Your account is waiting for a club organiser to approve it. We will e-mail you when you can log in.";

export const VERIFICATION_EXPIRED_MESSAGE = "This verification has expired. Log in again and we will send a new code.";

export const codeResentMessage = (email: string) => `We sent a new code to ${email}. It replaces the previous one and works for 15 minutes.`;

/** A login's new code went (by the factor the member chose, or the same one): by what, and where. */
export const loginCodeSentMessage = (factorType: "EMAIL" | "SMS", hint: string) =>
  `We sent a new code ${factorType === "SMS" ? "by text message" : "by e-mail"} to ${hint}. It replaces the previous one and works for 15 minutes.`;

/** A login's new code refused (past the hour's codes, or the day's wrong ones): nothing went, and the true wait. */
export function noNewLoginCodeMessage(retryAfterSeconds?: number): string {
  const when = retryAfterSeconds ? `Ask again in ${waitInWords(retryAfterSeconds)}.` : "Try again later.";
  return `No new code was sent: we have sent as many as we can for now. ${when}`;
}

/** No new code for now: the step's own limit, or the platform's hourly one; how long, when known. */
export function noMoreCodesMessage(retryAfterSeconds?: number): string {
  const when = retryAfterSeconds ? `ask again in ${waitInWords(retryAfterSeconds)}` : "try again later";
  return `We have sent as many codes as we can for now. Use the latest one, or ${when}.`;
}

export const UNAVAILABLE_MESSAGE = "We cannot reach the sign-in service right now. Please try again in a minute.";

export { waitInWords };

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many attempts. Please wait ${waitInWords(retryAfterSeconds)}, then try again.`;
}
