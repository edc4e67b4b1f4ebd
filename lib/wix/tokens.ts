import { OAuthStrategy } from "@wix/sdk";
import { getConfig } from "@/lib/config";

/** A token pair as the site keeps it: plain values, never the SDK's objects. */
export type TokenPair = {
  accessToken: string;
  /** Unix seconds. */
  expiresAt: number;
  refreshToken: string;
  role: "visitor" | "member";
};

function strategy() {
  return OAuthStrategy({ clientId: getConfig().wixClientId });
}

/** The anonymous grant: a fresh visitor. */
export async function grantVisitorTokens(): Promise<TokenPair> {
  const tokens = await strategy().generateVisitorTokens();
  return { accessToken: tokens.accessToken.value, expiresAt: tokens.accessToken.expiresAt, refreshToken: tokens.refreshToken.value, role: "visitor" };
}

/** The refresh_token grant. The platform does not rotate refresh tokens, so the old one stays. */
export async function renewAccessToken(pair: Pick<TokenPair, "refreshToken" | "role">): Promise<TokenPair> {
  const tokens = await strategy().renewToken({ value: pair.refreshToken, role: pair.role });
  return { accessToken: tokens.accessToken.value, expiresAt: tokens.accessToken.expiresAt, refreshToken: pair.refreshToken, role: pair.role };
}

/**
 * True when the platform answered the refresh with a client error (unknown or revoked token),
 * as opposed to being unreachable or failing, when the session must be kept for a retry.
 */
export function isRefreshRejected(error: unknown): boolean {
  return error instanceof Error && /^Failed to fetch tokens from OAuth API: (Bad Request|Unauthorized|Forbidden|Not Found)\b/.test(error.message);
}
