import {
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { FieldViolations, PlatformError, codeExpired, notFound, passkeyRefused } from "../http/errors";
import { BRANDING } from "./branding";
import type { IdentityService, StateReply, memberProof } from "./iam";
import { USER_VERIFICATION, relyingParty, transportsOf, webauthnData } from "./webauthn-challenge";
import { WEBAUTHN_CHALLENGE_TTL_MS, type Passkey, type PasskeyStore } from "./webauthn-store";

/** A new passkey: the answer to its registration challenge, and the name the member gives it. */
export const passkeyRegistration = webauthnData.extend({ name: z.string().trim().min(1).max(60) });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A passkey as its member sees it: never the key itself. */
export const passkeyWire = (passkey: Passkey) => ({
  passkeyId: passkey.credentialId,
  name: passkey.name,
  createdDate: iso(passkey.createdAt),
  lastUsedDate: iso(passkey.lastUsedAt),
});

/** The browser's credential JSON, read at the edge: bad JSON is the caller's fault, named as such. */
function credentialJson<T>(credential: string, field: string): T {
  const parsed = z
    .string()
    .transform((text, check) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        check.addIssue({ code: "custom", message: "Not JSON." });
        return z.NEVER;
      }
    })
    .pipe(z.object({ id: z.string().min(1).max(1024), response: z.object({}).passthrough() }).passthrough())
    .safeParse(credential);
  if (!parsed.success) {
    throw new FieldViolations([{ field, description: "The browser's WebAuthn credential, as JSON.", violatedRule: "FORMAT", data: {} }]);
  }
  return parsed.data as T;
}

/**
 * Passkeys as a second factor (docs/platform/identity.md §3.10): the registration ceremony that
 * adds one, the login step answered with one, and their list and removal. Ceremonies are checked
 * by @simplewebauthn/server; challenges and counters are kept by the store.
 */
export class PasskeyService {
  constructor(
    private readonly ctx: Pick<PlatformContext, "config" | "identities" | "factors" | "recoveryCodes" | "verifications">,
    private readonly passkeys: PasskeyStore,
    private readonly service: IdentityService,
  ) {}

  /** Starts adding a passkey, once the member proves it is them: the creation options for the browser, with a single-use challenge. */
  async registrationOptions(memberId: string, proof: z.infer<typeof memberProof>) {
    await this.service.proveMember(memberId, proof);
    const identity = this.ctx.identities.get(memberId);
    if (!identity) throw notFound("No such member.");
    const { challengeId, challenge } = this.passkeys.startCeremony(memberId, "registration");
    const options = await generateRegistrationOptions({
      rpName: BRANDING.name,
      rpID: relyingParty(this.ctx.config).rpID,
      userName: identity.loginEmail,
      userID: new TextEncoder().encode(memberId),
      // As bytes: a string would be taken as text and encoded again.
      challenge: new Uint8Array(Buffer.from(challenge, "base64url")),
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      attestationType: "none",
      // One passkey per authenticator: the browser refuses to register one the member has already.
      excludeCredentials: this.passkeys.list(memberId).map((passkey) => ({ id: passkey.credentialId, transports: transportsOf(passkey) })),
      authenticatorSelection: { residentKey: "preferred", userVerification: USER_VERIFICATION },
    });
    return { challengeId, publicKeyCredentialCreationOptionsJson: JSON.stringify(options) };
  }

