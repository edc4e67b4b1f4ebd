import fs from "node:fs";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { permissionDenied } from "../../http/errors";
import { platformOrigin } from "../../http/origin";
import { pagingMetadata, resolvePage } from "../cursor";
import { recordNotFound } from "../errors";
import { FILES_PATH, type FilePurpose, type FileUrls } from "../file-urls";
import type { JobRequest, MovementJobs } from "../movement-jobs";
import { IMPORT_MODES } from "../movement";
import {
  assertAdmin,
  collectionId,
  fieldPath,
  filterSchema,
  parseRequest,
  renamedItemFilterSchema,
  requestPayload,
  sortSchema,
  type DataServices,
} from "./common";

const fileFormat = z.enum(["CSV", "JSONL"]);

export const submitRequest = z.object({
  name: z.string().max(1024).optional(),
  source: z
    .object({
      file: z.object({ fileId: z.string().min(1, "source.file.fileId is required"), format: z.enum(["UNKNOWN", "CSV", "JSONL"]).optional() }).optional(),
      wixDataCollection: z
        .object({
          collectionId,
          filterQuery: z.object({ filter: renamedItemFilterSchema, fields: z.array(fieldPath).optional() }).optional(),
          filter: renamedItemFilterSchema,
          fields: z.array(fieldPath).optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
  destination: z
    .object({
      wixDataCollection: z.object({ collectionId, writePolicy: z.enum(IMPORT_MODES).optional() }).optional(),
      file: z.object({ format: fileFormat, fileName: z.string().min(1).max(512).nullish() }).optional(),
    })
    .strict(),
  sourceSiteId: z.undefined({ error: "only the local site's data can be moved" }).optional(),
  destinationSiteId: z.undefined({ error: "only the local site's data can be moved" }).optional(),
});
const uploadUrlRequest = z.object({ fileName: z.string().max(512).nullish() });
/** A checked job request as the jobs take it: an `UNKNOWN` file format is left for the file's name or content to tell. */
export function jobRequestOf(body: z.infer<typeof submitRequest>): JobRequest {
  const format = body.source.file?.format === "UNKNOWN" ? undefined : body.source.file?.format;
  const source = { ...body.source, ...(body.source.file && { file: { ...body.source.file, format } }) };
  return { source, destination: body.destination, name: body.name };
}

/** List calls page with `paging: {limit, cursor}` (at most 100 per page). */
const cursorPaging = z.object({ limit: z.coerce.number().int().min(0).optional(), cursor: z.string().optional() }).optional();
const listRequest = z.object({ paging: cursorPaging });
const queryRequest = z.object({ query: z.object({ filter: filterSchema.nullish(), sort: sortSchema.optional(), cursorPaging }).default({}) });
const queryState = z.object({ filter: filterSchema.nullish(), sort: sortSchema.optional() });
const noState = z.object({});

/** Listing pages hold 50 jobs or logs unless asked otherwise. */
const DEFAULT_LIST_SIZE = 50;
/** What a listing's cursors are bound to (the paging helpers name it a collection). */
const JOBS_LISTING = "data-movement-jobs";

/**
 * `/data-mover/v1/...` (the `@wix/data` `movementJobs` module's path on the API host): submit,
 * upload URLs, get, list, query, logs and terminate; and the platform's own file endpoint that
 * upload URLs and download URLs point at. Admin key only, but for the file endpoint: its URLs are
 * capabilities that need no other credential (docs/platform/data.md §17).
 */
export function registerMovementJobRoutes(app: FastifyInstance, services: DataServices, jobs: MovementJobs, urls: FileUrls) {
  /** The URL's own token, for this file and this use; the admin key alone opens nothing here. */
  const assertCapability = (request: FastifyRequest<{ Params: { fileId: string } }>, purpose: FilePurpose) => {
    if (!urls.allows(request.params.fileId, purpose, (request.query as Record<string, unknown> | undefined)?.token)) {
      throw permissionDenied(`This URL does not allow a file ${purpose}: it has expired, is for another file or use, or was changed.`);
    }
  };

  const existing = (id: string) => {
    const job = jobs.find(id);
    if (!job) throw recordNotFound("Job", id);
    return job;
  };

  app.post("/data-mover/v1/temporary-files/upload-url", async (request) => {
    assertAdmin(services, request, "upload files for data movement");
    const { fileName } = parseRequest(uploadUrlRequest, request.body);
    const file = jobs.files.createUpload(fileName);
    return { fileId: file.id, uploadUrl: urls.url(platformOrigin(request, services.ctx.config), file.id, "upload") };
  });

  app.post("/data-mover/v1/jobs", async (request) => {
    assertAdmin(services, request, "submit data movement jobs");
    return { job: jobs.submit(jobRequestOf(parseRequest(submitRequest, request.body)), platformOrigin(request, services.ctx.config)) };
  });

  app.get<{ Params: { jobId: string } }>("/data-mover/v1/jobs/:jobId", async (request) => {
    assertAdmin(services, request, "read data movement jobs");
    return { job: existing(request.params.jobId) };
  });

  const list = async (request: FastifyRequest) => {
    assertAdmin(services, request, "list data movement jobs");
    const { paging } = parseRequest(listRequest, requestPayload(request));
    const page = resolvePage({ cursorPaging: paging ?? {} }, JOBS_LISTING, {}, { defaultLimit: DEFAULT_LIST_SIZE, maxLimit: 100, stateSchema: noState });
    const found = jobs.list().slice(page.offset, page.offset + page.limit + 1);
    const listed = found.slice(0, page.limit);
    return { jobs: listed, pagingMetadata: pagingMetadata(page, JOBS_LISTING, listed.length, found.length > page.limit) };
  };
  app.get("/data-mover/v1/jobs", list);
  app.post("/data-mover/v1/jobs/list", list);

  const query = async (request: FastifyRequest) => {
    assertAdmin(services, request, "query data movement jobs");
    const { query: spec } = parseRequest(queryRequest, requestPayload(request));
    const page = resolvePage(
      { cursorPaging: spec.cursorPaging ?? {} },
      JOBS_LISTING,
      { filter: spec.filter, sort: spec.sort },
      { defaultLimit: DEFAULT_LIST_SIZE, maxLimit: 100, stateSchema: queryState },
    );
    const found = jobs.query(page.state.filter ?? {}, page.state.sort, page.limit + 1, page.offset);
    const listed = found.slice(0, page.limit);
    return { jobs: listed, pagingMetadata: pagingMetadata(page, JOBS_LISTING, listed.length, found.length > page.limit) };
  };
  app.get("/data-mover/v1/jobs/query", query);
  app.post("/data-mover/v1/jobs/query", query);

  app.get<{ Params: { jobId: string } }>("/data-mover/v1/jobs/:jobId/logs", async (request) => {
    assertAdmin(services, request, "read data movement logs");
    const job = existing(request.params.jobId);
    const { paging } = parseRequest(listRequest, requestPayload(request));
    const page = resolvePage({ cursorPaging: paging ?? {} }, job.id, {}, { defaultLimit: DEFAULT_LIST_SIZE, maxLimit: 100, stateSchema: noState });
    const found = jobs.logs.list(job.id, page.limit + 1, page.offset);
    const logs = found.slice(0, page.limit);
    return { logs, pagingMetadata: pagingMetadata(page, job.id, logs.length, found.length > page.limit) };
  });

  app.post<{ Params: { jobId: string } }>("/data-mover/v1/jobs/:jobId/terminate", async (request) => {
    assertAdmin(services, request, "terminate data movement jobs");
    return { job: jobs.terminate(existing(request.params.jobId)) };
  });

  app.get<{ Params: { fileId: string } }>(`${FILES_PATH}/:fileId`, async (request, reply) => {
    assertCapability(request, "download");
    const { file, path } = jobs.files.download(request.params.fileId);
    const type = file.fileName?.toLowerCase().endsWith(".csv") ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8";
    const name = (file.fileName ?? file.id).replace(/[^\w.-]/g, "_");
    return reply.header("content-type", type).header("content-disposition", `attachment; filename="${name}"`).send(fs.createReadStream(path));
  });

  // Uploads are raw file bodies of any type, streamed to disk: this scope reads no body itself.
  app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser("*", (_request, _payload, done) => done(null));
    uploads.put<{ Params: { fileId: string } }>(`${FILES_PATH}/:fileId`, async (request) => {
      assertCapability(request, "upload");
      const file = await jobs.files.receiveUpload(request.params.fileId, request.raw);
      return { fileId: file.id, sizeInBytes: file.sizeInBytes };
    });
  });
}
