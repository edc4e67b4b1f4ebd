import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ConfigError, LOCAL_SITE_APP_ID, generatedSecret } from "@ridgeline/platform-contract";
import { LOCAL_CLIENT_ID, type PlatformConfig } from "../config";
import { equalSecrets } from "../http/constant-time";

/**
 * An OAuth client the platform knows, with the redirect URIs it registered and, for an app that
 * makes elevated calls (`AppStrategy`), its secret (docs/platform/oauth.md §5) and the address the
 * platform sends its webhooks to (docs/platform/webhooks.md).
 */
export type OAuthClient = { id: string; redirectUris: readonly string[]; secret?: string; webhookUrl?: string };

/** The path of the site's OAuth callback; the local client allows exactly this URI on the site's origin. */
export const SITE_CALLBACK_PATH = "/api/auth/callback";

// Control characters, spaces and backslashes are refused outright: URL parsers drop or
// reinterpret them, which is how "same origin" checks get bypassed (docs/platform/oauth.md §1).
const UNSAFE_URL_CHARACTERS = /[\u0000-\u0020\u007f\\]/;

/** The file in the data folder that registers more clients (same shape as the environment variable). */
export const CLIENTS_FILE = "oauth-clients.json";

export const redirectUriSchema = z
  .string()
  .url()
  // zod runs a refinement even after .url() failed, so the URL is parsed here only once known to parse.
  .refine((uri) => !UNSAFE_URL_CHARACTERS.test(uri) && URL.canParse(uri) && /^https?:$/.test(new URL(uri).protocol), "must be an absolute http(s) URL");

export const clientIdSchema = z.string().trim().min(1).max(200);

const clientsSchema = z.array(
  z
    .object({
      id: clientIdSchema,
      redirectUris: z.array(redirectUriSchema).max(50).default([]),
      // Long enough that guessing it is hopeless; the platform compares it in constant time.
      secret: z.string().min(16, "must be at least 16 characters").max(512).optional(),
      webhookUrl: redirectUriSchema.optional(),
    })
    // A client with neither can do nothing a client id alone cannot.
    .refine((client) => client.redirectUris.length > 0 || client.secret !== undefined, "needs redirectUris, a secret or both")
    // Webhooks go to apps, as on Wix: an app is a client with a secret.
    .refine((client) => client.webhookUrl === undefined || client.secret !== undefined, "a webhookUrl needs a secret (webhooks go to apps)"),
);

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
  throw new ConfigError(
    `${source}: ${issue.path.join(".") || "(top level)"}: ${issue.message} ` +
      `(expected [{"id": "...", "redirectUris": ["https://..."], "secret": "...", "webhookUrl": "https://..."}]).`,
  );
}

/** Where a client's redirect URI was registered: the site's own callback, LOCAL_PLATFORM_OAUTH_CLIENTS, or `oauth-clients.json`. */
export type ClientSource = "site" | "environment" | "file";

/** A client with each redirect URI and every place that registers it; the secret itself is never described. */
export type DescribedClient = { id: string; redirectUris: { uri: string; sources: ClientSource[] }[]; hasSecret: boolean; webhookUrl: string | null };

type ClientsConfig = Pick<PlatformConfig, "siteUrl" | "dataDir" | "oauthClientsJson"> & Partial<Pick<PlatformConfig, "siteWebhookUrl">>;

/** The file in the data folder that keeps the site app's generated secret (an app needs one; the site never uses it). */
const SITE_APP_SECRET_FILE = "site-app-secret";

const clientsFile = (config: Pick<PlatformConfig, "dataDir">) => path.join(config.dataDir, CLIENTS_FILE);

function fileClients(config: Pick<PlatformConfig, "dataDir">): OAuthClient[] {
  const file = clientsFile(config);
  return fs.existsSync(file) ? parseClients(fs.readFileSync(file, "utf8"), file) : [];
}

/** Every client as each source lists it, with repeats: the site's own, then the environment's, then the file's. */
function listedClients(config: ClientsConfig): Array<OAuthClient & { source: ClientSource }> {
  const environment = config.oauthClientsJson ? parseClients(config.oauthClientsJson, "LOCAL_PLATFORM_OAUTH_CLIENTS") : [];
  // The site takes the webhook events as a Wix app of its own (docs/platform/webhooks.md §1).
  const siteApp = config.siteWebhookUrl && {
    id: LOCAL_SITE_APP_ID,
    redirectUris: [],
    secret: generatedSecret(config.dataDir, SITE_APP_SECRET_FILE),
    webhookUrl: config.siteWebhookUrl,
    source: "site" as const,
  };
  return [
    { id: LOCAL_CLIENT_ID, redirectUris: [`${config.siteUrl}${SITE_CALLBACK_PATH}`], source: "site" as const },
    ...(siteApp ? [siteApp] : []),
    ...environment.map((client) => ({ ...client, source: "environment" as const })),
    ...fileClients(config).map((client) => ({ ...client, source: "file" as const })),
  ];
}

