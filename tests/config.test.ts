import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";
import { LOCAL_CLIENT_ID } from "@/lib/local-mode";

const secret = "s".repeat(32);
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "site-config-"));

describe("site configuration", () => {
  it("runs in local mode with no configuration at all", () => {
    const dir = tempDir();
    const config = parseConfig({ LOCAL_PLATFORM_DATA_DIR: dir });
    expect(config.wixClientId).toBe(LOCAL_CLIENT_ID);
    expect(config.localPlatformUrl).toBe("http://127.0.0.1:4010");
    expect(config.siteUrl.href).toBe("http://localhost:3000/");
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
  });

  it("keeps the generated development secret under the data folder and reuses it", () => {
    const dir = tempDir();
    const first = parseConfig({ LOCAL_PLATFORM_DATA_DIR: dir }).sessionSecret;
    expect(fs.readFileSync(path.join(dir, "session-secret"), "utf8")).toBe(first);
    expect(parseConfig({ LOCAL_PLATFORM_DATA_DIR: dir }).sessionSecret).toBe(first);
  });

  it("talks to Wix when a client id is set", () => {
    const config = parseConfig({ WIX_CLIENT_ID: "abc-123", SESSION_SECRET: secret, SITE_URL: "https://club.example", LOCAL_PLATFORM_PORT: "5000" });
    expect(config.wixClientId).toBe("abc-123");
    expect(config.localPlatformUrl).toBeNull();
    expect(config.sessionSecret).toBe(secret);
  });

  it.each([
    [{ SESSION_SECRET: "too-short" }, "SESSION_SECRET: must be at least 32 characters"],
    [{ SITE_URL: "not a url" }, "SITE_URL: must be an absolute http(s) URL"],
    [{ LOCAL_PLATFORM_PORT: "http" }, "LOCAL_PLATFORM_PORT: must be a port number"],
    [{ LOCAL_PLATFORM_PORT: "70000" }, "LOCAL_PLATFORM_PORT"],
    [{ WIX_CLIENT_ID: "   " }, "WIX_CLIENT_ID: must not be empty when set"],
    [{ WIX_CLIENT_ID: "abc", NODE_ENV: "production" }, "SESSION_SECRET: is required in production"],
  ])("names the variable and the problem for %j", (env, message) => {
    expect(() => parseConfig({ LOCAL_PLATFORM_DATA_DIR: tempDir(), ...env })).toThrow(ConfigError);
    expect(() => parseConfig({ LOCAL_PLATFORM_DATA_DIR: tempDir(), ...env })).toThrow(message);
  });
});
