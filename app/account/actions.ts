"use server";

import { parseWithZod } from "@conform-to/zod/v4";
import { revalidatePath } from "next/cache";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import type { z } from "zod";
import {
  addPasskeySchema,
  appFactorCodeSchema,
  askFirstSchema,
  cancelSetupSchema,
  changePasswordSchema,
  deleteAccountSchema,
  forgetDeviceSchema,
  passkeyOptionsSchema,
  passwordProofSchema,
  profileSchema,
  removeFactorSchema,
  removePasskeySchema,
  slugSchema,
  smsFactorSchema,
} from "@/lib/account/forms";
import { nextLoginsSentence, type AskFirstWay } from "@/lib/auth/ask-first";
import { askFirstChoice, chooseAskFirst } from "@/lib/auth/ask-first-store";
import { FAILURE_MESSAGES, buttonOnlySchema, failureMessage, tooManyAttemptsMessage } from "@/lib/auth/forms";
import { actAsMember, endDeletedMemberSession, updateSessionMember, type NotMember } from "@/lib/auth/request-session";
import { recheckSessionsOf } from "@/lib/auth/session-check";
import type { FormState, PasskeyCeremony } from "@/lib/form-state";
import type { WixClient } from "@/lib/wix/client";
import { whoSeesProfile } from "@/lib/account/profile-words";
import { TAGS, updateTags } from "@/lib/wix/cache";
import { logger } from "@/lib/observability/log";
import { clientAddress } from "@/lib/security/client-address";
import { attemptAuthAction } from "@/lib/security/rate-limits";
import { describeFailure, refusalOf } from "@/lib/wix/errors";
import { changePassword, recheckPassword } from "@/lib/wix/identity";
import {
  activateFactor,
  beginPasskeyRegistration,
  forgetRememberedDevices,
  mySecondFactors,
  newRecoveryCodes,
  registerPasskey,
  removePasskey,
  turnOffSecondFactor,
  turnOnSecondFactor,
  type PasswordRefusal,
  type SecondFactor,
} from "@/lib/wix/factors";
import { changeMySlug, currentProfile, deleteMyAccount, updateProfile, type Profile } from "@/lib/wix/members";
import { removeReportsBy } from "@/lib/wix/reports";
import { memberIdOf } from "@/lib/wix/signups";
import { reportedCollections } from "@/lib/site-config";
import { RECOVERY_CODES_PATH } from "@/lib/auth/cookie-names";
import { RECOVERY_CODES_HEADING, forgetRecoveryCodes, keepRecoveryCodes } from "@/lib/account/recovery-codes-store";

const NOT_MEMBER_MESSAGES: Record<NotMember["reason"], string> = {
  "signed-out": "You are not logged in any more. Log in, then save again.",
  "session-ended": "Your session has ended. Log in again, then save your changes.",
};

const UNAVAILABLE = "We could not reach the members service. Nothing was changed; please try again in a minute.";

/** A platform failure as a message on the form: its own words for the fields it names, else a general one. */
function failed(
  reply: (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => FormState["result"],
  error: unknown,
  what: string,
  hideFields?: string[],
): FormState {
  const refusal = refusalOf(error);
  if (refusal?.violations.length) {
    const fieldErrors = Object.fromEntries(
      refusal.violations.map((violation) => [violation.field.split(".").at(-1) ?? violation.field, [violation.description ?? "This value is not accepted."]]),
    );
    return { result: reply({ formErrors: ["Some details were not accepted."], fieldErrors, hideFields }) };
  }
  logger().error({ failure: describeFailure(error) }, `${what} failed`);
  return { result: reply({ formErrors: [UNAVAILABLE], hideFields }) };
}

/** A profile change shows at once on the member's public page and wherever profiles are read from the cache. */
function revalidateProfile(profile: Pick<Profile, "slug">, previousSlug?: string) {
  revalidatePath("/account");
  updateTags([TAGS.members]);
  for (const slug of new Set([profile.slug, previousSlug])) if (slug) revalidatePath(`/members/${slug}`);
}

export async function updateProfileAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: profileSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  let outcome;
  try {
    outcome = await actAsMember(async (client, session) => {
      const id = session.member?.id ?? (await currentProfile(client)).id;
      return updateProfile(client, id, submission.value);
    });
  } catch (error) {
    return failed(submission.reply, error, "Saving a profile");
  }
  if (!outcome.ok) return { result: submission.reply({ formErrors: [NOT_MEMBER_MESSAGES[outcome.reason]] }) };
  const profile = outcome.value;
  // The header reads the name from the session, so it shows the new one at once.
  await updateSessionMember({ id: profile.id, name: profile.name });
  revalidateProfile(profile);
  return { result: submission.reply(), done: "Your profile is saved." };
}

