import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { badRequest, indexExists, indexNotFound, permissionDenied } from "../errors";
import { INDEX_LIMITS, wireIndex, type StoredIndex } from "../indexes";
import type { IndexSpec } from "../item-indexes";
import { collectionId, fieldPath, offsetPage, pagingSchema, parseRequest, requestPayload, type DataServices } from "./common";

const createRequest = z.object({
  dataCollectionId: collectionId,
  index: z.object({
    name: z.string().min(1).max(128),
    fields: z
      .array(z.object({ path: fieldPath, order: z.enum(["ASC", "DESC"]).default("ASC") }))
      .min(1)
      .max(3),
    unique: z.boolean().default(false),
    caseInsensitive: z.boolean().default(false),
  }),
});
const dropRequest = z.object({ dataCollectionId: collectionId, indexName: z.string().min(1) });
const listRequest = z.object({ dataCollectionId: collectionId, paging: pagingSchema });

/** What is left of the collection's index limits once the indexes in use are counted. */
function available(inUse: StoredIndex[]) {
  const unique = inUse.filter((index) => index.unique).length;
  return {
    regular: INDEX_LIMITS.regular - (inUse.length - unique),
    unique: INDEX_LIMITS.unique - unique,
    total: INDEX_LIMITS.total - inUse.length,
  };
}

const sameFields = (a: IndexSpec, b: IndexSpec) => JSON.stringify(a.fields) === JSON.stringify(b.fields) && a.unique === b.unique;

/** `/wix-data/v2/indexes`: create, drop, list and list available. Index management needs the admin key. */
export function registerIndexRoutes(app: FastifyInstance, services: DataServices) {
  const { store } = services;

  const collectionFor = (request: FastifyRequest, id: string, action: string) => {
    if (services.ctx.callerOf(request).kind !== "admin") throw permissionDenied(id, action);
    return store.getCollection(id);
  };

  app.post("/wix-data/v2/indexes", async (request) => {
    const { dataCollectionId, index: spec } = parseRequest(createRequest, request.body);
    const collection = collectionFor(request, dataCollectionId, "create indexes");
    if (spec.unique && spec.fields.length !== 1) throw badRequest("A unique index has exactly one field.");
    const inUse = store.indexes.inUse(collection.id);
    if (inUse.some((index) => index.name === spec.name || sameFields(index, spec))) throw indexExists(collection.id, spec.name);
    const left = available(inUse);
    if (left.total <= 0 || (spec.unique ? left.unique : left.regular) <= 0) {
      throw badRequest(`Collection [${collection.id}] has no ${spec.unique ? "unique" : "regular"} index left (limits: ${JSON.stringify(INDEX_LIMITS)}).`);
    }
    return { index: wireIndex(store.indexes.create(collection.id, spec)) };
  });

  app.delete("/wix-data/v2/indexes", async (request) => {
    const { dataCollectionId, indexName } = parseRequest(dropRequest, requestPayload(request));
    const collection = collectionFor(request, dataCollectionId, "drop indexes");
    const index = store.indexes.find(collection.id, indexName);
    if (!index || index.status === "DROPPING") throw indexNotFound(collection.id, indexName);
    store.indexes.drop(index);
    return {};
  });

  app.get("/wix-data/v2/indexes", async (request) => {
    const { dataCollectionId, paging } = parseRequest(listRequest, requestPayload(request));
    const collection = collectionFor(request, dataCollectionId, "list indexes");
    const { items, pagingMetadata } = offsetPage(store.indexes.list(collection.id), paging);
    return { indexes: items.map(wireIndex), pagingMetadata };
  });

  app.get("/wix-data/v2/indexes/available", async (request) => {
    const { dataCollectionId } = parseRequest(z.object({ dataCollectionId: collectionId }), requestPayload(request));
    const left = available(store.indexes.inUse(collectionFor(request, dataCollectionId, "list indexes").id));
    // Single-field regular indexes share the regular quota, so they have no separate one.
    return { regular1Field: 0, regular3Field: Math.max(0, left.regular), unique1Field: Math.max(0, left.unique), total: Math.max(0, left.total) };
  });
}
