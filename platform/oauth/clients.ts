import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ConfigError } from "@ridgeline/platform-contract";
import { LOCAL_CLIENT_ID, type PlatformConfig } from "../config";

/** An OAuth client the platform knows, with the redirect URIs it registered. */
export type OAuthClient = { id: string; redirectUris: readonly string[] };

/** The path of the site's OAuth callback; the local client allows exactly this URI on the site's origin. */
export const SITE_CALLBACK_PATH = "/api/auth/callback";

// Control characters, spaces and backslashes are refused outright: URL parsers drop or
// reinterpret them, which is how "same origin" checks get bypassed (docs/platform/oauth.md §1).
const UNSAFE_URL_CHARACTERS = /[\u0000-\u0020\u007f\\]/;

/** The file in the data folder that registers more clients (same shape as the environment variable). */
export const CLIENTS_FILE = "oauth-clients.json";

const redirectUriSchema = z
  .string()
  .url()
  .refine((uri) => !UNSAFE_URL_CHARACTERS.test(uri) && /^https?:$/.test(new URL(uri).protocol), "must be an absolute http(s) URL");

const clientsSchema = z.array(z.object({ id: z.string().trim().min(1).max(200), redirectUris: z.array(redirectUriSchema).min(1).max(50) }));

function parseClients(json: string, source: string): OAuthClient[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ConfigError(`${source} is not valid JSON.`);
  }
  const parsed = clientsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ConfigError(`${source}: ${issue.path.join(".") || "(top level)"}: ${issue.message} (expected [{"id": "...", "redirectUris": ["https://..."]}]).`);
}

/**
 * The site's own client with its callback, then the clients from LOCAL_PLATFORM_OAUTH_CLIENTS and
 * from `oauth-clients.json` in the data folder; entries for the same id add redirect URIs.
 */
export function configuredClients(config: Pick<PlatformConfig, "siteUrl" | "dataDir" | "oauthClientsJson">): OAuthClient[] {
  const listed: OAuthClient[] = [{ id: LOCAL_CLIENT_ID, redirectUris: [`${config.siteUrl}${SITE_CALLBACK_PATH}`] }];
  if (config.oauthClientsJson) listed.push(...parseClients(config.oauthClientsJson, "LOCAL_PLATFORM_OAUTH_CLIENTS"));
  const file = path.join(config.dataDir, CLIENTS_FILE);
  if (fs.existsSync(file)) listed.push(...parseClients(fs.readFileSync(file, "utf8"), file));
  const merged = new Map<string, Set<string>>();
  for (const client of listed) {
    const uris = merged.get(client.id) ?? new Set<string>();
    for (const uri of client.redirectUris) uris.add(uri);
    merged.set(client.id, uris);
  }
  return [...merged].map(([id, uris]) => ({ id, redirectUris: [...uris] }));
}

/**
 * The registered OAuth clients. Redirect URIs match by exact string comparison
 * (RFC 9700 §2.1); return URLs after a flow must share an origin with one of them.
 */
export class ClientRegistry {
  private readonly clients: Map<string, OAuthClient>;

  constructor(config: Pick<PlatformConfig, "siteUrl" | "dataDir" | "oauthClientsJson">) {
    this.clients = new Map(configuredClients(config).map((client) => [client.id, client]));
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
