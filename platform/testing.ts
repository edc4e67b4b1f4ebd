import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { createClient, OAuthStrategy, ApiKeyStrategy, type Descriptors } from "@wix/sdk";
import { items, collections } from "@wix/data";
import { routeWixApis } from "@ridgeline/platform-contract";
import { LOCAL_CLIENT_ID, readPlatformConfig, type PlatformConfig } from "./config";
import { SITE_CALLBACK_PATH } from "./oauth/clients";
import { startPlatform } from "./server";

/**
 * Test support: a real local platform on an ephemeral port with an in-memory database,
 * and the real `@wix/*` clients pointed at it through the global fetch.
 */
export async function startTestPlatform(overrides: Partial<PlatformConfig> = {}) {
  const config: PlatformConfig = {
    ...readPlatformConfig({}),
    port: 0,
    inMemory: true,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "platform-test-")),
    ...overrides,
  };
  const platform = await startPlatform(config);
  const originalFetch = globalThis.fetch;
  globalThis.fetch = routeWixApis(platform.url, originalFetch);
  return {
    ...platform,
    config,
    /** The site's callback, the redirect URI the platform's client allows. */
    callbackUrl: `${config.siteUrl}${SITE_CALLBACK_PATH}`,
    /** A visitor's client, as the site builds it. */
    visitorClient: () => createClient({ modules: { items, collections }, auth: OAuthStrategy({ clientId: LOCAL_CLIENT_ID }) }),
    /** A privileged client, authenticated with the platform's admin API key. */
    adminClient: () => createClient({ modules: { items, collections }, auth: ApiKeyStrategy({ apiKey: config.apiKey, siteId: "local-site" }) }),
    recordRequests,
    stats: async () =>
      (await (await originalFetch(`${platform.url}/_local/stats`, { headers: { authorization: config.apiKey } })).json()) as {
        requests: Record<string, number>;
      },
    async close() {
      globalThis.fetch = originalFetch;
      await platform.app.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** A call as it went over the wire: a GET's `.r` decoded, a POST's JSON body parsed. */
export type RecordedRequest = { method: string; path: string; body?: Record<string, unknown> };

/**
 * Records every call made through the global fetch (the SDK's and the site's) until `stop()`,
 * to check what a client really sent, not only how many calls it made.
 */
function recordRequests() {
  const requests: RecordedRequest[] = [];
  const routed = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const encoded = url.searchParams.get(".r");
    const text = encoded ? Buffer.from(encoded, "base64url").toString("utf8") : typeof init?.body === "string" ? init.body : undefined;
    let body: Record<string, unknown> | undefined;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ method: init?.method ?? (input instanceof Request ? input.method : "GET"), path: url.pathname, body });
    return routed(input, init);
  };
  return {
    requests,
    stop() {
      globalThis.fetch = routed;
    },
  };
}

export type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;

/** Sign-up as open as it goes (no e-mail verification, owner approval or captcha): identity tests start here and turn one on. */
export function openSignUp(platform: TestPlatform): void {
  platform.ctx.settings.update({ requireEmailVerification: false, requireOwnerApproval: false, requireCaptcha: false, rejectInvisibleCaptcha: false });
}

/** A client of the given `@wix/*` modules authenticated as the site owner, with the platform's API key. */
export function siteOwnerClient<M extends Descriptors>(apiKey: string, modules: M) {
  return createClient<undefined, ReturnType<typeof ApiKeyStrategy>, M>({ modules, auth: ApiKeyStrategy({ apiKey, siteId: "local-site" }) });
}

type SdkRefusal = {
  status?: number;
  details?: { applicationError?: { code?: string; data?: Record<string, unknown> }; validationError?: { fieldViolations?: Array<{ ruleName?: string }> } };
};

/**
 * How the SDK reports a call the platform refused: the HTTP status, and the application code (or,
 * for a field violation, its rule) with the error's data. Throws when the call succeeded.
 */
export async function refusalWithData(call: Promise<unknown>): Promise<{ status?: number; code?: string; data?: Record<string, unknown> }> {
  const outcome = await call.then(
    () => ({ refused: false as const }),
    (error: unknown) => ({ refused: true as const, error: error as SdkRefusal }),
  );
  if (!outcome.refused) throw new Error("The call should have been refused.");
  const { status, details } = outcome.error;
  return { status, code: details?.applicationError?.code ?? details?.validationError?.fieldViolations?.[0]?.ruleName, data: details?.applicationError?.data };
}

/** The status and code of a refused call (refusalWithData without the data). */
export async function refusalOf(call: Promise<unknown>): Promise<{ status?: number; code?: string }> {
  const { status, code } = await refusalWithData(call);
  return { status, code };
}
