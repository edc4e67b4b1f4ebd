import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CLIENT_ID } from "../../config";
import { memberSiteClient, TestBrowser, getAuthUrl } from "../../identity/test-browser";
import { CLIENTS_FILE, ClientRegistry } from "../../oauth/clients";
import { startTestPlatform, type TestPlatform } from "../../testing";
import { WebhookKeys } from "../../webhooks/keys";
import { CSRF_HEADER } from "../access";

let platform: TestPlatform;
let csrf: string;
const fromEnvironment = "http://localhost:5173/callback";
beforeAll(async () => {
  platform = await startTestPlatform({ oauthClientsJson: JSON.stringify([{ id: "vite-app", redirectUris: [fromEnvironment] }]) });
  const page = await platform.app.inject({ url: "/_local/studio/settings" });
  csrf = /<meta name="studio-csrf" content="([^"]+)">/.exec(page.body)![1];
});
afterAll(() => platform.close());

const studio = (method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  platform.app.inject({ method, url: `/_local/studio/api${url}`, headers: method === "GET" ? {} : { [CSRF_HEADER]: csrf }, payload });

/** Where the platform's authorize endpoint sends a browser for this redirect URI: back to it, or to an error page. */
async function authorizeTo(redirectUri: string) {
  const client = memberSiteClient();
  const { authUrl } = await getAuthUrl(client, client.auth.generateOAuthData(redirectUri), { responseMode: "query" as const, prompt: "none" as const });
  return new TestBrowser().get(authUrl);
}

describe("webhooks in the Studio", () => {
  it("shows the public key apps check webhooks with, the one kept in the data folder", async () => {
    const answer = (await studio("GET", "/settings/webhooks")).json() as { publicKey: string; publicKeyPem: string; apps: unknown[] };
    expect(answer.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(Buffer.from(answer.publicKey, "base64").toString()).toBe(answer.publicKeyPem);
    expect(answer.publicKeyPem).toBe(new WebhookKeys(platform.config.dataDir).publicKeyPem());
    expect(answer.apps).toEqual([]);
  });
});

describe("OAuth clients in the Studio", () => {
  it("shows each redirect URI with where it comes from", async () => {
    const { clients } = (await studio("GET", "/settings/oauth-clients")).json() as {
      clients: { id: string; redirectUris: { uri: string; sources: string[] }[]; hasSecret: boolean }[];
    };
    expect(clients).toEqual([
      { id: LOCAL_CLIENT_ID, redirectUris: [{ uri: platform.callbackUrl, sources: ["site"] }], hasSecret: false, webhookUrl: null },
      { id: "vite-app", redirectUris: [{ uri: fromEnvironment, sources: ["environment"] }], hasSecret: false, webhookUrl: null },
    ]);
  });

  it("adds a redirect URI to oauth-clients.json, in use at once and after a restart", async () => {
    const added = "http://localhost:3999/api/auth/callback";
    await expect(authorizeTo(added)).rejects.toThrow(/INVALID_REDIRECT_URI|not registered|allowed/i);
    const answer = await studio("POST", "/settings/oauth-clients", { clientId: LOCAL_CLIENT_ID, redirectUri: added });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().client.redirectUris).toEqual([platform.callbackUrl, added]);
    const back = await authorizeTo(added);
    expect(back.location).toMatch(new RegExp(`^${added}\\?`));

    const file = JSON.parse(fs.readFileSync(path.join(platform.config.dataDir, CLIENTS_FILE), "utf8"));
    expect(file).toEqual([{ id: LOCAL_CLIENT_ID, redirectUris: [added] }]);
    expect(new ClientRegistry(platform.config).get(LOCAL_CLIENT_ID)?.redirectUris).toContain(added);
    const listed = (await studio("GET", "/settings/oauth-clients")).json().clients[0].redirectUris;
    expect(listed).toContainEqual({ uri: added, sources: ["file"] });

    // Twice is once; a new client id makes a new client.
    await studio("POST", "/settings/oauth-clients", { clientId: LOCAL_CLIENT_ID, redirectUri: added });
    await studio("POST", "/settings/oauth-clients", { clientId: "mobile-preview", redirectUri: "https://preview.example/callback" });
    expect(JSON.parse(fs.readFileSync(path.join(platform.config.dataDir, CLIENTS_FILE), "utf8"))).toEqual([
      { id: LOCAL_CLIENT_ID, redirectUris: [added] },
      { id: "mobile-preview", redirectUris: ["https://preview.example/callback"] },
    ]);
  });

  it("refuses redirect URIs that are not absolute http(s) URLs, and a broken file with its own message", async () => {
    for (const redirectUri of ["javascript:alert(1)", "/relative", "http://exa mple.com/cb", ""]) {
      const answer = await studio("POST", "/settings/oauth-clients", { clientId: "x", redirectUri });
      expect(answer.statusCode, redirectUri).toBe(400);
    }
    expect((await studio("POST", "/settings/oauth-clients", { clientId: "", redirectUri: "https://ok.example/cb" })).statusCode).toBe(400);
    const file = path.join(platform.config.dataDir, CLIENTS_FILE);
    const saved = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, "{ not json");
    try {
      const answer = await studio("GET", "/settings/oauth-clients");
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toContain("is not valid JSON");
    } finally {
      fs.writeFileSync(file, saved);
    }
  });
});

