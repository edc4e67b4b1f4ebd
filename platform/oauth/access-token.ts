import fs from "node:fs";
import path from "node:path";
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign as signData, type KeyObject } from "node:crypto";

export type TokenRole = "visitor" | "member" | "app";

/**
 * Who a token speaks for. Visitors get a fresh id; members carry their member id and, when
 * the pair came from a hosted sign-in, the platform login session that signing out ends; an
 * app's own token (client_credentials) has the app's client id.
 */
export type TokenSubject = { role: TokenRole; subjectId: string; clientId: string; loginSessionId?: string | null };

/**
 * Access tokens shaped like the platform's: `OauthNG.JWS.` and a signed JWT whose payload
 * carries the instance data apps decode (the site and instance ids, the member or visitor),
 * docs/platform/oauth.md §4. The platform itself never reads them back: a token is looked up
 * by its hash, so tampering with the payload only makes an unknown token. They are signed with
 * RS256, as Wix's JWKS holds "the RSA public key", whose public half `GET /oauth2/jwks`
 * publishes, so an app can check them.
 */

/** The local site's id, as a real site's is a UUID. */
export const LOCAL_SITE_ID = "5e1f7c1a-0c4e-4d7a-9b1e-10ca15173e00";
/** The headless app's instance on the local site. */
export const LOCAL_INSTANCE_ID = "1a57a1ce-7e1e-4b0a-8c5d-10ca15173e01";

const PREFIX = "OauthNG.JWS.";
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export type AccessTokenClaims = {
  subjectType: "MEMBER" | "VISITOR" | "APP";
  subjectId: string;
  clientId: string;
  siteId: string;
  instanceId: string;
  iat: number;
  exp: number;
};

/** The file under the data folder that holds the token-signing key, so tokens stay checkable across restarts. */
export const SIGNING_KEY_FILE = "oauth-rs256-signing-key.pem";
/** Where platforms that signed ES256 kept their P-256 key; removed once the RSA key is in place. */
export const EC_SIGNING_KEY_FILE = "oauth-signing-key.pem";

/** A new RSA key (2048 bits, as RS256 keys commonly are): the platform's in-memory runs and the first start of a data folder. */
export const newSigningKey = (): KeyObject => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;

/** The data folder's signing key, made (readable by its owner only) the first time. */
export function storedSigningKey(dataDir: string): KeyObject {
  const key = storedOrNewKey(path.resolve(dataDir, SIGNING_KEY_FILE));
  // The old key signed ES256 tokens that nothing can check any longer; the tokens themselves stay valid (looked up by hash).
  fs.rmSync(path.resolve(dataDir, EC_SIGNING_KEY_FILE), { force: true });
  return key;
}

function storedOrNewKey(file: string): KeyObject {
  try {
    return createPrivateKey(fs.readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, newSigningKey().export({ format: "pem", type: "pkcs8" }), { flag: "wx", mode: 0o600 });
  } catch (error) {
    // Another process (the CLI beside the server) made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return createPrivateKey(fs.readFileSync(file, "utf8"));
}

/** The key's public half as a JSON Web Key, with its RFC 7638 thumbprint (members in that order) as `kid`. */
export function publicJwk(key: KeyObject) {
  const { kty, n, e } = createPublicKey(key).export({ format: "jwk" }) as { kty: string; n: string; e: string };
  const kid = createHash("sha256").update(JSON.stringify({ e, kty, n })).digest("base64url");
  return { kty, n, e, kid, alg: "RS256", use: "sig" };
}

export function createAccessTokenSigner(key: KeyObject = newSigningKey()) {
  const { kid } = publicJwk(key);
  return function sign(subject: TokenSubject, issuedAtMs: number, expiresAtMs: number): string {
    const iat = Math.floor(issuedAtMs / 1000);
    const exp = Math.floor(expiresAtMs / 1000);
    const instance = {
      instanceId: LOCAL_INSTANCE_ID,
      appDefId: subject.clientId,
      metaSiteId: LOCAL_SITE_ID,
      signDate: new Date(issuedAtMs).toISOString(),
      // An app's token names no member or visitor: the app is `appDefId`.
      ...(subject.role === "member" && { siteMemberId: subject.subjectId }),
      ...(subject.role === "visitor" && { visitorId: subject.subjectId }),
      // A random id per token, so two tokens issued in the same second still differ.
      tokenId: randomBytes(16).toString("base64url"),
    };
    const header = base64url({ alg: "RS256", typ: "JWT", kid });
    const payload = base64url({ data: JSON.stringify({ instance }), iat, exp });
    const signature = signData("sha256", Buffer.from(`${header}.${payload}`), key).toString("base64url");
    return `${PREFIX}${header}.${payload}.${signature}`;
  };
}

/** What an app reads from a token's payload, without checking the signature (as apps do). */
export function readAccessToken(token: string): AccessTokenClaims | null {
  if (!token.startsWith(PREFIX)) return null;
  const [, payload] = token.slice(PREFIX.length).split(".");
  try {
    const { data, iat, exp } = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as { data: string; iat: number; exp: number };
    const { instance } = JSON.parse(data) as {
      instance: { instanceId: string; appDefId: string; metaSiteId: string; siteMemberId?: string; visitorId?: string };
    };
    const subjectType = instance.siteMemberId ? "MEMBER" : instance.visitorId ? "VISITOR" : "APP";
    return {
      subjectType,
      subjectId: instance.siteMemberId ?? instance.visitorId ?? instance.appDefId,
      clientId: instance.appDefId,
      siteId: instance.metaSiteId,
      instanceId: instance.instanceId,
      iat,
      exp,
    };
  } catch {
    return null;
  }
}
