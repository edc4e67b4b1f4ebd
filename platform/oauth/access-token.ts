import { createHmac, randomBytes } from "node:crypto";

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
 * by its hash, so tampering with the payload only makes an unknown token.
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

export function createAccessTokenSigner(key: Buffer = randomBytes(32)) {
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
    const header = base64url({ alg: "HS256", typ: "JWT", kid: "local" });
    const payload = base64url({ data: JSON.stringify({ instance }), iat, exp });
    const signature = createHmac("sha256", key).update(`${header}.${payload}`).digest("base64url");
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
