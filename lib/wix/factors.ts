import "server-only";
import { z } from "zod";
import { ASK_FIRST_WAYS, type AskFirstWay } from "@/lib/auth/ask-first";
import { refusalOf } from "./errors";
import { SECOND_FACTOR_TYPES, type SecondFactorType } from "./identity";
import { platformCall } from "./platform-fetch";

/**
 * A member's second factors (two-step sign-in), on the platform's factors endpoint: the
 * installed SDK has no call for enrolling one, so these are plain calls with the member's token.
 * An authenticator app is `pending` until its first code is entered; until then `setup` carries
 * its secret and otpauth:// link, for the account page to show again.
 */
export type SecondFactor = {
  id: string;
  type: SecondFactorType;
  phone: string | null;
  pending: boolean;
  setup: { secret: string; uri: string } | null;
};

const factorShape = z.object({
  factorId: z.string(),
  type: z.string(),
  phone: z.string().optional(),
  factorStatus: z.string().optional(),
  totpData: z.object({ secret: z.string(), uri: z.string() }).optional(),
});

function toSecondFactor(factor: z.infer<typeof factorShape>): SecondFactor | null {
  const type = SECOND_FACTOR_TYPES.find((known) => known === factor.type);
  if (!type) return null;
  return { id: factor.factorId, type, phone: factor.phone ?? null, pending: factor.factorStatus === "REQUIRE_ACTIVATION", setup: factor.totpData ?? null };
}

const FACTORS_PATH = "/_api/iam/factors/v1/factors";
const RECOVERY_CODES_PATH = "/_api/iam/factors/v1/recovery-codes";

/**
 * The member's second factors (any the site does not know are left out), how many recovery codes they have left, and
 * `ways`: the types that are on, passkeys' included, in the platform's order, whose first a login is challenged by.
 */
export async function mySecondFactors(accessToken: string): Promise<{ factors: SecondFactor[]; recoveryCodesLeft: number; ways: AskFirstWay[] }> {
  const reply = z
    .object({ factors: z.array(factorShape), recoveryCodes: z.object({ remaining: z.number() }).optional() })
    .parse(await platformCall(FACTORS_PATH, { method: "GET", accessToken }));
  return {
    factors: reply.factors.map(toSecondFactor).filter((factor): factor is SecondFactor => factor !== null),
    recoveryCodesLeft: reply.recoveryCodes?.remaining ?? 0,
    ways: reply.factors.flatMap((factor) => ASK_FIRST_WAYS.find((way) => way === factor.type && factor.factorStatus === "ENABLED") ?? []),
  };
}

/**
 * How a change that needs the member's password can be refused: a wrong one, one this session set
 * itself (a new password proves nothing in the session that chose it), or too many wrong ones
 * lately (or, turning a phone on, too many codes texted), with the wait the platform gave.
 */
export type PasswordRefusal = "wrong-password" | "changed-in-this-session" | { throttled: true; retryAfterSeconds?: number };

/** A call that takes the member's password as proof besides the token; its refusals for the password, named. */
async function withPassword<T>(call: () => Promise<T>): Promise<T | PasswordRefusal> {
  try {
    return await call();
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal?.code === "-19976") return "wrong-password";
    if (refusal?.code === "REAUTHENTICATION_REQUIRED") return "changed-in-this-session";
    if (refusal?.code === "THROTTLED_FEATURE") return { throttled: true, retryAfterSeconds: refusal.retryAfterSeconds };
    throw error;
  }
}

/**
 * Turns a second factor on: codes by e-mail to the login address; or starts codes by text message to `phone`,
 * or starts an authenticator app; a phone or an app turns on with its first code (`activateFactor`). The
 * platform wants the password too: a stolen session must not change how the account is guarded.
 */
export async function turnOnSecondFactor(
  accessToken: string,
  factor: { type: "EMAIL" } | { type: "SMS"; phone: string } | { type: "TOTP" },
  password: string,
): Promise<void | PasswordRefusal> {
  return withPassword(async () => {
    await platformCall(FACTORS_PATH, { accessToken, body: { factor, password } });
  });
}

/**
 * Turns a waiting factor on with its first code: the one texted to the phone, or one the app
 * shows. "wrong-code" when the platform does not take it; "ended" when a phone's code expired or
 * was tried too often (the waiting factor is then gone). The member's first app comes with
 * recovery codes, in this answer only.
 */
export async function activateFactor(
  accessToken: string,
  factorId: string,
  code: string,
): Promise<{ recoveryCodes: string[] | null } | "wrong-code" | "ended"> {
  try {
    const reply = await platformCall(`${FACTORS_PATH}/${encodeURIComponent(factorId)}/activate`, { accessToken, body: { code } });
    return { recoveryCodes: z.object({ recoveryCodes: z.array(z.string()).optional() }).parse(reply).recoveryCodes ?? null };
  } catch (error) {
    const refused = refusalOf(error)?.code;
    if (refused === "VERIFICATION_FAILED") return "wrong-code";
    if (refused === "VERIFICATION_EXPIRED") return "ended";
    throw error;
  }
}

/** New recovery codes, the earlier ones void, once the member proves it is them with their password. */
export async function newRecoveryCodes(accessToken: string, password: string): Promise<string[] | PasswordRefusal> {
  return withPassword(async () => {
    const reply = await platformCall(RECOVERY_CODES_PATH, { accessToken, body: { password } });
    return z.object({ recoveryCodes: z.array(z.string()) }).parse(reply).recoveryCodes;
  });
}

