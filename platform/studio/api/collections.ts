import fs from "node:fs";
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../../context";
import { platformOrigin } from "../../http/origin";
import type { DataAction, StoredCollection } from "../../data/collection";
import { badRequest, recordNotFound } from "../../data/errors";
import { fileUrlsFor } from "../../data/file-urls";
import { ItemService } from "../../data/items";
import { IMPORT_MODES } from "../../data/movement";
import { movementFolder } from "../../data/movement-files";
import { MovementJobs } from "../../data/movement-jobs";
import { assertPermitted } from "../../data/permissions";
import { collectionSchema, createCollection, createField, fieldRequest, wireCollection } from "../../data/routes/collections";
import { parseRequest } from "../../data/routes/common";
import type { Caller } from "../../types";
import type { ItemData } from "../../data/wire";

/**
 * The Collections area (docs/platform/studio.md §4): collections with their fields and
 * permissions, their items, and imports and exports. The Studio acts as the site owner (the
 * admin key's caller), and every write goes through the data service's own item service,
 * collection functions and movement jobs, so permissions, range checks, the publish plugin and
 * the revalidation watcher treat it like any SDK call.
 */

const SITE_OWNER: Caller = { kind: "admin" };
/** What a copy does not take over: its id, dates and owner are its own. */
const NOT_COPIED = new Set(["_id", "_createdDate", "_updatedDate", "_owner"]);
/** Choices offered by a reference picker. */
const MAX_CHOICES = 200;
/** An import is sent as text in a JSON body; bigger files go through the CLI. */
const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

const itemsQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  sort: z.string().max(200).optional(),
  order: z.enum(["ASC", "DESC"]).default("ASC"),
  q: z.string().max(200).optional(),
});
const choicesQuery = z.object({ q: z.string().max(200).optional() });
const itemWrite = z.object({
  data: z.record(z.string(), z.unknown()),
  /** MULTI_REFERENCE links by field: the ids the item refers to, in order. */
  references: z.record(z.string(), z.array(z.string())).default({}),
});
const newCollection = collectionSchema.pick({ id: true, displayName: true, permissions: true });
const importRequest = z.object({
  fileName: z.string().min(1).max(256),
  format: z.enum(["CSV", "JSONL"]),
  mode: z.enum(IMPORT_MODES).default("SKIP_EXISTING"),
  content: z.string().max(MAX_IMPORT_BYTES, `send at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB here; larger files go through the CLI's import`),
});
const exportRequest = z.object({ format: z.enum(["CSV", "JSONL"]) });

type CollectionParams = { Params: { collectionId: string } };
type ItemParams = { Params: { collectionId: string; itemId: string } };
type JobParams = { Params: { jobId: string } };

/** The fields whose values live as links rather than in the item's data. */
const multiReferenceKeys = (collection: StoredCollection) => collection.fields.filter((field) => field.type === "MULTI_REFERENCE").map((field) => field.key);

/** Keys the table may sort by: the declared ones but multi-references, and the system fields. */
function sortable(collection: StoredCollection, key: string): boolean {
  if (["_id", "_createdDate", "_updatedDate", "_owner", "_publishStatus"].includes(key)) return true;
  return collection.fields.some((field) => field.key === key && field.type !== "MULTI_REFERENCE");
}

