import { LOCAL_CLIENT_ID, type PlatformConfig } from "../config";

/** An OAuth client the platform knows, with the redirect URIs it registered. */
export type OAuthClient = { id: string; redirectUris: readonly string[] };

/** The path of the site's OAuth callback; the local client allows exactly this URI on the site's origin. */
export const SITE_CALLBACK_PATH = "/api/auth/callback";

// Control characters, spaces and backslashes are refused outright: URL parsers drop or
// reinterpret them, which is how "same origin" checks get bypassed (pitfall P4).
const UNSAFE_URL_CHARACTERS = /[\u0000-\u0020\u007f\\]/;

/**
 * The registered OAuth clients. Redirect URIs match by exact string comparison
 * (RFC 9700 §2.1); return URLs after a flow must share an origin with one of them.
 */
export class ClientRegistry {
  private readonly clients: Map<string, OAuthClient>;

  constructor(config: Pick<PlatformConfig, "siteUrl">) {
    const local: OAuthClient = { id: LOCAL_CLIENT_ID, redirectUris: [`${config.siteUrl}${SITE_CALLBACK_PATH}`] };
    this.clients = new Map([[local.id, local]]);
  }

  get(clientId: string): OAuthClient | null {
    return this.clients.get(clientId) ?? null;
  }

  isAllowedRedirectUri(client: OAuthClient, redirectUri: string): boolean {
    return client.redirectUris.includes(redirectUri);
  }

  /** The origins a client's pages live on (those of its redirect URIs); every client's when none is given. */
  originsOf(client?: OAuthClient): string[] {
    const clients = client ? [client] : [...this.clients.values()];
    return [...new Set(clients.flatMap((c) => c.redirectUris.map((uri) => new URL(uri).origin)))];
  }

  /**
   * The normalised URL to send the browser to after a flow, or null when the input is not an
   * absolute http(s) URL on the origin of one of the given clients (all clients when none given).
   */
  safeReturnUrl(input: unknown, client?: OAuthClient): string | null {
    if (typeof input !== "string" || input === "" || UNSAFE_URL_CHARACTERS.test(input)) return null;
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      return null;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.username || url.password) return null;
    return this.originsOf(client).includes(url.origin) ? url.href : null;
  }
}
