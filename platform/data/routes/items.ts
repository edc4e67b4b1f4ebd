import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { PlatformError } from "../../http/errors";
import type { IncludeReference } from "../items";
import type { StoredCollection } from "../store";
import { project, type ItemData } from "../wire";
import { authorise, booleanish, collectionId, includeReferencesSchema, parseRequest, requestPayload, stringList, type DataServices } from "./common";
import { fieldModificationsSchema } from "./patch-schema";

export const dataItemSchema = z.object({ id: z.string().optional(), data: z.unknown().optional() });

const writeRequest = z.object({
  dataCollectionId: collectionId,
  dataItem: dataItemSchema,
  saveReferences: booleanish.optional(),
  includeReferencedItems: booleanish.optional(),
});

const getRequest = z.object({
  dataCollectionId: collectionId,
  dataItemId: z.string().min(1).optional(),
  fields: stringList.optional(),
  includeReferences: includeReferencesSchema,
});

const removeRequest = z.object({ dataCollectionId: collectionId, dataItemId: z.string().min(1, "dataItemId is required") });

const patchRequest = z.object({
  dataCollectionId: collectionId,
  patch: z.object({ dataItemId: z.string().min(1, "dataItemId is required"), fieldModifications: fieldModificationsSchema }),
});

export function wireItem(collection: StoredCollection, data: ItemData) {
  return { id: data._id as string, dataCollectionId: collection.id, data };
}

/** `/wix-data/v2/items…`: get, insert, update, save, remove, truncate and patch, in the SDK's and the REST reference's forms. */
export function registerItemRoutes(app: FastifyInstance, services: DataServices) {
  const { items } = services;

  /** The written item, with its references included when `includeReferencedItems` asked for them. */
  const written = (collection: StoredCollection, request: FastifyRequest, data: ItemData, include?: boolean) => {
    const caller = services.ctx.callerOf(request);
    const [item] = include ? items.includeReferences(collection, caller, [structuredClone(data)], items.allReferenceFields(collection)) : [data];
    return wireItem(collection, item);
  };

  app.get<{ Params: { id: string } }>("/wix-data/v2/items/:id", async (request) => {
    const body = parseRequest(getRequest, requestPayload(request));
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    // The SDK repeats the id in the query; the path copy is not URL-encoded by it.
    const id = body.dataItemId ?? request.params.id;
    const include: IncludeReference[] = body.includeReferences ?? [];
    const [item] = items.includeReferences(collection, caller, [items.get(collection, caller, id)], include);
    return { dataItem: wireItem(collection, body.fields && body.fields.length > 0 ? project(item, body.fields) : item) };
  });

  app.post("/wix-data/v2/items", async (request) => {
    const body = parseRequest(writeRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "insert");
    const item = services.store.transaction(() => items.insert(collection, caller, body.dataItem, body.saveReferences));
    return { dataItem: written(collection, request, item, body.includeReferencedItems) };
  });

  const update = async (request: FastifyRequest<{ Params: { id?: string } }>) => {
    const body = parseRequest(writeRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    const input = { ...body.dataItem, id: body.dataItem.id ?? request.params.id };
    const item = services.store.transaction(() => items.update(collection, caller, input, body.saveReferences));
    return { dataItem: written(collection, request, item, body.includeReferencedItems) };
  };
  app.post("/wix-data/v2/items/update", update);
  app.put("/wix-data/v2/items/:id", update);

  app.post("/wix-data/v2/items/save", async (request) => {
    const body = parseRequest(writeRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, null);
    const { action, item } = services.store.transaction(() => items.save(collection, caller, body.dataItem, body.saveReferences));
    return { action, dataItem: written(collection, request, item, body.includeReferencedItems) };
  });

  const remove = async (request: FastifyRequest<{ Params: { id?: string } }>) => {
    const payload = requestPayload(request) as Record<string, unknown> | undefined;
    const body = parseRequest(removeRequest, { ...payload, dataItemId: payload?.dataItemId ?? request.params.id });
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "remove");
    return { dataItem: wireItem(collection, services.store.transaction(() => items.remove(collection, caller, body.dataItemId))) };
  };
  app.post("/wix-data/v2/items/remove", remove);
  app.delete("/wix-data/v2/items/:id", remove);

  app.post("/wix-data/v2/items/truncate", async (request) => {
    const body = parseRequest(z.object({ dataCollectionId: collectionId }), request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, null);
    // Truncate needs the site owner's identity whatever the collection's permissions.
    if (caller.kind !== "admin") {
      throw new PlatformError(403, "WDE0027", `WDE0027: The current user does not have permissions to truncate on the ${collection.id} collection.`, { collectionId: collection.id, action: "truncate" });
    }
    services.store.transaction(() => services.store.truncate(collection.id));
    return {};
  });

  const patch = async (request: FastifyRequest<{ Params: { id?: string } }>) => {
    const raw = request.body as { patch?: { dataItemId?: string } } | undefined;
    const body = parseRequest(patchRequest, raw && request.params.id ? { ...raw, patch: { dataItemId: request.params.id, ...raw.patch } } : raw);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    const item = services.store.transaction(() => items.patch(collection, caller, body.patch.dataItemId, body.patch.fieldModifications));
    return { dataItem: wireItem(collection, item) };
  };
  app.post("/wix-data/v2/items/patch", patch);
  app.patch("/wix-data/v2/items/:id", patch);
}
