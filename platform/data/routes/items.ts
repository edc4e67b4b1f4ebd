import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { permissionDenied } from "../errors";
import type { IncludeReference } from "../items";
import type { StoredCollection } from "../collection";
import { project, type ItemData } from "../wire";
import {
  authorise,
  booleanish,
  collectionId,
  conditionSchema,
  draftsIncluded,
  itemId,
  includeReferencesSchema,
  parseRequest,
  publishPluginOptionsSchema,
  requestPayload,
  fieldList,
  type DataServices,
} from "./common";
import { fieldModificationsSchema } from "./patch-schema";

export const dataItemSchema = z.object({ id: itemId.optional(), data: z.unknown().optional() });

const writeRequest = z.object({
  dataCollectionId: collectionId,
  dataItem: dataItemSchema,
  saveReferences: booleanish.optional(),
  includeReferencedItems: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
  // Update's only; save and insert send none.
  condition: conditionSchema,
});

const getRequest = z.object({
  dataCollectionId: collectionId,
  dataItemId: z.string().min(1).optional(),
  fields: fieldList.optional(),
  includeReferences: includeReferencesSchema,
  publishPluginOptions: publishPluginOptionsSchema,
});

const removeRequest = z.object({
  dataCollectionId: collectionId,
  dataItemId: z.string().min(1, "dataItemId is required"),
  publishPluginOptions: publishPluginOptionsSchema,
  condition: conditionSchema,
});

const patchRequest = z.object({
  dataCollectionId: collectionId,
  patch: z.object({ dataItemId: z.string().min(1, "dataItemId is required"), fieldModifications: fieldModificationsSchema }),
  publishPluginOptions: publishPluginOptionsSchema,
  condition: conditionSchema,
});

export function wireItem(collection: StoredCollection, data: ItemData) {
  return { id: data._id as string, dataCollectionId: collection.id, data };
}

/** `/wix-data/v2/items…`: get, insert, update, save, remove, truncate and patch, in the SDK's and the REST reference's forms. */
export function registerItemRoutes(app: FastifyInstance, services: DataServices) {
  const { items } = services;

  /** The written item, with its references included when `includeReferencedItems` asked for them. */
  const written = (collection: StoredCollection, request: FastifyRequest, data: ItemData, include?: boolean, includeDrafts?: boolean) => {
    const caller = services.ctx.callerOf(request);
    const [item] = include ? items.includeReferences(collection, caller, [structuredClone(data)], items.allReferenceFields(collection), includeDrafts) : [data];
    return wireItem(collection, item);
  };

  app.get<{ Params: { id: string } }>("/wix-data/v2/items/:id", async (request) => {
    const body = parseRequest(getRequest, requestPayload(request));
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    // The SDK repeats the id in the query; the path copy is not URL-encoded by it.
    const id = body.dataItemId ?? request.params.id;
    const include: IncludeReference[] = body.includeReferences ?? [];
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const [item] = items.includeReferences(collection, caller, [items.get(collection, caller, id, includeDrafts)], include, includeDrafts);
    return { dataItem: wireItem(collection, body.fields && body.fields.length > 0 ? project(item, body.fields) : item) };
  });

  app.post("/wix-data/v2/items", async (request) => {
    const body = parseRequest(writeRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "insert");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const item = services.store.transaction(() => items.insert(collection, caller, body.dataItem, { saveReferences: body.saveReferences }));
    return { dataItem: written(collection, request, item, body.includeReferencedItems, includeDrafts) };
  });

  const update = async (request: FastifyRequest<{ Params: { id?: string } }>) => {
    const body = parseRequest(writeRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    const input = { ...body.dataItem, id: body.dataItem.id ?? request.params.id };
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const item = services.store.transaction(() =>
      items.update(collection, caller, input, { saveReferences: body.saveReferences, includeDrafts, condition: body.condition?.filter }),
    );
    return { dataItem: written(collection, request, item, body.includeReferencedItems, includeDrafts) };
  };
  app.post("/wix-data/v2/items/update", update);
  app.put("/wix-data/v2/items/:id", update);

  app.post("/wix-data/v2/items/save", async (request) => {
    const body = parseRequest(writeRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, null);
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const { action, item } = services.store.transaction(() =>
      items.save(collection, caller, body.dataItem, { saveReferences: body.saveReferences, includeDrafts }),
    );
    return { action, dataItem: written(collection, request, item, body.includeReferencedItems, includeDrafts) };
  });

  const remove = async (request: FastifyRequest<{ Params: { id?: string } }>) => {
    const payload = requestPayload(request) as Record<string, unknown> | undefined;
    const body = parseRequest(removeRequest, { ...payload, dataItemId: payload?.dataItemId ?? request.params.id });
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "remove");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    return {
      dataItem: wireItem(
        collection,
        services.store.transaction(() => items.remove(collection, caller, body.dataItemId, { includeDrafts, condition: body.condition?.filter })),
      ),
    };
  };
  app.post("/wix-data/v2/items/remove", remove);
  app.delete("/wix-data/v2/items/:id", remove);

  app.post("/wix-data/v2/items/truncate", async (request) => {
    const body = parseRequest(z.object({ dataCollectionId: collectionId }), request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, null);
    // Truncate needs the site owner's identity whatever the collection's permissions.
    if (caller.kind !== "admin") {
      throw permissionDenied(collection.id, "truncate");
    }
    services.store.transaction(() => services.store.truncate(collection.id));
    return {};
  });

  const patch = async (request: FastifyRequest<{ Params: { id?: string } }>) => {
    const raw = request.body as { patch?: { dataItemId?: string } } | undefined;
    const body = parseRequest(patchRequest, raw && request.params.id ? { ...raw, patch: { dataItemId: request.params.id, ...raw.patch } } : raw);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const item = services.store.transaction(() =>
      items.patch(collection, caller, body.patch.dataItemId, body.patch.fieldModifications, { includeDrafts, condition: body.condition?.filter }),
    );
    return { dataItem: wireItem(collection, item) };
  };
  app.post("/wix-data/v2/items/patch", patch);
  app.patch("/wix-data/v2/items/:id", patch);
}