describe("fault mode in the Studio", () => {
  it("turns a latency rule on and off, and refuses rules the platform would", async () => {
    const rules = [{ pathPrefix: "/wix-data/", latencyMs: 300 }];
    const set = await studio("PUT", "/settings/faults", { rules });
    expect(set.json().rules).toEqual([{ pathPrefix: "/wix-data/", latencyMs: 300, errorRate: 0, errorStatus: 503, dropRate: 0, garbageRate: 0 }]);
    expect(platform.ctx.faults.ruleFor("/wix-data/v2/items/query")?.latencyMs).toBe(300);
    const started = Date.now();
    await platform.app.inject({ method: "POST", url: "/wix-data/v2/items/query", payload: { dataCollectionId: "Trails" } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    expect((await studio("PUT", "/settings/faults", { rules: [{ pathPrefix: "/_local/", errorRate: 1 }] })).statusCode).toBe(400);
    expect((await studio("PUT", "/settings/faults", { rules: [{ pathPrefix: "/", errorRate: 2 }] })).statusCode).toBe(400);
    expect((await studio("PUT", "/settings/faults", { rules: [] })).json()).toEqual({ rules: [] });
    expect((await studio("GET", "/settings/faults")).json()).toEqual({ rules: [] });
  });
});

describe("backups in the Studio", () => {
  it("takes a backup, lists it, offers its file for download and restores it", async () => {
    const created = await studio("POST", "/settings/backups");
    const { id } = created.json().backup as { id: string };
    type Listed = { backups: { id: string; status: string; collections: { id: string }[] }[]; restorations: { status: string }[] };
    const ready = async () => ((await studio("GET", "/settings/backups")).json() as Listed).backups.find((backup) => backup.id === id);
    await expect.poll(async () => (await ready())?.status).toBe("READY");
    expect((await ready())?.collections.map((collection) => collection.id)).toContain("Trails");

    const download = await studio("GET", `/settings/backups/${id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toBe(`attachment; filename="backup-${id}.sqlite"`);
    expect(download.rawPayload.subarray(0, 15).toString()).toBe("SQLite format 3");

    const restore = await studio("POST", `/settings/backups/${id}/restore`);
    expect(restore.json().restoration.status).toBe("PENDING");
    await expect.poll(async () => ((await studio("GET", "/settings/backups")).json() as Listed).restorations[0].status).toBe("COMPLETED");

    expect((await studio("GET", "/settings/backups/no-such-backup/download")).statusCode).toBe(404);
    expect((await studio("POST", "/settings/backups/no-such-backup/restore")).statusCode).toBe(404);
  });
});
