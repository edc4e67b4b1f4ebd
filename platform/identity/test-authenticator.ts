import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { OAuthStrategy } from "@wix/sdk";
import { LOCAL_CLIENT_ID } from "../config";
import type { TestPlatform } from "../testing";

/** Test support: a software authenticator, for the passkey ceremonies of the API's tests and the hosted page's. */

export const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const u32 = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return bytes;
};
const u16 = (n: number) => {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(n);
  return bytes;
};
/** The CBOR a byte string (under 64 KB: authenticator data with the longest credential id) or a short text string is. */
const cborBytes = (bytes: Uint8Array) =>
  Buffer.concat([
    bytes.length < 24 ? Buffer.from([0x40 + bytes.length]) : bytes.length < 256 ? Buffer.from([0x58, bytes.length]) : Buffer.from([0x59, ...u16(bytes.length)]),
    bytes,
  ]);
const cborText = (text: string) => Buffer.concat([Buffer.from([0x60 + text.length]), Buffer.from(text)]);

/**
 * A software authenticator holding one P-256 key, as a browser's WebAuthn calls would answer with
 * it: a 'none' attestation at registration, signed assertions with a counter at login. Its
 * credential id is 16 bytes unless asked for more (WebAuthn allows up to 1023).
 */
export class SoftAuthenticator {
  readonly credentialId: Buffer;
  private readonly privateKey: KeyObject;
  private readonly coseKey: Buffer;
  counter = 0;

  constructor(
    private readonly origin: string,
    { idBytes = 16 }: { idBytes?: number } = {},
  ) {
    this.credentialId = randomBytes(idBytes);
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: "jwk" });
    // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}.
    this.coseKey = Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21]),
      cborBytes(Buffer.from(jwk.x!, "base64url")),
      Buffer.from([0x22]),
      cborBytes(Buffer.from(jwk.y!, "base64url")),
    ]);
  }

  get id() {
    return b64url(this.credentialId);
  }

  /** The key as PKCS#8 DER in base64: what a browser's virtual authenticator is given to hold the same passkey. */
  get privateKeyPkcs8() {
    return this.privateKey.export({ format: "der", type: "pkcs8" }).toString("base64");
  }

  private clientData(type: string, challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The credential `navigator.credentials.create` gives, for creation options from the platform; `userVerified`: the person was checked (PIN, fingerprint). */
  create(optionsJson: string, { userVerified = true } = {}): string {
    const options = JSON.parse(optionsJson) as { challenge: string; rp: { id: string } };
    const authData = Buffer.concat([
      sha256(options.rp.id),
      Buffer.from([userVerified ? 0x45 : 0x41]), // user present, user verified (or not), attested credential data
      u32(this.counter),
      Buffer.alloc(16), // AAGUID
      u16(this.credentialId.length),
      this.credentialId,
      this.coseKey,
    ]);
    const attestationObject = Buffer.concat([
      Buffer.from([0xa3]),
      cborText("fmt"),
      cborText("none"),
      cborText("attStmt"),
      Buffer.from([0xa0]),
      cborText("authData"),
      cborBytes(authData),
    ]);
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    });
  }

  /** The credential `navigator.credentials.get` gives, the counter raised first (or set, to test a regression). */
  get(optionsJson: string, { counter = this.counter + 1, origin = this.origin, userVerified = true } = {}): string {
    const options = JSON.parse(optionsJson) as { challenge: string; rpId: string };
    this.counter = counter;
    const authenticatorData = Buffer.concat([sha256(options.rpId), Buffer.from([userVerified ? 0x05 : 0x01]), u32(counter)]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, origin);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature) },
      clientExtensionResults: {},
    });
  }
}

/** A new member with member tokens. */
export async function newMember(platform: TestPlatform, email: string, password: string) {
  const registered = await OAuthStrategy({ clientId: LOCAL_CLIENT_ID }).register({ email, password });
  const session = platform.ctx.loginSessions.byToken((registered as { data: { sessionToken: string } }).data.sessionToken)!;
  const { accessToken } = platform.ctx.tokens.issuePair({ role: "member", subjectId: session.memberId, clientId: LOCAL_CLIENT_ID, loginSessionId: session.id });
  return { email, accessToken, memberId: session.memberId };
}

/** Runs the registration ceremony for a new passkey of the member's, answered on the site; the authenticator and the last call's answer. */
export async function enrolPasskey(
  platform: TestPlatform,
  who: { accessToken: string },
  { password, name = "Laptop", userVerification }: { password: string; name?: string; userVerification?: string },
) {
  const authenticator = new SoftAuthenticator(platform.ctx.config.siteUrl);
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${platform.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: who.accessToken },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { message?: string } };
  };
  const options = await post("/_api/iam/factors/v1/passkeys/registration-options", { password, userVerification });
  if (options.status !== 200) return { authenticator, ...options };
  const { challengeId, publicKeyCredentialCreationOptionsJson } = options.body as { challengeId: string; publicKeyCredentialCreationOptionsJson: string };
  return {
    authenticator,
    ...(await post("/_api/iam/factors/v1/passkeys", { challengeId, credential: authenticator.create(publicKeyCredentialCreationOptionsJson), name })),
  };
}
