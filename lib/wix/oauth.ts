import { OAuthStrategy } from "@wix/sdk";
import { z } from "zod";
import { getConfig } from "@/lib/config";

/** A token pair as the site keeps it: plain values, never the SDK's objects. */
export type TokenPair = {
  accessToken: string;
  /** Unix seconds. */
  expiresAt: number;
  refreshToken: string;
  role: "visitor" | "member";
};

/** What a login transaction must remember between the redirect and the callback. */
export const oauthDataSchema = z.object({
  codeVerifier: z.string().min(43),
  codeChallenge: z.string().min(43),
  state: z.string().min(16),
  redirectUri: z.string(),
  originalUri: z.string(),
});
export type OAuthData = z.infer<typeof oauthDataSchema>;

type SdkTokens = { accessToken: { value: string; expiresAt: number }; refreshToken: { value: string; role: string } };

function strategy(current?: TokenPair) {
  const { wixClientId } = getConfig();
  if (!current) return OAuthStrategy({ clientId: wixClientId });
  return OAuthStrategy({
    clientId: wixClientId,
    tokens: { accessToken: { value: current.accessToken, expiresAt: current.expiresAt }, refreshToken: { value: current.refreshToken, role: current.role } },
  });
}

function toPair(tokens: SdkTokens, role: TokenPair["role"]): TokenPair {
  return { accessToken: tokens.accessToken.value, expiresAt: tokens.accessToken.expiresAt, refreshToken: tokens.refreshToken.value, role };
}

/** The anonymous grant: a fresh visitor. */
export async function grantVisitorTokens(): Promise<TokenPair> {
  return toPair(await strategy().generateVisitorTokens(), "visitor");
}

/** The refresh_token grant. The platform does not rotate refresh tokens, so the old one stays. */
export async function renewAccessToken(pair: Pick<TokenPair, "refreshToken" | "role">): Promise<TokenPair> {
  const tokens = await strategy().renewToken({ value: pair.refreshToken, role: pair.role });
  return { ...toPair(tokens, pair.role), refreshToken: pair.refreshToken };
}

/**
 * True when the platform answered the refresh with a client error (unknown or revoked token),
 * as opposed to being unreachable or failing, when the session must be kept for a retry.
 */
export function isRefreshRejected(error: unknown): boolean {
  return error instanceof Error && /^Failed to fetch tokens from OAuth API: (Bad Request|Unauthorized|Forbidden|Not Found)\b/.test(error.message);
}

/** PKCE data (S256) and the hosted login URL, asked for with the visitor's own tokens. */
export async function startAuthorization(
  current: TokenPair,
  redirectUri: string,
  prompt: "login" | "none",
): Promise<{ authUrl: string; oauthData: OAuthData }> {
  const auth = strategy(current);
  const oauthData = auth.generateOAuthData(redirectUri);
  const { authUrl } = await auth.getAuthUrl(oauthData, { prompt, responseMode: "query" });
  return { authUrl, oauthData };
}

/** The authorization_code grant; the SDK also checks the state against the transaction's. */
export async function exchangeCode(code: string, state: string, oauthData: OAuthData): Promise<TokenPair> {
  return toPair(await strategy().getMemberTokens(code, state, oauthData), "member");
}

/** The platform's logout URL, which ends its login session and comes back to `postFlowUrl`. */
export async function platformLogoutUrl(current: TokenPair, postFlowUrl: string): Promise<string> {
  return (await strategy(current).logout(postFlowUrl)).logoutUrl;
}
