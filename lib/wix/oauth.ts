import { OAuthStrategy } from "@wix/sdk";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { GrantRejectedError, PlatformUnavailableError } from "./errors";
import { platformFetch, withinPlatformTimeout } from "./platform-fetch";

/** A token pair as the site keeps it: plain values, never the SDK's objects. */
export type TokenPair = {
  accessToken: string;
  /** Unix seconds. */
  expiresAt: number;
  refreshToken: string;
  role: "visitor" | "member";
};

/**
 * Unix seconds from which a pair should be renewed: a minute before it expires, or a quarter of
 * the lifetime before for short-lived tokens.
 */
export function renewalTime(pair: Pick<TokenPair, "expiresAt">, nowSeconds: number): number {
  const lifetime = Math.max(0, pair.expiresAt - nowSeconds);
  return pair.expiresAt - Math.min(60, Math.floor(lifetime / 4));
}

/** What a login transaction must remember between the redirect and the callback. */
export const oauthDataSchema = z.object({
  codeVerifier: z.string().min(43).max(128),
  codeChallenge: z.string().min(43).max(128),
  state: z.string().min(16).max(128),
  redirectUri: z.string().max(512),
  originalUri: z.string().max(2048),
});
export type OAuthData = z.infer<typeof oauthDataSchema>;

export const TOKEN_ENDPOINT = "https://www.wixapis.com/oauth2/token";

const tokenReply = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.coerce.number().int().positive(),
});
const oauthErrorReply = z.object({ error: z.string().max(200).optional() }).passthrough();

/**
 * One grant at the token endpoint. The site sends grants itself rather than through the SDK,
 * whose errors carry only message text: here a refusal is recognised from the status and the
 * OAuth error body, and anything else (no answer, 5xx, an unreadable reply) is "unavailable",
 * for which a session must be kept, not ended.
 */
async function grant(body: Record<string, string>, role: TokenPair["role"]): Promise<TokenPair> {
  let response: Response;
  try {
    response = await platformFetch(TOKEN_ENDPOINT, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  } catch (error) {
    if (error instanceof PlatformUnavailableError) throw error;
    // A 401 from the token endpoint is its answer to the grant, not to an access token.
    throw new GrantRejectedError(401, "invalid_client");
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (response.status === 200) {
    const parsed = tokenReply.safeParse(json);
    if (!parsed.success) throw new PlatformUnavailableError("the token endpoint's reply is unreadable");
    const { access_token, refresh_token, expires_in } = parsed.data;
    return { accessToken: access_token, refreshToken: refresh_token, expiresAt: Math.floor(Date.now() / 1000) + expires_in, role };
  }
  const rejection = oauthErrorReply.safeParse(json);
  // Only a 4xx with a JSON body is the platform's own refusal; an HTML error page from a proxy is not.
  if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429 && rejection.success) {
    throw new GrantRejectedError(response.status, rejection.data.error ?? "unknown");
  }
  throw new PlatformUnavailableError(`the token endpoint answered ${response.status}`);
}

/** The anonymous grant: a fresh visitor. */
export function grantVisitorTokens(): Promise<TokenPair> {
  return grant({ clientId: getConfig().wixClientId, grantType: "anonymous" }, "visitor");
}

/** The refresh_token grant. The platform does not rotate refresh tokens, so the old one stays. */
export async function renewAccessToken(pair: Pick<TokenPair, "refreshToken" | "role">): Promise<TokenPair> {
  const renewed = await grant({ clientId: getConfig().wixClientId, grantType: "refresh_token", refreshToken: pair.refreshToken }, pair.role);
  return { ...renewed, refreshToken: pair.refreshToken };
}

/** The authorization_code grant, with the PKCE verifier of the login transaction. */
export function exchangeCode(code: string, oauthData: OAuthData): Promise<TokenPair> {
  return grant(
    { clientId: getConfig().wixClientId, grantType: "authorization_code", code, codeVerifier: oauthData.codeVerifier, redirectUri: oauthData.redirectUri },
    "member",
  );
}

function strategy(current: TokenPair) {
  return OAuthStrategy({
    clientId: getConfig().wixClientId,
    tokens: { accessToken: { value: current.accessToken, expiresAt: current.expiresAt }, refreshToken: { value: current.refreshToken, role: current.role } },
  });
}

/**
 * PKCE data (S256) and the platform's authorization URL, asked for with the given visitor
 * tokens. With `prompt: "none"` the platform answers at once: with a code if the browser has
 * a platform session or a `sessionToken` from the site's own login forms is given, with an
 * error otherwise. The answer comes back to `redirectUri` in the query, so no iframe is needed.
 */
export async function startAuthorization(
  visitor: TokenPair,
  redirectUri: string,
  options: { prompt: "login" | "none"; sessionToken?: string },
): Promise<{ authUrl: string; oauthData: OAuthData }> {
  const auth = strategy(visitor);
  const oauthData = auth.generateOAuthData(redirectUri);
  // The SDK passes `sessionToken` on to the redirect session, though its typings omit it.
  const urlOptions = { prompt: options.prompt, responseMode: "query", sessionToken: options.sessionToken } as Parameters<typeof auth.getAuthUrl>[1];
  const { authUrl } = await withinPlatformTimeout(() => auth.getAuthUrl(oauthData, urlOptions));
  return { authUrl, oauthData };
}

/** The platform's logout URL, which ends its login session and comes back to `postFlowUrl`. */
export async function platformLogoutUrl(current: TokenPair, postFlowUrl: string): Promise<string> {
  return (await withinPlatformTimeout(() => strategy(current).logout(postFlowUrl))).logoutUrl;
}
