import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { PlatformError } from "../../http/errors";
import { tooManyBulkItems } from "../errors";
import type { StoredCollection } from "../collection";
import type { ItemData } from "../wire";
import { authorise, booleanish, collectionId, conditionSchema, draftsIncluded, parseRequest, publishPluginOptionsSchema, type DataServices } from "./common";
import { dataItemSchema, wireItem } from "./items";
import { fieldModificationsSchema } from "./patch-schema";

/** Bulk calls take at most 1000 items. */
export const MAX_BULK_ITEMS = 1000;

type BulkAction = "INSERT" | "UPDATE" | "DELETE" | "PATCH";

const entries = <T extends z.ZodType>(schema: T, name: string) => z.array(schema).min(1, `${name} must not be empty`);

/** The cap on entries, checked after parsing so that it answers the client's own code for it. */
function assertCapped(list: unknown[], code: "WDE0006" | "WDE0069"): void {
  if (list.length > MAX_BULK_ITEMS) throw tooManyBulkItems(code, MAX_BULK_ITEMS);
}

const itemsRequest = z.object({
  dataCollectionId: collectionId,
  dataItems: entries(dataItemSchema, "dataItems"),
  saveReferences: booleanish.optional(),
  returnEntity: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
  // Update's only; insert and save send none.
  condition: conditionSchema,
});
const removeRequest = z.object({
  dataCollectionId: collectionId,
  dataItemIds: entries(z.string().min(1), "dataItemIds"),
  returnEntity: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
  condition: conditionSchema,
});
const patchRequest = z.object({
  dataCollectionId: collectionId,
  patches: entries(z.object({ dataItemId: z.string().min(1), fieldModifications: fieldModificationsSchema }), "patches"),
  returnEntity: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
  condition: conditionSchema,
});

type Outcome = { action: BulkAction; item: ItemData };

/**
 * Runs one operation per entry, each in its own savepoint, and reports per-item results in the
 * order given. A failed entry rolls back alone; the others stay.
 */
function runBulk<T>(
  services: DataServices,
  collection: StoredCollection,
  entries: T[],
  returnEntity: boolean | undefined,
  fallback: { action: BulkAction; id: (entry: T) => string | undefined },
  operation: (entry: T) => Outcome,
) {
  const results = services.store.transaction(() =>
    entries.map((entry, originalIndex) => {
      try {
        const { action, item } = services.store.transaction(() => operation(entry));
        return {
          action,
          itemMetadata: { id: item._id as string, originalIndex, success: true },
          ...(returnEntity && { dataItem: wireItem(collection, item) }),
        };
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        return {
          action: fallback.action,
          itemMetadata: {
            id: fallback.id(entry),
            originalIndex,
            success: false,
            error: { code: error.code, description: error.message, data: error.data },
          },
        };
      }
    }),
  );
  const totalSuccesses = results.filter((result) => result.itemMetadata.success).length;
  return { results, bulkActionMetadata: { totalSuccesses, totalFailures: results.length - totalSuccesses, undetailedFailures: 0 } };
}

const entryId = (entry: { id?: string; data?: unknown }) => entry.id ?? ((entry.data as { _id?: unknown } | undefined)?._id as string | undefined);

/** `/wix-data/v2/bulk/items/{insert,save,update,remove,patch}` with per-item results. */
export function registerBulkRoutes(app: FastifyInstance, services: DataServices) {
  const { items } = services;

  const itemsBody = (request: FastifyRequest) => {
    const body = parseRequest(itemsRequest, request.body);
    assertCapped(body.dataItems, "WDE0006");
    return body;
  };

  app.post("/wix-data/v2/bulk/items/insert", async (request) => {
    const body = itemsBody(request);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "insert");
    // Inserts meet no drafts; the option is still only the admin key's to send.
    draftsIncluded(caller, body.publishPluginOptions);
    return runBulk(services, collection, body.dataItems, body.returnEntity, { action: "INSERT", id: entryId }, (entry) => ({
      action: "INSERT",
      item: items.insert(collection, caller, entry, { saveReferences: body.saveReferences }),
    }));
  });

  app.post("/wix-data/v2/bulk/items/save", async (request) => {
    const body = itemsBody(request);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, null);
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    return runBulk(services, collection, body.dataItems, body.returnEntity, { action: "INSERT", id: entryId }, (entry) => {
      const { action, item } = items.save(collection, caller, entry, { saveReferences: body.saveReferences, includeDrafts });
      return { action: action === "INSERTED" ? "INSERT" : "UPDATE", item };
    });
  });

  app.post("/wix-data/v2/bulk/items/update", async (request) => {
    const body = itemsBody(request);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const condition = body.condition?.filter;
    items.checkCondition(collection, condition);
    return runBulk(services, collection, body.dataItems, body.returnEntity, { action: "UPDATE", id: entryId }, (entry) => ({
      action: "UPDATE",
      item: items.update(collection, caller, entry, { saveReferences: body.saveReferences, denial: "hide", includeDrafts, condition }),
    }));
  });

  app.post("/wix-data/v2/bulk/items/remove", async (request) => {
    const body = parseRequest(removeRequest, request.body);
    assertCapped(body.dataItemIds, "WDE0069");
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "remove");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const condition = body.condition?.filter;
    items.checkCondition(collection, condition);
    return runBulk(services, collection, body.dataItemIds, body.returnEntity, { action: "DELETE", id: (id) => id }, (id) => ({
      action: "DELETE",
      item: items.remove(collection, caller, id, { denial: "hide", includeDrafts, condition }),
    }));
  });

  app.post("/wix-data/v2/bulk/items/patch", async (request) => {
    const body = parseRequest(patchRequest, request.body);
    assertCapped(body.patches, "WDE0006");
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    const condition = body.condition?.filter;
    items.checkCondition(collection, condition);
    return runBulk(services, collection, body.patches, body.returnEntity, { action: "PATCH", id: (patch) => patch.dataItemId }, (patch) => ({
      action: "PATCH",
      item: items.patch(collection, caller, patch.dataItemId, patch.fieldModifications, { denial: "hide", includeDrafts, condition }),
    }));
  });
}