export async function changeSlugAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: slugSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  let outcome;
  try {
    outcome = await actAsMember(async (client) => {
      const before = await currentProfile(client);
      return { before, change: await changeMySlug(client, submission.value.slug) };
    });
  } catch (error) {
    return failed(submission.reply, error, "Changing a profile address");
  }
  if (!outcome.ok) return { result: submission.reply({ formErrors: [NOT_MEMBER_MESSAGES[outcome.reason]] }) };
  const { before, change } = outcome.value;
  if (!change.ok) return { result: submission.reply({ fieldErrors: { slug: ["Another member already uses this address. Try another one."] } }) };
  revalidateProfile({ slug: change.slug }, before.slug);
  return { result: submission.reply(), done: `Your profile is now at /members/${change.slug}. ${whoSeesProfile(before.isPrivate)}` };
}

const PASSWORDS = ["currentPassword", "newPassword", "confirmPassword"];

export async function changePasswordAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: changePasswordSchema });
  if (submission.status !== "success") return { result: submission.reply({ hideFields: PASSWORDS }) };
  const { currentPassword, newPassword } = submission.value;
  let outcome;
  try {
    outcome = await actAsMember(async (client) => {
      const { id, email } = await currentProfile(client);
      if (!email) return { field: "currentPassword", message: "This account has no login e-mail, so its password cannot be checked." };
      // Only whoever holds this member's session spends this limit, so it may refuse outright.
      const verdict = await attemptAuthAction("passwordCheck", { address: clientAddress(await headers()), account: id });
      if (!verdict.allowed) return { field: undefined, message: tooManyAttemptsMessage(verdict.retryAfterSeconds) };
      // The platform changes the password on the session alone; the current password is asked for first, as a second check.
      // Sent with the member's own session it is a re-check: no robot check, no login code, no new session.
      const check = await recheckPassword(client, email, currentPassword);
      if ("kind" in check) {
        if (check.reason === "invalidPassword") return { field: "currentPassword", message: "That is not your current password." };
        return { field: undefined, message: failureMessage(check) };
      }
      const change = await changePassword(client, newPassword);
      if (!change.ok) return { field: "newPassword", message: change.reason };
      // The platform ended the member's other sessions: each, on any instance, is asked about at its next page view.
      recheckSessionsOf(id);
      return null;
    });
  } catch (error) {
    return failed(submission.reply, error, "Changing a password", PASSWORDS);
  }
  if (!outcome.ok) return { result: submission.reply({ formErrors: [NOT_MEMBER_MESSAGES[outcome.reason]], hideFields: PASSWORDS }) };
  const problem = outcome.value;
  if (problem) {
    const errors = problem.field ? { fieldErrors: { [problem.field]: [problem.message] } } : { formErrors: [problem.message] };
    return { result: submission.reply({ ...errors, hideFields: PASSWORDS }) };
  }
  return { result: submission.reply({ resetForm: true }), done: "Your password is changed. Use the new one next time you log in." };
}

/** What the platform says when the password given as proof does not do: for too many tries, the wait it gave. */
const passwordRefusalMessage = (refusal: PasswordRefusal) =>
  refusal === "wrong-password"
    ? "That is not your password."
    : refusal === "changed-in-this-session"
      ? "You changed your password since you logged in. Log out and log in again with it, then change two-step sign-in."
      : refusal.retryAfterSeconds
        ? tooManyAttemptsMessage(refusal.retryAfterSeconds)
        : FAILURE_MESSAGES.tooManyAttempts;

