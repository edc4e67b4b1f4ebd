import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../../context";
import { handleError, type PlatformError, transportClientError } from "../../http/errors";
import { BackupStore, backupFolder } from "../backups";
import { badRequest } from "../errors";
import { ItemService } from "../items";
import { registerAggregateRoutes } from "./aggregate";
import { registerAsyncJobRoutes } from "./async-jobs";
import { registerBackupRoutes } from "./backups";
import { registerTaskRoutes } from "./tasks";
import { TaskService } from "../tasks";
import { fileUrlsFor } from "../file-urls";
import { movementFolder } from "../movement-files";
import { MovementJobs } from "../movement-jobs";
import { PublishScheduler } from "../publish-scheduler";
import { registerMovementJobRoutes } from "./movement-jobs";
import { ScheduledWorkflows } from "../scheduled-workflows";
import { registerScheduledWorkflowRoutes } from "./scheduled-workflows";
import { registerBulkRoutes } from "./bulk";
import { registerCollectionRoutes } from "./collections";
import { registerIndexRoutes } from "./indexes";
import { registerDraftItemRoutes } from "./draft-items";
import { registerItemRoutes } from "./items";
import { registerPermissionRoutes } from "./permissions";
import { registerQueryRoutes } from "./query";
import { registerReferenceRoutes } from "./references";

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./query";

/** Requests the HTTP layer refuses before a data route runs (bad JSON, oversized bodies) still answer with a WDE code. */
function handleDataError(error: FastifyError | PlatformError, request: FastifyRequest, reply: FastifyReply) {
  const clientError = transportClientError(error);
  // 413 already carries WDE0109, the code the client reports for it.
  const refused = clientError && clientError.status !== 413 ? badRequest(clientError.message) : error;
  return handleError(refused, request, reply);
}

/**
 * The data service: items, bulk, references, aggregations and collections under `/wix-data/v2`,
 * permissions under `/wix-data/v1/permissions`,
 * tasks under `/cms/v1/tasks` and data-movement jobs under `/data-mover/v1` (docs/platform/data.md).
 */
export function registerDataRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const services = { ctx, store: ctx.data, items: new ItemService(ctx.data) };
  // Scheduled publish status changes: a timer for the next one, and a check before each data request.
  const scheduler = new PublishScheduler(ctx.data, app.log);
  scheduler.arm();
  app.addHook("onClose", async () => scheduler.stop());
  app.register(async (scope) => {
    scope.setErrorHandler(handleDataError);
    scope.addHook("onRequest", async () => scheduler.applyIfDue());
    registerQueryRoutes(scope, services);
    registerItemRoutes(scope, services);
    registerBulkRoutes(scope, services);
    registerReferenceRoutes(scope, services);
    registerAggregateRoutes(scope, services);
    registerCollectionRoutes(scope, services);
    registerDraftItemRoutes(scope, services);
    registerAsyncJobRoutes(scope, services);
    registerIndexRoutes(scope, services);
    registerPermissionRoutes(scope, services);
    // The server owns the background work, so it alone fails what a stop left unfinished (not the CLI).
    const backups = new BackupStore(ctx.data, backupFolder(ctx.config.dataDir));
    backups.failUnfinished();
    registerBackupRoutes(scope, services, backups);
    const tasks = new TaskService(ctx.data, services.items, scheduler, app.log);
    tasks.failUnfinished();
    registerTaskRoutes(scope, services, tasks);
    const urls = fileUrlsFor(ctx.config);
    const jobs = new MovementJobs(ctx.data, movementFolder(ctx.config.dataDir), urls, app.log);
    jobs.failUnfinished();
    registerMovementJobRoutes(scope, services, jobs, urls);
    const workflows = new ScheduledWorkflows(ctx.data, jobs, ctx.config.siteProperties.timeZone, app.log);
    workflows.arm();
    app.addHook("onClose", async () => workflows.stop());
    registerScheduledWorkflowRoutes(scope, services, workflows);
  });
}
