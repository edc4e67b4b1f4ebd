import type { AuthenticatorTransport, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { z } from "zod";
import type { PlatformConfig } from "../config";
import { WEBAUTHN_CHALLENGE_TTL_MS, type Passkey, type PasskeyStore } from "./webauthn-store";

/**
 * How much the platform asks of an authenticator's own check of the person (PIN, fingerprint):
 * a passkey is the second step after the password, so its presence is enough and a check is welcome.
 */
export const USER_VERIFICATION = "preferred" as const;

/** A passkey's answer to a ceremony: the credential JSON the browser's WebAuthn call gave, as a string (the SDK's `credential`). */
export const webauthnData = z.object({ challengeId: z.string().min(1).max(100), credential: z.string().min(1).max(64_000) });

/** The relying party is the site (SITE_URL): its host is the RP id and its origin the one the browser's answer must name. */
export function relyingParty(config: Pick<PlatformConfig, "siteUrl">): { rpID: string; origin: string } {
  const url = new URL(config.siteUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/**
 * What a login's passkey challenge carries (`verificationChallengeData.webauthnData`): a new
 * single-use challenge and the request options for the browser, allowing the member's passkeys
 * only. Undefined for a member with none.
 */
export function passkeyChallenge(
  passkeys: PasskeyStore,
  config: Pick<PlatformConfig, "siteUrl">,
  identityId: string,
): { challengeId: string; publicKeyCredentialRequestOptionsJson: string } | undefined {
  const own = passkeys.list(identityId);
  if (own.length === 0) return undefined;
  const { challengeId, challenge } = passkeys.startCeremony(identityId, "login");
  const options: PublicKeyCredentialRequestOptionsJSON = {
    challenge,
    rpId: relyingParty(config).rpID,
    timeout: WEBAUTHN_CHALLENGE_TTL_MS,
    userVerification: USER_VERIFICATION,
    allowCredentials: own.map((passkey) => ({ id: passkey.credentialId, type: "public-key", transports: transportsOf(passkey) })),
    extensions: {},
  };
  return { challengeId, publicKeyCredentialRequestOptionsJson: JSON.stringify(options) };
}

export const transportsOf = (passkey: Passkey) => passkey.transports as AuthenticatorTransport[];
