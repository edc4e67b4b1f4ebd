import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "@ridgeline/platform-contract";
import { LOCAL_CLIENT_ID } from "../config";
import { memberSiteClient, TestBrowser } from "../identity/test-browser";
import { DEMO_MEMBER } from "../seed/seed";
import { startTestPlatform, type TestPlatform } from "../testing";
import { CLIENTS_FILE, ClientRegistry, configuredClients } from "./clients";

const siteUrl = "http://localhost:3000";

describe("configuredClients", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "clients-test-"));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("always has the site's client with its callback", () => {
    expect(configuredClients({ siteUrl, dataDir })).toEqual([{ id: LOCAL_CLIENT_ID, redirectUris: [`${siteUrl}/api/auth/callback`] }]);
  });

  it("adds clients from the environment and the data folder, merging redirect URIs per id", () => {
    const fromEnv = JSON.stringify([
      { id: "my-app", redirectUris: ["http://localhost:5173/callback", "http://127.0.0.1:5173/callback"] },
      { id: LOCAL_CLIENT_ID, redirectUris: ["http://localhost:3001/api/auth/callback"] },
    ]);
    fs.writeFileSync(path.join(dataDir, CLIENTS_FILE), JSON.stringify([{ id: "my-app", redirectUris: ["https://dev.example/callback"] }]));
    try {
      expect(configuredClients({ siteUrl, dataDir, oauthClientsJson: fromEnv })).toEqual([
        { id: LOCAL_CLIENT_ID, redirectUris: [`${siteUrl}/api/auth/callback`, "http://localhost:3001/api/auth/callback"] },
        { id: "my-app", redirectUris: ["http://localhost:5173/callback", "http://127.0.0.1:5173/callback", "https://dev.example/callback"] },
      ]);
    } finally {
      fs.rmSync(path.join(dataDir, CLIENTS_FILE));
    }
  });

  it("keeps an app's secret, with or without redirect URIs, and never describes it", () => {
    const oauthClientsJson = JSON.stringify([
      { id: "app", secret: "s".repeat(16) },
      { id: "app", redirectUris: ["http://localhost:4321/cb"] },
    ]);
    expect(configuredClients({ siteUrl, dataDir, oauthClientsJson })[1]).toEqual({
      id: "app",
      redirectUris: ["http://localhost:4321/cb"],
      secret: "s".repeat(16),
    });
    expect(JSON.stringify(new ClientRegistry({ siteUrl, dataDir, oauthClientsJson }).describe())).not.toContain("s".repeat(16));
  });

  it("keeps an app's webhook URL and lists the apps that take webhooks", () => {
    const oauthClientsJson = JSON.stringify([{ id: "app", secret: "s".repeat(16), webhookUrl: "http://localhost:4321/webhooks" }]);
    const registry = new ClientRegistry({ siteUrl, dataDir, oauthClientsJson });
    expect(registry.webhookApps()).toEqual([{ id: "app", redirectUris: [], secret: "s".repeat(16), webhookUrl: "http://localhost:4321/webhooks" }]);
    expect(registry.describe()[1]).toEqual({ id: "app", redirectUris: [], hasSecret: true, webhookUrl: "http://localhost:4321/webhooks" });
  });

  it("refuses malformed configuration with a ConfigError naming the problem", () => {
    const bad = [
      "not json",
      "{}",
      JSON.stringify([{ id: "x", redirectUris: [] }]),
      JSON.stringify([{ id: "x", redirectUris: ["javascript:alert(1)"] }]),
      JSON.stringify([{ id: "x", secret: "short" }]),
      JSON.stringify([
        { id: "x", secret: "a".repeat(16) },
        { id: "x", secret: "b".repeat(16) },
      ]),
      // Webhooks go to apps: a webhook URL needs a secret, and one app has one URL.
      JSON.stringify([{ id: "x", redirectUris: ["http://localhost:4321/cb"], webhookUrl: "http://localhost:4321/webhooks" }]),
      JSON.stringify([{ id: "x", secret: "a".repeat(16), webhookUrl: "ftp://localhost/webhooks" }]),
      JSON.stringify([
        { id: "x", secret: "a".repeat(16), webhookUrl: "http://localhost:4321/one" },
        { id: "x", webhookUrl: "http://localhost:4321/two" },
      ]),
    ];
    for (const oauthClientsJson of bad) {
      expect(() => configuredClients({ siteUrl, dataDir, oauthClientsJson })).toThrow(ConfigError);
    }
  });
});

describe("a configured client through the real SDK", () => {
  let platform: TestPlatform;
  const redirectUri = "http://localhost:5173/callback";
  beforeAll(async () => {
    platform = await startTestPlatform({ oauthClientsJson: JSON.stringify([{ id: "my-app", redirectUris: [redirectUri] }]) });
  });
  afterAll(() => platform.close());

  it("signs a member in with its own client id and redirect URI", async () => {
    const client = memberSiteClient("my-app");
    const oauthData = client.auth.generateOAuthData(redirectUri);
    const { authUrl } = await client.auth.getAuthUrl(oauthData, { responseMode: "query" });
    const submitted = await new TestBrowser().submitForm(authUrl, { email: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    expect(submitted.location?.startsWith(`${redirectUri}?code=`)).toBe(true);
    const { code, state } = client.auth.parseFromUrl(submitted.location!, "query");
    const tokens = await client.auth.getMemberTokens(code, state, oauthData);
    expect(tokens.refreshToken.role).toBe("member");
    client.auth.setTokens(tokens);
    expect((await client.members.getCurrentMember()).member?.profile?.nickname).toBe("Dana");
  });

  it("refuses a redirect URI the client did not register", async () => {
    const client = memberSiteClient("my-app");
    await expect(client.auth.getAuthUrl(client.auth.generateOAuthData(`${platform.config.siteUrl}/api/auth/callback`))).rejects.toBeDefined();
  });
});
