import { Secret, TOTP } from "otpauth";
import { BRANDING } from "./branding";

/**
 * Authenticator-app codes (RFC 6238, the settings every app reads from an otpauth:// link):
 * six digits, a new one every 30 seconds, HMAC-SHA1 over a 160-bit secret.
 */
const TOTP_SETTINGS = { algorithm: "SHA1", digits: 6, period: 30 } as const;
/** A phone's clock may be this many steps off, either way. */
const DRIFT_STEPS = 1;

/** A new shared secret, in the base32 an app takes when typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// link an app scans from a QR code: the club as issuer, the login address as the account. */
export function totpUri(secret: string, account: string): string {
  return new TOTP({ ...TOTP_SETTINGS, issuer: BRANDING.name, label: account, secret: Secret.fromBase32(secret) }).toString();
}

/**
 * The time step an app code belongs to, when it is right for now or one step either side;
 * null when it is not. The caller records the step so a code counts once.
 */
export function totpStep(secret: string, code: string, now: number): number | null {
  const delta = TOTP.validate({ ...TOTP_SETTINGS, token: code, secret: Secret.fromBase32(secret), timestamp: now, window: DRIFT_STEPS });
  return delta === null ? null : TOTP.counter({ period: TOTP_SETTINGS.period, timestamp: now }) + delta;
}
