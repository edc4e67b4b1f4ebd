import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { LOCAL_CLIENT_ID, LOCAL_SITE_APP_ID, localWebhookKey } from "@ridgeline/platform-contract";

const secret = "s".repeat(32);
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "site-config-"));

describe("site configuration", () => {
  it("runs in local mode with no configuration at all", () => {
    const dir = tempDir();
    const config = parseConfig({ LOCAL_PLATFORM_DATA_DIR: dir });
    expect(config.wixClientId).toBe(LOCAL_CLIENT_ID);
    expect(config.localPlatformUrl).toBe("http://127.0.0.1:4010");
    expect(config.siteUrl.href).toBe("http://localhost:3000/");
    expect(config.sessionSecrets[0].length).toBeGreaterThanOrEqual(32);
  });

  it("keeps the generated development secret under the data folder and reuses it", () => {
    const dir = tempDir();
    const first = parseConfig({ LOCAL_PLATFORM_DATA_DIR: dir }).sessionSecrets[0];
    expect(fs.readFileSync(path.join(dir, "session-secret"), "utf8")).toBe(first);
    expect(parseConfig({ LOCAL_PLATFORM_DATA_DIR: dir }).sessionSecrets[0]).toBe(first);
  });

  it("takes Wix's webhook events for the local platform's site app in local mode, and for the owner's app when its id and key are set", () => {
    const dir = tempDir();
    const local = parseConfig({ LOCAL_PLATFORM_DATA_DIR: dir }).wixApp!;
    expect(local.appId).toBe(LOCAL_SITE_APP_ID);
    expect(local.publicKey).toBe(createPublicKey(localWebhookKey(dir)).export({ type: "spki", format: "pem" }).toString());
    const real = { WIX_CLIENT_ID: "abc-123", SESSION_SECRET: secret };
    expect(parseConfig(real).wixApp).toBeNull();
    const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString();
    // PEM as it is, or base64 of the PEM on one line, as Wix's dashboard gives it.
    for (const given of [pem, Buffer.from(pem).toString("base64")]) {
      expect(parseConfig({ ...real, WIX_APP_ID: "app-1", WIX_APP_PUBLIC_KEY: given }).wixApp).toEqual({ appId: "app-1", publicKey: pem.trim() });
    }
    expect(() => parseConfig({ ...real, WIX_APP_ID: "app-1" })).toThrow(/WIX_APP_PUBLIC_KEY: is needed with the other/);
    expect(() => parseConfig({ ...real, WIX_APP_PUBLIC_KEY: pem })).toThrow(/WIX_APP_ID: is needed with the other/);
    const privatePem = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    for (const wrong of ["not a key", privatePem]) {
      expect(() => parseConfig({ ...real, WIX_APP_ID: "app-1", WIX_APP_PUBLIC_KEY: wrong })).toThrow(/WIX_APP_PUBLIC_KEY: must be the app's RSA public key/);
    }
  });

  it("talks to Wix when a client id is set", () => {
    const config = parseConfig({ WIX_CLIENT_ID: "abc-123", SESSION_SECRET: secret, SITE_URL: "https://club.example", LOCAL_PLATFORM_PORT: "5000" });
    expect(config.wixClientId).toBe("abc-123");
    expect(config.localPlatformUrl).toBeNull();
    expect(config.sessionSecrets).toEqual([secret]);
  });

  it("takes several session secrets, newest first, and the member session limits", () => {
    const [newest, older] = ["n".repeat(32), "o".repeat(40)];
    const config = parseConfig({
      SESSION_SECRET: ` ${newest} , ${older} `,
      SESSION_IDLE_TIMEOUT: "600",
      SESSION_ABSOLUTE_TIMEOUT: "7200",
      SESSION_CHECK_INTERVAL: "0",
      LOCAL_PLATFORM_DATA_DIR: tempDir(),
    });
    expect(config.sessionSecrets).toEqual([newest, older]);
    expect(config.memberSession).toEqual({ idleSeconds: 600, absoluteSeconds: 7200, checkIntervalSeconds: 0 });
    expect(parseConfig({ LOCAL_PLATFORM_DATA_DIR: tempDir() }).memberSession.checkIntervalSeconds).toBe(30);
  });

  it.each([
    [{ SESSION_SECRET: "too-short" }, "SESSION_SECRET: must be at least 32 characters"],
    [{ SESSION_SECRET: `${"n".repeat(32)},short` }, "SESSION_SECRET: must be at least 32 characters (each"],
    [{ SESSION_IDLE_TIMEOUT: "soon" }, "SESSION_IDLE_TIMEOUT: must be a number of seconds"],
    [{ SESSION_ABSOLUTE_TIMEOUT: "5" }, "SESSION_ABSOLUTE_TIMEOUT: must be at least 60 seconds"],
    [{ SESSION_CHECK_INTERVAL: "-1" }, "SESSION_CHECK_INTERVAL: must be a whole number of seconds from 0 to 3600"],
    [{ SESSION_CHECK_INTERVAL: "a minute" }, "SESSION_CHECK_INTERVAL: must be a whole number of seconds from 0 to 3600"],
    [{ SITE_URL: "not a url" }, "SITE_URL: must be an absolute http(s) URL"],
    [{ LOCAL_PLATFORM_PORT: "http" }, "LOCAL_PLATFORM_PORT: must be a port number"],
    [{ LOCAL_PLATFORM_PORT: "70000" }, "LOCAL_PLATFORM_PORT"],
    [{ WIX_CLIENT_ID: "   " }, "WIX_CLIENT_ID: must not be empty when set"],
    [{ WIX_CLIENT_ID: "abc", NODE_ENV: "production" }, "SESSION_SECRET: is required in production"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent"],
    [{ TRUSTED_PROXY_HEADER: "x forwarded for" }, "TRUSTED_PROXY_HEADER: must be a header name"],
    [{ TRUSTED_PROXY_HOPS: "0" }, "TRUSTED_PROXY_HOPS: must be a whole number from 1 to 10"],
    [{ REDIS_URL: "http://cache:6379" }, "REDIS_URL: must be a redis:// or rediss:// URL"],
    [{ MAX_CONCURRENT_REQUESTS: "many" }, "MAX_CONCURRENT_REQUESTS: must be a whole number, 0 for no limit"],
    [{ MAX_CONCURRENT_REQUESTS: "-1" }, "MAX_CONCURRENT_REQUESTS: must be a whole number, 0 for no limit"],
    [{ PAGE_CACHE_MAX_MB: "lots" }, "PAGE_CACHE_MAX_MB: must be a number of MiB, 0 to turn the page cache off"],
    [{ PAGE_CACHE_FRESH_SECONDS: "0" }, "PAGE_CACHE_FRESH_SECONDS: must be at least 1 second"],
    [{ PAGE_CACHE_STALE_SECONDS: "1.5" }, "PAGE_CACHE_STALE_SECONDS: must be a whole number of seconds"],
    [{ REDIS_KEY_PREFIX: "my site" }, "REDIS_KEY_PREFIX: must be 1 to 64 letters"],
  ])("names the variable and the problem for %j", (env, message) => {
    expect(() => parseConfig({ LOCAL_PLATFORM_DATA_DIR: tempDir(), ...env })).toThrow(ConfigError);
    expect(() => parseConfig({ LOCAL_PLATFORM_DATA_DIR: tempDir(), ...env })).toThrow(message);
  });

  it("reads the production settings: log level, trusted proxy header, shared store, concurrency", () => {
    const defaults = parseConfig({ LOCAL_PLATFORM_DATA_DIR: tempDir() });
    expect(defaults).toMatchObject({ logLevel: "info", trustedProxy: null, redisUrl: null, maxConcurrentRequests: 8 });
    const behindProxy = parseConfig({
      LOCAL_PLATFORM_DATA_DIR: tempDir(),
      LOG_LEVEL: "warn",
      TRUSTED_PROXY_HEADER: " X-Forwarded-For ",
      TRUSTED_PROXY_HOPS: "2",
      REDIS_URL: "rediss://cache.internal:6380",
      MAX_CONCURRENT_REQUESTS: "0",
    });
    expect(behindProxy).toMatchObject({
      logLevel: "warn",
      trustedProxy: { header: "x-forwarded-for", hops: 2 },
      redisUrl: "rediss://cache.internal:6380",
      maxConcurrentRequests: 0,
    });
  });

  it("sizes the page cache in MiB (0: off) and reads its lifetimes", () => {
    expect(parseConfig({ LOCAL_PLATFORM_DATA_DIR: tempDir() })).toMatchObject({
      pageCache: { maxBytes: 64 * 2 ** 20, freshSeconds: 300, staleSeconds: 86_400 },
      redisKeyPrefix: "ridgeline:",
    });
    const tuned = parseConfig({
      LOCAL_PLATFORM_DATA_DIR: tempDir(),
      PAGE_CACHE_MAX_MB: "0",
      PAGE_CACHE_FRESH_SECONDS: "30",
      PAGE_CACHE_STALE_SECONDS: "0",
      REDIS_KEY_PREFIX: "club-a:",
    });
    expect(tuned).toMatchObject({ pageCache: { maxBytes: 0, freshSeconds: 30, staleSeconds: 0 }, redisKeyPrefix: "club-a:" });
  });
});
