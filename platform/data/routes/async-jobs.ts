import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { z } from "zod";
import { PlatformError } from "../../http/errors";
import { runInBatches } from "../batches";
import { recordNotFound } from "../errors";
import { rowScope } from "../permissions";
import type { ItemSelection } from "../store";
import { authorise, collectionId, draftsIncluded, filterSchema, parseRequest, publishPluginOptionsSchema, requestPayload, type DataServices } from "./common";
import { fieldModificationsSchema } from "./patch-schema";

const removeRequest = z.object({ dataCollectionId: collectionId, filter: filterSchema.optional(), publishPluginOptions: publishPluginOptionsSchema });
const patchRequest = removeRequest.extend({
  fieldModifications: fieldModificationsSchema.refine((list) => list.length > 0, "fieldModifications must not be empty"),
});
const statusRequest = z.object({ jobId: z.string().min(1, "jobId is required") });

/** Runs a by-filter job in batches, keeping its status and success count; refused items are not counted. */
function runJob(services: DataServices, log: FastifyBaseLogger, jobId: string, collectionIdValue: string, query: ItemSelection, apply: (id: string) => void) {
  const { store } = services;
  runInBatches(store, collectionIdValue, query, apply, {
    report: (tally, done) => store.updateAsyncJob(jobId, done ? "SUCCEEDED" : "PROCESSING", tally.succeeded),
    crash: (error, tally) => {
      if (!(error instanceof PlatformError)) log.error({ err: error, jobId }, "async data job failed");
      store.updateAsyncJob(jobId, "FAILED", tally.succeeded);
    },
  });
}

/** `/wix-data/v2/bulk/items/async-{remove,patch}-by-filter` and `/wix-data/v2/async-jobs/{jobId}/status`. */
export function registerAsyncJobRoutes(app: FastifyInstance, services: DataServices) {
  const { store, items } = services;

  /** Checks the filter now (a bad one is a 400, not a failed job) and starts the job. */
  const start = (log: FastifyBaseLogger, collectionIdValue: string, query: ItemSelection, apply: (id: string) => void) => {
    store.matchingIds(collectionIdValue, query, null, 0);
    const jobId = store.createAsyncJob(collectionIdValue);
    runJob(services, log, jobId, collectionIdValue, query, apply);
    return { jobId };
  };

  app.post("/wix-data/v2/bulk/items/async-remove-by-filter", async (request) => {
    const body = parseRequest(removeRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "remove");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const query = { filter: body.filter, visibility: rowScope(collection, caller, "remove"), includeDrafts };
    return start(request.log, collection.id, query, (id) => items.remove(collection, caller, id, { denial: "hide", includeDrafts }));
  });

  app.post("/wix-data/v2/bulk/items/async-patch-by-filter", async (request) => {
    const body = parseRequest(patchRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const query = { filter: body.filter, visibility: rowScope(collection, caller, "update"), includeDrafts };
    return start(request.log, collection.id, query, (id) => items.patch(collection, caller, id, body.fieldModifications, { denial: "hide", includeDrafts }));
  });

  app.get<{ Params: { jobId: string } }>("/wix-data/v2/async-jobs/:jobId/status", async (request) => {
    const payload = requestPayload(request) as Record<string, unknown>;
    const { jobId } = parseRequest(statusRequest, { jobId: request.params.jobId, ...payload });
    const job = store.findAsyncJob(jobId);
    if (!job) throw recordNotFound("Async job", jobId);
    return job;
  });
}