/**
 * What a change to two-step sign-in may come to besides done: a refusal of the password, a field's or the form's message, recovery codes,
 * a ceremony, or done in words of its own.
 */
type FactorChange =
  | void
  | PasswordRefusal
  | { field: string; message: string }
  | { formError: string }
  | { recoveryCodes: string[] }
  | { ceremony: PasskeyCeremony }
  | { done: string };

/** The member's ways that are on (oldest first) and the login e-mail this browser's "Ask first for" is kept under. */
async function waysAndEmail(client: WixClient, accessToken: string): Promise<{ ways: AskFirstWay[]; email: string | undefined }> {
  const [profile, { ways }] = await Promise.all([currentProfile(client), mySecondFactors(accessToken)]);
  return { ways, email: profile.email };
}

/**
 * What the next logins on this browser do once `added` is on: which way they ask first (the oldest,
 * or this browser's choice), read afresh. Empty when that cannot be read: the change itself is made.
 */
async function nextLogins(client: WixClient, accessToken: string, added: AskFirstWay): Promise<string> {
  try {
    const { ways, email } = await waysAndEmail(client, accessToken);
    const preferred = email ? await askFirstChoice(await cookies(), email) : undefined;
    return ` ${nextLoginsSentence(ways, preferred, added)}`;
  } catch (error) {
    logger().error({ failure: describeFailure(error) }, "Reading what the next logins ask failed");
    return "";
  }
}

/**
 * Turns a second factor on or off for the member, from a form checked against `schema`: the same
 * steps, then the page shows the new list. A change the platform turns down for a field (a wrong
 * code, the password given as proof) says so next to the field; one that made recovery codes
 * goes on to their page of their own, which shows them with the confirmation (they are shown this
 * once); a passkey's first step hands its ceremony to the browser. The password is never sent
 * back to the form. A way turned on (`added`) adds to `done` what the next logins ask first.
 */
async function changeSecondFactor<S extends z.ZodType>(
  formData: FormData,
  schema: S,
  change: (accessToken: string, value: z.output<S>) => Promise<FactorChange>,
  done: string,
  added?: AskFirstWay,
): Promise<FormState> {
  const submission = parseWithZod(formData, { schema });
  const reply = (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; resetForm?: boolean } = {}) =>
    submission.reply({ ...options, hideFields: ["password"] });
  if (submission.status !== "success") return { result: reply() };
  let outcome;
  try {
    outcome = await actAsMember(async (client, session) => {
      const value = await change(session.accessToken, submission.value);
      const madeIt = value === undefined || (typeof value === "object" && ("recoveryCodes" in value || "done" in value));
      return {
        memberId: session.member?.id ?? (await currentProfile(client)).id,
        value,
        next: madeIt && added ? await nextLogins(client, session.accessToken, added) : "",
      };
    });
  } catch (error) {
    return failed(reply, error, "Changing two-step sign-in");
  }
  if (!outcome.ok) return { result: reply({ formErrors: [NOT_MEMBER_MESSAGES[outcome.reason]] }) };
  const { value, memberId, next } = outcome.value;
  if (value === "wrong-password" || value === "changed-in-this-session" || (value && "throttled" in value))
    return { result: reply({ fieldErrors: { password: [passwordRefusalMessage(value)] } }) };
  if (value && "field" in value) return { result: reply({ fieldErrors: { [value.field]: [value.message] } }) };
  if (value && "formError" in value) return { result: reply({ formErrors: [value.formError] }) };
  if (value && "ceremony" in value) return { result: reply(), ceremony: value.ceremony };
  revalidatePath("/account");
  if (value && "recoveryCodes" in value) {
    await keepRecoveryCodes(await cookies(), { memberId, codes: value.recoveryCodes, done: done + next });
    // With a fragment of its own: a post without JavaScript would otherwise keep the one it was sent to.
    redirect(`${RECOVERY_CODES_PATH}#${RECOVERY_CODES_HEADING}`);
  }
  return { result: reply({ resetForm: true }), done: (value && "done" in value ? value.done : done) + next };
}

export async function turnOnEmailFactorAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    passwordProofSchema,
    (accessToken, { password }) => turnOnSecondFactor(accessToken, { type: "EMAIL" }, password),
    "Two-step sign-in is on for codes by e-mail.",
    "EMAIL",
  );
}

