import type { AuthenticatorTransport, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { z } from "zod";
import type { PlatformConfig } from "../config";
import { WEBAUTHN_CHALLENGE_TTL_MS, type Passkey, type PasskeyStore, type UserVerification } from "./webauthn-store";

/** The preference as WebAuthn's options spell it. */
export const webauthnUserVerification = (preference: UserVerification) => preference.toLowerCase() as "required" | "preferred" | "discouraged";

/** A passkey's answer to a ceremony: the credential JSON the browser's WebAuthn call gave, as a string (the SDK's `credential`). */
export const webauthnData = z.object({ challengeId: z.string().min(1).max(100), credential: z.string().min(1).max(64_000) });

/** The relying party's id: the site's host name (SITE_URL). */
export const rpIdOf = (config: Pick<PlatformConfig, "siteUrl">) => new URL(config.siteUrl).hostname;

/**
 * Whether a page at this origin may run a ceremony for this RP id: browsers allow it on the RP id's
 * own host or a subdomain of it, in a secure context (https, or a localhost name). An IP address never matches a host name.
 */
export function originMayUseRpId(origin: string, rpID: string): boolean {
  const url = new URL(origin);
  const host = url.hostname;
  const secure = url.protocol === "https:" || host === "localhost" || host.endsWith(".localhost");
  return secure && (host === rpID || host.endsWith(`.${rpID}`));
}

/**
 * The relying party is the site (SITE_URL): its host is the RP id. The browser's answer must name
 * the site's origin, or the platform's own (`platformOrigin`: where its hosted pages are opened)
 * when that origin may use the RP id.
 */
export function relyingParty(config: Pick<PlatformConfig, "siteUrl">, platformOrigin: string): { rpID: string; origins: string[] } {
  const site = new URL(config.siteUrl).origin;
  const platform = new URL(platformOrigin).origin;
  const rpID = rpIdOf(config);
  return { rpID, origins: platform !== site && originMayUseRpId(platform, rpID) ? [site, platform] : [site] };
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
    rpId: rpIdOf(config),
    timeout: WEBAUTHN_CHALLENGE_TTL_MS,
    userVerification: webauthnUserVerification(passkeys.userVerification(identityId)),
    allowCredentials: own.map((passkey) => ({ id: passkey.credentialId, type: "public-key", transports: transportsOf(passkey) })),
    extensions: {},
  };
  return { challengeId, publicKeyCredentialRequestOptionsJson: JSON.stringify(options) };
}

export const transportsOf = (passkey: Passkey) => passkey.transports as AuthenticatorTransport[];
