import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Backup, BackupStore, Restoration } from "../backups";
import { recordNotFound, badRequest } from "../errors";
import { assertAdmin, offsetPage, pagingSchema, parseRequest, requestPayload, type DataServices } from "./common";

const statusList = <T extends string>(values: readonly [T, ...T[]]) =>
  z.union([z.array(z.enum(values)), z.enum(values).transform((value) => [value])]).optional();

const listBackupsRequest = z.object({
  status: statusList(["PENDING", "READY", "FAILED", "DELETED", "CANCELED"]),
  type: statusList(["ON_DEMAND", "AUTO"]),
  paging: pagingSchema,
});
const listRestorationsRequest = z.object({ status: statusList(["PENDING", "COMPLETED", "FAILED"]), paging: pagingSchema });
const partialRestoreRequest = z.object({
  restorationCollections: z
    .array(
      z.object({
        dataCollectionId: z.string().min(1),
        restoreDestination: z.object({ dataCollectionId: z.string().min(1).optional(), displayName: z.string().nullish() }).optional(),
      }),
    )
    .min(1, "restorationCollections must not be empty"),
});

/** The REST shapes (`id`; the SDK renames it to `_id`). */
export function wireBackup(backup: Backup) {
  return { ...backup, collections: backup.collections.map(({ id, displayName }) => ({ id, displayName })) };
}
export function wireRestoration(restoration: Restoration) {
  return { ...restoration, backup: wireBackup(restoration.backup) };
}

/** `/wix-data/v2/backups`: create, list, delete, restore (whole or partial) and list restorations; admin only. */
/** A backup that can be restored (or downloaded): it exists and is READY. */
export function readyBackup(backups: BackupStore, id: string): Backup {
  const backup = backups.findBackup(id);
  if (!backup) throw recordNotFound("Backup", id);
  if (backup.status !== "READY") throw badRequest(`Backup [${id}] is ${backup.status}; only a READY backup can be restored.`, { backupId: id });
  return backup;
}

export function registerBackupRoutes(app: FastifyInstance, services: DataServices, backups: BackupStore) {
  const restorable = (id: string) => readyBackup(backups, id);

  app.post("/wix-data/v2/backups", async (request) => {
    assertAdmin(services, request, "create backups");
    return { backup: wireBackup(backups.createBackup()) };
  });

  app.get("/wix-data/v2/backups", async (request) => {
    assertAdmin(services, request, "list backups");
    const body = parseRequest(listBackupsRequest, requestPayload(request));
    const chosen = backups
      .listBackups()
      .filter((backup) => (!body.status || body.status.includes(backup.status)) && (!body.type || body.type.includes(backup.type)));
    const { items, pagingMetadata } = offsetPage(chosen, body.paging);
    return { backups: items.map(wireBackup), pagingMetadata };
  });

  app.delete<{ Params: { backupId: string } }>("/wix-data/v2/backups/:backupId", async (request) => {
    assertAdmin(services, request, "delete backups");
    const backup = backups.findBackup(request.params.backupId);
    if (!backup || backup.status === "DELETED") throw recordNotFound("Backup", request.params.backupId);
    if (backup.status === "PENDING") throw badRequest(`Backup [${backup.id}] is still being taken.`, { backupId: backup.id });
    backups.deleteBackup(backup);
    return {};
  });

  app.post<{ Params: { backupId: string } }>("/wix-data/v2/backups/:backupId/restore", async (request) => {
    assertAdmin(services, request, "restore backups");
    return { restoration: wireRestoration(backups.restore(restorable(request.params.backupId), undefined)) };
  });

  app.post<{ Params: { backupId: string } }>("/wix-data/v2/backups/:backupId/partial-restore", async (request) => {
    assertAdmin(services, request, "restore backups");
    const backup = restorable(request.params.backupId);
    const { restorationCollections } = parseRequest(partialRestoreRequest, request.body);
    const missing = restorationCollections.filter((choice) => !backup.collections.some((collection) => collection.id === choice.dataCollectionId));
    if (missing.length > 0) throw badRequest(`Backup [${backup.id}] has no collection ${missing.map((choice) => `[${choice.dataCollectionId}]`).join(", ")}.`);
    return { restoration: wireRestoration(backups.restore(backup, restorationCollections)) };
  });

  app.get("/wix-data/v2/backups/restorations", async (request) => {
    assertAdmin(services, request, "list restorations");
    const body = parseRequest(listRestorationsRequest, requestPayload(request));
    const { items, pagingMetadata } = offsetPage(
      backups.listRestorations().filter((restoration) => !body.status || body.status.includes(restoration.status)),
      body.paging,
    );
    return { restorations: items.map(wireRestoration), pagingMetadata };
  });
}