export async function turnOnSmsFactorAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    smsFactorSchema,
    (accessToken, { phone, password }) => turnOnSecondFactor(accessToken, { type: "SMS", phone }, password),
    "We texted a code to your phone. Enter it to turn text-message codes on.",
  );
}

/** Starts an authenticator app: the page then shows its QR code and secret, and asks for its first code. */
export async function startAppFactorAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    passwordProofSchema,
    (accessToken, { password }) => turnOnSecondFactor(accessToken, { type: "TOTP" }, password),
    "Scan the QR code with your authenticator app, then enter the code it shows.",
  );
}

/** The app's first code: proof that it holds the secret, so a typo cannot lock the member out. */
export async function activateAppFactorAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    appFactorCodeSchema,
    async (accessToken, { factorId, code }) => {
      const activated = await activateFactor(accessToken, factorId, code);
      // An app's set-up does not end by wrong codes: the member tries the next one.
      if (typeof activated === "string")
        return { field: "code", message: "That code is not right. Check that the app's clock is right, and enter the code it shows now." };
      return activated.recoveryCodes ? { recoveryCodes: activated.recoveryCodes } : undefined;
    },
    "Two-step sign-in is on for your authenticator app.",
    "TOTP",
  );
}

/** The code texted to a phone being turned on: proof that the number is the member's, so a typo locks no one out. */
export async function activatePhoneFactorAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    appFactorCodeSchema,
    async (accessToken, { factorId, code }) => {
      const activated = await activateFactor(accessToken, factorId, code);
      if (activated === "wrong-code") return { field: "code", message: "That code is not right. Check the latest text message and try again." };
      if (activated === "ended") return { field: "code", message: "That code has expired or was tried too often. Enter your number again for a new one." };
    },
    "Two-step sign-in is on for codes by text message.",
    "SMS",
  );
}

/** New recovery codes, the old ones void; only with the member's password, never on the session alone. */
export async function newRecoveryCodesAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    passwordProofSchema,
    async (accessToken, { password }) => {
      const codes = await newRecoveryCodes(accessToken, password);
      return Array.isArray(codes) ? { recoveryCodes: codes } : codes;
    },
    "New recovery codes are ready. The earlier ones no longer work.",
  );
}

/** How the confirmation names a way of two-step sign-in that was turned off. */
const TURNED_OFF: Record<SecondFactor["type"], string> = {
  EMAIL: "Codes by e-mail are off: logins no longer e-mail you a code.",
  SMS: "Codes by text message are off: logins no longer text you a code.",
  TOTP: "The authenticator app is off: logins no longer ask for its code.",
};

/** Turns a factor off, with the member's password; the confirmation names it, as the platform lists it. */
export async function turnOffFactorAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    removeFactorSchema,
    async (accessToken, { factorId, password }) => {
      const { factors } = await mySecondFactors(accessToken);
      const refused = await turnOffSecondFactor(accessToken, factorId, password);
      const type = factors.find((factor) => factor.id === factorId)?.type;
      return refused ?? (type && { done: TURNED_OFF[type] });
    },
    "That way of two-step sign-in is off.",
  );
}

/**
 * The member saved the recovery codes on their page: the page forgets them, and the account page follows. A plain form's
 * action, so not named "…Action" (those take a reply state: lib/security/request-guard.ts).
 */
export async function recoveryCodesSaved(): Promise<void> {
  forgetRecoveryCodes(await cookies());
  redirect("/account#two-step");
}

/** Cancels an app or a phone still waiting for its first code: it guards nothing yet, so no password is asked. */
export async function cancelSetupAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    cancelSetupSchema,
    (accessToken, { factorId }) => turnOffSecondFactor(accessToken, factorId),
    "Cancelled: nothing was turned on.",
  );
}

/**
 * Adding a passkey, its first step: with the member's password, the registration's challenge and
 * options, for the browser's ceremony; the second step (`addPasskeyAction`) takes its answer. Ticked,
 * "every time" asks the device to check the person (PIN, fingerprint, face) at each use.
 */