/** Each client's redirect URIs with their sources, its secret and webhook URL; two different secrets (or URLs) for one id stop the platform. */
function mergeClients(config: ClientsConfig) {
  const merged = new Map<string, { uris: Map<string, ClientSource[]>; secret?: string; webhookUrl?: string }>();
  for (const client of listedClients(config)) {
    const entry = merged.get(client.id) ?? { uris: new Map<string, ClientSource[]>() };
    for (const uri of client.redirectUris) entry.uris.set(uri, [...new Set([...(entry.uris.get(uri) ?? []), client.source])]);
    if (client.secret !== undefined && entry.secret !== undefined && client.secret !== entry.secret) {
      throw new ConfigError(`OAuth client ${client.id} is given two different secrets; give it one.`);
    }
    if (client.webhookUrl !== undefined && entry.webhookUrl !== undefined && client.webhookUrl !== entry.webhookUrl) {
      throw new ConfigError(`OAuth client ${client.id} is given two different webhook URLs; give it one.`);
    }
    entry.secret ??= client.secret;
    entry.webhookUrl ??= client.webhookUrl;
    merged.set(client.id, entry);
  }
  return merged;
}

function describeClients(config: ClientsConfig): DescribedClient[] {
  return [...mergeClients(config)].map(([id, { uris, secret, webhookUrl }]) => ({
    id,
    redirectUris: [...uris].map(([uri, sources]) => ({ uri, sources })),
    hasSecret: secret !== undefined,
    webhookUrl: webhookUrl ?? null,
  }));
}

/**
 * The site's own client with its callback, then the clients from LOCAL_PLATFORM_OAUTH_CLIENTS and
 * from `oauth-clients.json` in the data folder; entries for the same id add redirect URIs.
 */
export function configuredClients(config: ClientsConfig): OAuthClient[] {
  return [...mergeClients(config)].map(([id, { uris, secret, webhookUrl }]) => ({
    id,
    redirectUris: [...uris.keys()],
    ...(secret !== undefined && { secret }),
    ...(webhookUrl !== undefined && { webhookUrl }),
  }));
}

/**
 * The registered OAuth clients. Redirect URIs match by exact string comparison
 * (RFC 9700 §2.1); return URLs after a flow must share an origin with one of them.
 */
export class ClientRegistry {
  private clients: Map<string, OAuthClient>;

  constructor(private readonly config: ClientsConfig) {
    this.clients = this.load();
  }

  private load() {
    return new Map(configuredClients(this.config).map((client) => [client.id, client]));
  }

  /** The clients with where each redirect URI comes from, as the files say now. */
  describe(): DescribedClient[] {
    return describeClients(this.config);
  }

  /**
   * Registers a redirect URI (and its client, when new) in `oauth-clients.json`, so it outlives a
   * restart, and uses it at once. The file is replaced whole, never left half written.
   */
  addRedirectUri(clientId: string, redirectUri: string): OAuthClient {
    const saved = fileClients(this.config);
    const entry = saved.find((client) => client.id === clientId);
    if (entry && !entry.redirectUris.includes(redirectUri)) entry.redirectUris = [...entry.redirectUris, redirectUri];
    if (!entry) saved.push({ id: clientId, redirectUris: [redirectUri] });
    const file = clientsFile(this.config);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(saved, null, 2)}\n`);
    fs.renameSync(`${file}.tmp`, file);
    this.clients = this.load();
    return this.clients.get(clientId)!;
  }

  /** The apps that take webhooks, as registered now. */
  webhookApps(): Array<OAuthClient & { webhookUrl: string }> {
    return [...this.clients.values()].filter((client): client is OAuthClient & { webhookUrl: string } => client.webhookUrl !== undefined);
  }

  get(clientId: string): OAuthClient | null {
    return this.clients.get(clientId) ?? null;
  }

  /** Whether a secret is the client's own; a client registered without one has none to match. */
  hasSecret(client: OAuthClient, candidate: string): boolean {
    return client.secret !== undefined && equalSecrets(candidate, client.secret);
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
