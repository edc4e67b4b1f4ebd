import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { createClient, OAuthStrategy, ApiKeyStrategy } from "@wix/sdk";
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

export type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;

/** Sign-up as open as it goes (no e-mail verification, owner approval or captcha): identity tests start here and turn one on. */
export function openSignUp(platform: TestPlatform): void {
  platform.ctx.settings.update({ requireEmailVerification: false, requireOwnerApproval: false, requireCaptcha: false, rejectInvisibleCaptcha: false });
}