export function registerCollectionsApi(api: FastifyInstance, ctx: PlatformContext) {
  const store = ctx.data;

  /**
   * What the items these rows reference are called (the referenced collection's display field),
   * by field and id: the items table shows a region's title, not `region-north-ridge`.
   */
  function referenceTitles(collection: StoredCollection, rows: ItemData[]): Record<string, Record<string, string>> {
    const titles: Record<string, Record<string, string>> = {};
    for (const field of collection.fields) {
      const target =
        field.type === "REFERENCE" ? (field.typeMetadata?.reference as { referencedCollectionId?: string } | undefined)?.referencedCollectionId : undefined;
      const referenced = target ? store.findCollection(target) : undefined;
      const label = referenced && wireCollection(referenced).displayField;
      if (!referenced || !label) continue;
      const named: Record<string, string> = {};
      for (const id of new Set(rows.map((row) => row[field.key]))) {
        const title = typeof id === "string" ? store.findItem(referenced.id, id)?.[label] : undefined;
        if (typeof id === "string" && typeof title === "string") named[id] = title;
      }
      titles[field.key] = named;
    }
    return titles;
  }
  const items = new ItemService(store);
  const jobs = new MovementJobs(store, movementFolder(ctx.config.dataDir), fileUrlsFor(ctx.config), api.log);

  /** The collection, once the site owner is known to hold its level for the action (always, but checked where the public routes check). */
  const permitted = (collectionId: string, action: DataAction) => {
    const collection = store.getCollection(collectionId);
    assertPermitted(collection, action, SITE_OWNER);
    return collection;
  };

  /** The ids each multi-reference field of an item links to. */
  const linksOf = (collection: StoredCollection, itemId: string) =>
    Object.fromEntries(
      multiReferenceKeys(collection).map((key) => [
        key,
        store.references.list(collection.id, key, [itemId], { limit: 1000, offset: 0 }).links.map((link) => link.referencedId),
      ]),
    );

  /** The item as written, and its links saved with it: the data routes' write with `saveReferences`. */
  const withLinks = (body: z.infer<typeof itemWrite>) => {
    const data: ItemData = { ...body.data };
    for (const [key, ids] of Object.entries(body.references)) data[key] = ids;
    return { data };
  };

  api.get("/collections", async () => ({
    collections: store
      .listCollections()
      .map((collection) => ({ ...wireCollection(collection), itemCount: store.count(collection.id, { includeDrafts: true }) })),
  }));

  api.post("/collections", async (request) => {
    const body = parseRequest(newCollection, request.body);
    return createCollection(store, { ...body, fields: [] });
  });

  api.get<CollectionParams>("/collections/:collectionId", async (request) => ({
    collection: wireCollection(store.getCollection(request.params.collectionId)),
  }));

  api.post<CollectionParams>("/collections/:collectionId/fields", async (request) => {
    const { field } = parseRequest(fieldRequest.pick({ field: true }), request.body);
    return createField(store, { dataCollectionId: request.params.collectionId, field });
  });

  api.get<CollectionParams>("/collections/:collectionId/items", async (request) => {
    const collection = permitted(request.params.collectionId, "read");
    const query = parseRequest(itemsQuery, request.query);
    if (query.sort && !sortable(collection, query.sort)) throw badRequest(`The items cannot be sorted by [${query.sort}].`, { field: "sort" });
    const page = store.query(collection.id, {
      sort: query.sort ? [{ fieldName: query.sort, order: query.order }] : undefined,
      limit: query.limit,
      offset: query.offset,
      countTotal: true,
      search: query.q?.trim() ? { expression: query.q, mode: "AND" } : undefined,
      includeDrafts: true,
    });
    const rows = page.items.map((item) => item.data);
    return { items: rows, titles: referenceTitles(collection, rows), total: page.total, offset: query.offset, limit: query.limit };
  });

  /** Items of a referenced collection to pick from: id and what its display field says. */
  api.get<CollectionParams>("/collections/:collectionId/choices", async (request) => {
    const collection = permitted(request.params.collectionId, "read");
    const { q } = parseRequest(choicesQuery, request.query);
    const label = wireCollection(collection).displayField ?? "_id";
    const page = store.query(collection.id, {
      sort: [{ fieldName: label, order: "ASC" }],
      limit: MAX_CHOICES,
      offset: 0,
      countTotal: true,
      search: q?.trim() ? { expression: q, mode: "AND" } : undefined,
      includeDrafts: true,
    });
    const choices = page.items.map(({ data }) => ({
      id: data._id as string,
      label: typeof data[label] === "string" ? (data[label] as string) : (data._id as string),
    }));
    return { choices, total: page.total };
  });

  api.get<ItemParams>("/collections/:collectionId/items/:itemId", async (request) => {
    const collection = permitted(request.params.collectionId, "read");
    return { item: items.get(collection, SITE_OWNER, request.params.itemId, true), references: linksOf(collection, request.params.itemId) };
  });

  api.post<CollectionParams>("/collections/:collectionId/items", async (request) => {
    const collection = permitted(request.params.collectionId, "insert");
    const body = parseRequest(itemWrite, request.body);
    const item = store.transaction(() => items.insert(collection, SITE_OWNER, withLinks(body), { saveReferences: true }));
    return { item };
  });

  api.put<ItemParams>("/collections/:collectionId/items/:itemId", async (request) => {
    const collection = permitted(request.params.collectionId, "update");
    const body = parseRequest(itemWrite, request.body);
    const input = { ...withLinks(body), id: request.params.itemId };
    const item = store.transaction(() => items.update(collection, SITE_OWNER, input, { saveReferences: true, includeDrafts: true }));
    return { item };
  });

  /** A copy under a new id, its links too; the system fields are the copy's own. */
  api.post<ItemParams>("/collections/:collectionId/items/:itemId/duplicate", async (request) => {
    const collection = permitted(request.params.collectionId, "insert");
    const original = items.get(collection, SITE_OWNER, request.params.itemId, true);
    const data = Object.fromEntries(Object.entries(original).filter(([key]) => !NOT_COPIED.has(key)));
    const copy = withLinks({ data, references: linksOf(collection, request.params.itemId) });
    return { item: store.transaction(() => items.insert(collection, SITE_OWNER, copy, { saveReferences: true })) };
  });

  api.delete<ItemParams>("/collections/:collectionId/items/:itemId", async (request) => {
    const collection = permitted(request.params.collectionId, "remove");
    store.transaction(() => items.remove(collection, SITE_OWNER, request.params.itemId, { includeDrafts: true }));
    return {};
  });

  /** An import job from a file's text: uploaded to the movement files, then run like the data mover's and the CLI's imports. */
  api.post<CollectionParams>("/collections/:collectionId/import", { bodyLimit: MAX_IMPORT_BYTES * 2 }, async (request) => {
    // An import inserts new rows and, by its mode, replaces existing ones.
    const collection = permitted(request.params.collectionId, "insert");
    assertPermitted(collection, "update", SITE_OWNER);
    const body = parseRequest(importRequest, request.body);
    const upload = jobs.files.createUpload(body.fileName);
    await jobs.files.receiveUpload(upload.id, Readable.from([Buffer.from(body.content)]));
    const job = jobs.submit(
      {
        name: `Studio: import ${body.fileName} into ${collection.id}`,
        source: { file: { fileId: upload.id, format: body.format } },
        destination: { wixDataCollection: { collectionId: collection.id, writePolicy: body.mode } },
      },
      platformOrigin(request, ctx.config),
    );
    return { job };
  });

  api.post<CollectionParams>("/collections/:collectionId/export", async (request) => {
    const collection = permitted(request.params.collectionId, "read");
    const { format } = parseRequest(exportRequest, request.body);
    const job = jobs.submit(
      { name: `Studio: export ${collection.id}`, source: { wixDataCollection: { collectionId: collection.id } }, destination: { file: { format } } },
      platformOrigin(request, ctx.config),
    );
    return { job };
  });

  const existingJob = (jobId: string) => {
    const job = jobs.find(jobId);
    if (!job) throw recordNotFound("Job", jobId);
    return job;
  };

  /** A job's state and its first logs (refused rows with their lines). */
  api.get<JobParams>("/jobs/:jobId", async (request) => {
    const job = existingJob(request.params.jobId);
    return { job, logs: jobs.logs.list(job.id, 100, 0) };
  });

  /** An export's file, through the Studio's own access rather than the file's capability URL, which stays on the server. */
  api.get<JobParams>("/jobs/:jobId/file", async (request, reply) => {
    const { file, path } = jobs.exportedFile(existingJob(request.params.jobId));
    const csv = file.fileName?.toLowerCase().endsWith(".csv");
    const name = (file.fileName ?? file.id).replace(/[^\w.-]/g, "_");
    return reply
      .header("content-type", csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8")
      .header("content-disposition", `attachment; filename="${name}"`)
      .send(fs.createReadStream(path));
  });
}
