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
import { memberProof, type IdentityService, type StateReply } from "./iam";
import type { Identity } from "./store";
import type { MemberCaller } from "../types";
import { passkeyChallenge, relyingParty, rpIdOf, transportsOf, webauthnData, webauthnUserVerification } from "./webauthn-challenge";
import { USER_VERIFICATION, WEBAUTHN_CHALLENGE_TTL_MS, type Passkey, type PasskeyStore } from "./webauthn-store";

/** A new passkey: the answer to its registration challenge, and the name the member gives it. */
export const passkeyRegistration = webauthnData.extend({ name: z.string().trim().min(1).max(60) });

/** Starting to add a passkey: the member's proof, and the user verification they want from now on (unchanged when left out). */
export const registrationOptionsRequest = memberProof.extend({ userVerification: z.enum(USER_VERIFICATION).optional() });

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

  /**
   * Starts adding a passkey, once the member proves it is them: the creation options for the
   * browser, with a single-use challenge. A user verification given becomes the member's preference
   * for all their passkeys, at registration and at login.
   */
  async registrationOptions(member: MemberCaller, { userVerification, ...proof }: z.infer<typeof registrationOptionsRequest>) {
    await this.service.proveMember(member, proof);
    const memberId = member.id;
    const identity = this.ctx.identities.get(memberId);
    if (!identity) throw notFound("No such member.");
    if (userVerification) this.passkeys.setUserVerification(memberId, userVerification);
    const { challengeId, challenge } = this.passkeys.startCeremony(memberId, "registration");
    const options = await generateRegistrationOptions({
      rpName: BRANDING.name,
      rpID: rpIdOf(this.ctx.config),
      userName: identity.loginEmail,
      userID: new TextEncoder().encode(memberId),
      // As bytes: a string would be taken as text and encoded again.
      challenge: new Uint8Array(Buffer.from(challenge, "base64url")),
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
      attestationType: "none",
      // One passkey per authenticator: the browser refuses to register one the member has already.
      excludeCredentials: this.passkeys.list(memberId).map((passkey) => ({ id: passkey.credentialId, transports: transportsOf(passkey) })),
      authenticatorSelection: { residentKey: "preferred", userVerification: webauthnUserVerification(this.passkeys.userVerification(memberId)) },
    });
    return { challengeId, publicKeyCredentialCreationOptionsJson: JSON.stringify(options) };
  }

  /**
   * Finishes adding a passkey: the browser's answer to the member's registration challenge. The
   * first passkey turns the WEBAUTHN factor on and, for a member who has none, brings recovery codes, shown this once.
   */
  async register(memberId: string, input: z.infer<typeof passkeyRegistration>, platformOrigin: string) {
    const response = credentialJson<RegistrationResponseJSON>(input.credential, "credential");
    const expectedChallenge = this.passkeys.takeCeremony(memberId, "registration", input.challengeId);
    if (!expectedChallenge) throw passkeyRefused("This passkey registration has expired or was already finished. Start again.");
    const { rpID, origins } = relyingParty(this.ctx.config, platformOrigin);
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origins,
      expectedRPID: rpID,
      requireUserVerification: this.passkeys.userVerification(memberId) === "REQUIRED",
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

  /** The member's passkeys and the user verification they asked for. */
  list(memberId: string) {
    return { passkeys: this.passkeys.list(memberId).map(passkeyWire), userVerification: this.passkeys.userVerification(memberId) };
  }

  /** Removes a passkey, once the member proves it is them; the last one gone turns the WEBAUTHN factor off. */
  async remove(member: MemberCaller, passkeyId: string, proof: z.infer<typeof memberProof>): Promise<void> {
    const memberId = member.id;
    if (!this.passkeys.list(memberId).some((passkey) => passkey.credentialId === passkeyId)) throw notFound("This member has no such passkey.");
    await this.service.proveMember(member, proof);
    this.passkeys.remove(memberId, passkeyId);
    if (this.passkeys.list(memberId).length > 0) return;
    const factor = this.ctx.factors.listOwn(memberId).find((each) => each.type === "WEBAUTHN");
    if (factor) this.ctx.factors.remove(memberId, factor.factorId);
  }

  /** A login's second step answered with a passkey (`POST /v2/webauthn/verify`), as `checkLogin` judges it. */
  async verifyLogin(
    stateToken: string,
    data: z.infer<typeof webauthnData>,
    platformOrigin: string,
    remember: { deviceName: string } | null = null,
  ): Promise<StateReply> {
    return this.service.finishLogin(await this.checkLogin(stateToken, data, platformOrigin), remember);
  }

  /**
   * Who a passkey's answer to a login's second step proves to be logging in (the API's verify and
   * the hosted page share it): the assertion must answer this login's challenge (once), come from
   * one of this member's passkeys, carry a valid signature, the user-verification flag when the
   * member requires it, and a counter above the last one seen. A refusal counts as a wrong code.
   */
  async checkLogin(stateToken: string, data: z.infer<typeof webauthnData>, platformOrigin: string): Promise<Identity> {
    const live = this.ctx.verifications.peek(stateToken, "mfa");
    if (!live) throw codeExpired();
    const response = credentialJson<AuthenticationResponseJSON>(data.credential, "webauthnData.credential");
    const checked = await this.checkAssertion(live.identityId, data.challengeId, response, platformOrigin);
    let refusal = typeof checked === "string" ? checked : null;
    const judge = (identityId: string) => {
      if (typeof checked === "string" || identityId !== checked.passkey.identityId) return false;
      // Atomic with the answer: two logins with one assertion cannot both raise the counter.
      if (this.passkeys.used(checked.passkey.credentialId, checked.counter)) return true;
      refusal = "This passkey's signature counter did not increase: the answer was replayed or the passkey copied.";
      return false;
    };
    try {
      return this.service.checkFactor(stateToken, judge, "WEBAUTHN");
    } catch (error) {
      // A passkey's refusal says why; other refusals (tried too often, a blocked member) stand as they are.
      if (refusal && error instanceof PlatformError && error.code === "VERIFICATION_FAILED") throw passkeyRefused(refusal);
      throw error;
    }
  }

  /** A new passkey challenge for a live login whose last one was used up (a refused answer); undefined when the login is over. */
  loginChallenge(stateToken: string) {
    const live = this.ctx.verifications.peek(stateToken, "mfa");
    return live ? passkeyChallenge(this.passkeys, this.ctx.config, live.identityId) : undefined;
  }

  /** The assertion's passkey and new counter when its challenge, owner and signature are right; else why not. */
  private async checkAssertion(
    identityId: string,
    challengeId: string,
    response: AuthenticationResponseJSON,
    platformOrigin: string,
  ): Promise<{ passkey: Passkey; counter: number } | string> {
    const expectedChallenge = this.passkeys.takeCeremony(identityId, "login", challengeId);
    if (!expectedChallenge) return "This passkey challenge has expired or was already answered. Log in again for a new one.";
    const passkey = this.passkeys.find(response.id);
    if (!passkey) return "This passkey is not registered: it may have been removed.";
    if (passkey.identityId !== identityId) return "This passkey belongs to another member.";
    const { rpID, origins } = relyingParty(this.ctx.config, platformOrigin);
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge,
        expectedOrigin: origins,
        expectedRPID: rpID,
        // The counter is checked by the store, atomically with the login (see `used`).
        credential: { id: passkey.credentialId, publicKey: passkey.publicKey, counter: 0, transports: transportsOf(passkey) },
        requireUserVerification: this.passkeys.userVerification(identityId) === "REQUIRED",
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