export async function passkeyOptionsAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    passkeyOptionsSchema,
    async (accessToken, { name, password, everyTime }) => {
      const begun = await beginPasskeyRegistration(accessToken, password, everyTime ? "REQUIRED" : "PREFERRED");
      return typeof begun === "object" && "challengeId" in begun ? { ceremony: { ...begun, name } } : begun;
    },
    "",
  );
}

/** Adding a passkey, its second step: the browser's new credential, under the name given; the first one brings recovery codes. */
export async function addPasskeyAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    addPasskeySchema,
    async (accessToken, registration) => {
      const added = await registerPasskey(accessToken, registration);
      if (added === "refused") return { formError: PASSKEY_REFUSED };
      return added.recoveryCodes ? { recoveryCodes: added.recoveryCodes } : undefined;
    },
    "Your passkey is added: logins can now use it for the second step.",
    "WEBAUTHN",
  );
}

const PASSKEY_REFUSED = "The passkey was not accepted: its request expired or it is registered already. Nothing was changed; try again.";

/** Removes one of the member's passkeys, with their password. */
export async function removePasskeyAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    removePasskeySchema,
    (accessToken, { passkeyId, password }) => removePasskey(accessToken, passkeyId, password),
    "That passkey is removed.",
  );
}

/**
 * "Ask first for": the way this browser's logins lead with, among the member's ways that are on, or
 * none (whichever the login offers first). Kept in a cookie of this browser's, so no password is asked.
 */
export async function askFirstAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: askFirstSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  const way = submission.value.askFirst;
  let outcome;
  try {
    outcome = await actAsMember((client, session) => waysAndEmail(client, session.accessToken));
  } catch (error) {
    return failed(submission.reply, error, "Saving “Ask first for”");
  }
  if (!outcome.ok) return { result: submission.reply({ formErrors: [NOT_MEMBER_MESSAGES[outcome.reason]] }) };
  const { ways, email } = outcome.value;
  if (!email) return { result: submission.reply({ formErrors: [UNAVAILABLE] }) };
  if (way && !ways.includes(way))
    return { result: submission.reply({ fieldErrors: { askFirst: ["That way of two-step sign-in is not on. Choose one listed."] } }) };
  const jar = await cookies();
  await chooseAskFirst(jar, jar, email, way);
  revalidatePath("/account");
  return { result: submission.reply(), done: `Saved for this browser. ${nextLoginsSentence(ways, way)}` };
}

/** Forgets one remembered browser: its next login asks for the second step again. */
export async function forgetDeviceAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const forget = (accessToken: string, { deviceId }: { deviceId: string }) => forgetRememberedDevices(accessToken, deviceId);
  return changeSecondFactor(formData, forgetDeviceSchema, forget, "That device is forgotten.");
}

/** Forgets every remembered browser, this one included. */
export async function forgetAllDevicesAction(_previous: FormState, formData: FormData): Promise<FormState> {
  return changeSecondFactor(
    formData,
    buttonOnlySchema,
    (accessToken) => forgetRememberedDevices(accessToken),
    "Every device is forgotten: each login asks for the second step again.",
  );
}

export async function deleteAccountAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const submission = parseWithZod(formData, { schema: deleteAccountSchema });
  if (submission.status !== "success") return { result: submission.reply() };
  let outcome;
  try {
    outcome = await actAsMember(async (client, session) => {
      // The reports first: once the account is gone, nobody may remove them any more.
      const removedFrom = submission.value.removeReports
        ? await removeReportsBy(client, reportedCollections, await memberIdOf(client, session.member?.id))
        : [];
      await deleteMyAccount(client);
      return removedFrom;
    });
  } catch (error) {
    return failed(submission.reply, error, "Deleting an account");
  }
  if (!outcome.ok) return { result: submission.reply({ formErrors: [NOT_MEMBER_MESSAGES[outcome.reason]] }) };
  await endDeletedMemberSession();
  updateTags([TAGS.members, ...outcome.value.map(TAGS.collection)]);
  // A browser keeps the fragment it posted to (the form's reply, form-reply.ts) across a redirect without one: `#top` is
  // the top of any page, by the HTML standard.
  redirect("/#top");
}
