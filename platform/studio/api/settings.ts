import fs from "node:fs";
import { ConfigError } from "@ridgeline/platform-contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../../context";
import { backupFolder, BackupStore } from "../../data/backups";
import { recordNotFound } from "../../data/errors";
import { readyBackup, wireBackup, wireRestoration } from "../../data/routes/backups";
import { invalidArgument } from "../../http/errors";
import { parseFaults } from "../../http/faults";
import { CLIENTS_FILE, clientIdSchema, redirectUriSchema } from "../../oauth/clients";

const NEW_REDIRECT_URI = z.object({ clientId: clientIdSchema, redirectUri: redirectUriSchema });

/** A hand-edited `oauth-clients.json` that no longer parses is the owner's to fix: a clear refusal, not a 500. */
function clientsFileChecked<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) throw invalidArgument(error.message);
    throw error;
  }
}

/**
 * The Studio's settings (docs/platform/studio.md §7): OAuth clients (the registry the
 * authorization routes ask), the webhook signing key's public half, fault mode (the store `/_local/faults` changes) and the data
 * service's backups (the store behind `/wix-data/v2/backups` and the CLI's `backup`).
 */
export function registerSettingsApi(api: FastifyInstance, ctx: PlatformContext) {
  const backups = new BackupStore(ctx.data, backupFolder(ctx.config.dataDir));

  api.get("/settings/oauth-clients", async () => ({
    clients: clientsFileChecked(() => ctx.clients.describe()),
    environment: Boolean(ctx.config.oauthClientsJson),
    file: CLIENTS_FILE,
  }));

  api.post("/settings/oauth-clients", async (request) => {
    const body = NEW_REDIRECT_URI.safeParse(request.body);
    if (!body.success) throw invalidArgument(`${body.error.issues[0].path.join(".") || "body"}: ${body.error.issues[0].message}.`);
    request.log.info({ clientId: body.data.clientId, redirectUri: body.data.redirectUri }, "redirect URI added in the Studio");
    const client = clientsFileChecked(() => ctx.clients.addRedirectUri(body.data.clientId, body.data.redirectUri));
    return { client };
  });

  // Public, as a key an app is given is; made on first look when no app asked for webhooks yet.
  api.get("/settings/webhooks", async () => ({
    publicKey: ctx.webhookKeys.publicKeyBase64(),
    publicKeyPem: ctx.webhookKeys.publicKeyPem(),
    apps: ctx.clients.webhookApps().map(({ id, webhookUrl }) => ({ id, webhookUrl })),
  }));

  api.get("/settings/faults", async () => ({ rules: ctx.faults.list() }));

  api.put("/settings/faults", async (request) => {
    const rules = parseFaults(request.body);
    request.log.warn({ rules }, "fault mode changed in the Studio");
    return { rules: ctx.faults.replace(rules) };
  });

  api.get("/settings/backups", async () => ({
    backups: backups.listBackups().map(wireBackup),
    restorations: backups.listRestorations().map(wireRestoration),
  }));

  api.post("/settings/backups", async () => ({ backup: wireBackup(backups.createBackup()) }));

  api.post<{ Params: { id: string } }>("/settings/backups/:id/restore", async (request) => ({
    restoration: wireRestoration(backups.restore(readyBackup(backups, request.params.id), undefined)),
  }));

  // The backup's SQLite file as it is: open it with any SQLite tool, or keep it.
  api.get<{ Params: { id: string } }>("/settings/backups/:id/download", async (request, reply) => {
    const backup = readyBackup(backups, request.params.id);
    const file = backups.fileOf(backup.id);
    if (!fs.existsSync(file)) throw recordNotFound("File", backup.id);
    return reply
      .header("content-type", "application/vnd.sqlite3")
      .header("content-disposition", `attachment; filename="backup-${backup.id}.sqlite"`)
      .header("cache-control", "no-store")
      .send(fs.createReadStream(file));
  });
}