/** Turns a factor off: with the password, or without it for an app still being set up (which guards nothing yet). */
export async function turnOffSecondFactor(accessToken: string, factorId: string, password?: string): Promise<void | PasswordRefusal> {
  return withPassword(async () => {
    await platformCall(`${FACTORS_PATH}/${encodeURIComponent(factorId)}`, { method: "DELETE", accessToken, body: password === undefined ? {} : { password } });
  });
}

/** A browser the member asked to be remembered at a login's second step: it skips that step until `expires` or it is forgotten. */
export type RememberedDevice = { id: string; name: string; remembered: Date; lastUsed: Date; expires: Date };

const DEVICES_PATH = "/_api/iam/factors/v1/remembered-devices";

/** The member's remembered browsers, newest first, each named from its User-Agent. */
export async function myRememberedDevices(accessToken: string): Promise<RememberedDevice[]> {
  const reply = z
    .object({
      devices: z.array(
        z.object({ deviceId: z.string(), name: z.string(), createdDate: z.iso.datetime(), lastUsedDate: z.iso.datetime(), expiresDate: z.iso.datetime() }),
      ),
    })
    .parse(await platformCall(DEVICES_PATH, { method: "GET", accessToken }));
  return reply.devices.map((device) => ({
    id: device.deviceId,
    name: device.name,
    remembered: new Date(device.createdDate),
    lastUsed: new Date(device.lastUsedDate),
    expires: new Date(device.expiresDate),
  }));
}

/**
 * Forgets one remembered browser (or, without an id, all of them): its next login asks for the
 * second step again. No password: it only takes a shortcut away. One already forgotten is no error.
 */
export async function forgetRememberedDevices(accessToken: string, deviceId?: string): Promise<void> {
  try {
    await platformCall(deviceId === undefined ? DEVICES_PATH : `${DEVICES_PATH}/${encodeURIComponent(deviceId)}`, { method: "DELETE", accessToken });
  } catch (error) {
    if (refusalOf(error)?.code !== "NOT_FOUND") throw error;
  }
}

/** A passkey of the member's, as the account page lists it; `lastUsed` is null until it logs them in. */
export type Passkey = {
  id: string;
  name: string;
  added: Date;
  lastUsed: Date | null;
};

/** Whether the device checks the person (PIN, fingerprint, face) every time, when it can, or not at all. */
export type PasskeyUserVerification = "REQUIRED" | "PREFERRED" | "DISCOURAGED";

const PASSKEYS_PATH = "/_api/iam/factors/v1/passkeys";

/**
 * The member's passkeys, and how much their logins ask of the device's own check of the person
 * (one choice for all of them, the member's; PREFERRED when the platform does not say).
 */
export async function myPasskeys(accessToken: string): Promise<{ passkeys: Passkey[]; userVerification: PasskeyUserVerification }> {
  const reply = z
    .object({
      passkeys: z.array(z.object({ passkeyId: z.string(), name: z.string(), createdDate: z.iso.datetime(), lastUsedDate: z.iso.datetime().nullish() })),
      userVerification: z.enum(["REQUIRED", "PREFERRED", "DISCOURAGED"]).catch("PREFERRED"),
    })
    .parse(await platformCall(PASSKEYS_PATH, { method: "GET", accessToken }));
  return {
    passkeys: reply.passkeys.map((passkey) => ({
      id: passkey.passkeyId,
      name: passkey.name,
      added: new Date(passkey.createdDate),
      lastUsed: passkey.lastUsedDate ? new Date(passkey.lastUsedDate) : null,
    })),
    userVerification: reply.userVerification,
  };
}

/** A passkey registration begun: the challenge's id for `registerPasskey`, and the creation options for the browser, as JSON. */
export type PasskeyRegistration = { challengeId: string; optionsJson: string };

/**
 * Begins adding a passkey, once the member proves it is them with their password: a single-use
 * challenge, and the options the browser's registration ceremony takes.
 */
export async function beginPasskeyRegistration(
  accessToken: string,
  password: string,
  userVerification: PasskeyUserVerification,
): Promise<PasskeyRegistration | PasswordRefusal> {
  return withPassword(async () => {
    const reply = z
      .object({ challengeId: z.string().min(1), publicKeyCredentialCreationOptionsJson: z.string().min(1) })
      .parse(await platformCall(`${PASSKEYS_PATH}/registration-options`, { accessToken, body: { password, userVerification } }));
    return { challengeId: reply.challengeId, optionsJson: reply.publicKeyCredentialCreationOptionsJson };
  });
}

/**
 * Adds the passkey the browser's ceremony made (its credential JSON) under `name`. "refused" when
 * the platform does not take it (the challenge expired or was used, a passkey registered
 * already). The member's first passkey or app comes with recovery codes, in this answer only.
 */
export async function registerPasskey(
  accessToken: string,
  registration: { challengeId: string; credential: string; name: string },
): Promise<{ recoveryCodes: string[] | null } | "refused"> {
  try {
    const reply = z.object({ recoveryCodes: z.array(z.string()).optional() }).parse(await platformCall(PASSKEYS_PATH, { accessToken, body: registration }));
    return { recoveryCodes: reply.recoveryCodes ?? null };
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal?.code === "VERIFICATION_FAILED") return "refused";
    throw error;
  }
}

/**
 * Removes one of the member's passkeys, with their password; the last one gone, logins no longer
 * offer a passkey. One already gone (removed from another tab) is no error.
 */
export async function removePasskey(accessToken: string, passkeyId: string, password: string): Promise<void | PasswordRefusal> {
  return withPassword(async () => {
    try {
      await platformCall(`${PASSKEYS_PATH}/${encodeURIComponent(passkeyId)}`, { method: "DELETE", accessToken, body: { password } });
    } catch (error) {
      if (refusalOf(error)?.code !== "NOT_FOUND") throw error;
    }
  });
}