  /**
   * Finishes adding a passkey: the browser's answer to the member's registration challenge. The
   * first passkey turns the WEBAUTHN factor on and, for a member who has none, brings recovery codes, shown this once.
   */
  async register(memberId: string, input: z.infer<typeof passkeyRegistration>) {
    const response = credentialJson<RegistrationResponseJSON>(input.credential, "credential");
    const expectedChallenge = this.passkeys.takeCeremony(memberId, "registration", input.challengeId);
    if (!expectedChallenge) throw passkeyRefused("This passkey registration has expired or was already finished. Start again.");
    const { rpID, origin } = relyingParty(this.ctx.config);
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    }).catch(refusal("The passkey's registration could not be verified"));
    if (!result.verified) throw passkeyRefused("The passkey's registration could not be verified.");
    const { credential } = result.registrationInfo;
    if (this.passkeys.find(credential.id)) throw passkeyRefused("This passkey is registered already.");
    const passkey = this.passkeys.add({
      credentialId: credential.id,
      identityId: memberId,
      name: input.name,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
    });
    const factor = this.ctx.factors.listOwn(memberId).find((each) => each.type === "WEBAUTHN") ?? this.ctx.factors.enroll(memberId, "WEBAUTHN");
    const recoveryCodes = this.ctx.recoveryCodes.has(memberId) ? undefined : this.ctx.recoveryCodes.replace(memberId);
    return { passkey: passkeyWire(passkey), factorId: factor.factorId, ...(recoveryCodes && { recoveryCodes }) };
  }

  list(memberId: string) {
    return this.passkeys.list(memberId).map(passkeyWire);
  }

  /** Removes a passkey, once the member proves it is them; the last one gone turns the WEBAUTHN factor off. */
  async remove(memberId: string, passkeyId: string, proof: z.infer<typeof memberProof>): Promise<void> {
    if (!this.passkeys.list(memberId).some((passkey) => passkey.credentialId === passkeyId)) throw notFound("This member has no such passkey.");
    await this.service.proveMember(memberId, proof);
    this.passkeys.remove(memberId, passkeyId);
    if (this.passkeys.list(memberId).length > 0) return;
    const factor = this.ctx.factors.listOwn(memberId).find((each) => each.type === "WEBAUTHN");
    if (factor) this.ctx.factors.remove(memberId, factor.factorId);
  }

  /**
   * A login's second step answered with a passkey (`POST /v2/webauthn/verify`): the assertion
   * must answer this login's challenge (once), come from one of this member's passkeys, carry a
   * valid signature and a counter above the last one seen. A refusal counts as a wrong code.
   */
  async verifyLogin(stateToken: string, data: z.infer<typeof webauthnData>): Promise<StateReply> {
    const live = this.ctx.verifications.peek(stateToken, "mfa");
    if (!live) throw codeExpired();
    const response = credentialJson<AuthenticationResponseJSON>(data.credential, "webauthnData.credential");
    const checked = await this.checkAssertion(live.identityId, data.challengeId, response);
    let refusal = typeof checked === "string" ? checked : null;
    const judge = (identityId: string) => {
      if (typeof checked === "string" || identityId !== checked.passkey.identityId) return false;
      // Atomic with the answer: two logins with one assertion cannot both raise the counter.
      if (this.passkeys.used(checked.passkey.credentialId, checked.counter)) return true;
      refusal = "This passkey's signature counter did not increase: the answer was replayed or the passkey copied.";
      return false;
    };
    try {
      return this.service.signedIn(this.service.checkFactor(stateToken, judge, "WEBAUTHN"));
    } catch (error) {
      // A passkey's refusal says why; other refusals (tried too often, a blocked member) stand as they are.
      if (refusal && error instanceof PlatformError && error.code === "VERIFICATION_FAILED") throw passkeyRefused(refusal);
      throw error;
    }
  }

  /** The assertion's passkey and new counter when its challenge, owner and signature are right; else why not. */
  private async checkAssertion(
    identityId: string,
    challengeId: string,
    response: AuthenticationResponseJSON,
  ): Promise<{ passkey: Passkey; counter: number } | string> {
    const expectedChallenge = this.passkeys.takeCeremony(identityId, "login", challengeId);
    if (!expectedChallenge) return "This passkey challenge has expired or was already answered. Log in again for a new one.";
    const passkey = this.passkeys.find(response.id);
    if (!passkey) return "This passkey is not registered: it may have been removed.";
    if (passkey.identityId !== identityId) return "This passkey belongs to another member.";
    const { rpID, origin } = relyingParty(this.ctx.config);
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        // The counter is checked by the store, atomically with the login (see `used`).
        credential: { id: passkey.credentialId, publicKey: passkey.publicKey, counter: 0, transports: transportsOf(passkey) },
        requireUserVerification: false,
      });
      return result.verified ? { passkey, counter: result.authenticationInfo.newCounter } : "The passkey's signature is not right.";
    } catch (error) {
      return `The passkey's answer could not be verified: ${(error as Error).message}`;
    }
  }
}

/** A library refusal of a ceremony, as the platform's error with the library's reason. */
const refusal = (what: string) => (error: Error) => {
  throw passkeyRefused(`${what}: ${error.message}`);
};
