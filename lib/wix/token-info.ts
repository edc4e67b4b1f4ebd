import { z } from "zod";
import { PlatformUnavailableError } from "./errors";
import { platformFetch } from "./platform-fetch";

// Apart from the OAuth calls (lib/wix/oauth.ts), which need the SDK: the production server's page
// cache asks this too, and its bundle takes in only what it imports.

const TOKEN_INFO_ENDPOINT = "https://www.wixapis.com/oauth2/token-info";
const tokenInfoReply = z.object({ active: z.boolean() }).passthrough();

/**
 * Whether the platform still honours an access token (what the SDK's `getTokenInfo` asks): one it
 * revoked (a block, "Sign out everywhere", a password reset) is inactive. A platform that does not
 * answer throws PlatformUnavailableError.
 */
export async function isTokenActive(accessToken: string): Promise<boolean> {
  const response = await platformFetch(TOKEN_INFO_ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: accessToken }),
  });
  const parsed = tokenInfoReply.safeParse(await response.json());
  if (response.status !== 200 || !parsed.success) throw new PlatformUnavailableError(`token-info answered ${response.status}`);
  return parsed.data.active;
}
