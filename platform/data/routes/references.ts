import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { pagingMetadata, resolvePage } from "../cursor";
import { badRequest, permissionDenied, referenceExists } from "../errors";
import { multiReferenceField } from "../items";
import type { StoredCollection } from "../collection";
import { mayTouchItem } from "../permissions";
import type { Caller } from "../../types";
import { isHiddenDraft } from "../publishing";
import { project } from "../wire";
import {
  authorise,
  booleanish,
  collectionId,
  cursorPagingSchema,
  draftsIncluded,
  fieldPath,
  pagingSchema,
  parseRequest,
  publishPluginOptionsSchema,
  fieldList,
  type DataServices,
} from "./common";
import { MAX_BULK_ITEMS } from "./bulk";
import { MAX_PAGE_SIZE } from "./query";

/** query-referenced pages hold 50 referenced items unless asked otherwise. */
const DEFAULT_REFERENCED_PAGE_SIZE = 50;

const referenceSchema = z.object({
  referringItemFieldName: z.string().min(1),
  referringItemId: z.string().min(1),
  referencedItemId: z.string().min(1),
});

const referencesRequest = z.object({
  dataCollectionId: collectionId,
  dataItemReferences: z
    .array(referenceSchema)
    .min(1, "dataItemReferences must not be empty")
    .max(MAX_BULK_ITEMS, `dataItemReferences takes at most ${MAX_BULK_ITEMS} references`),
});

const replaceRequest = z.object({
  dataCollectionId: collectionId,
  referringItemFieldName: z.string().min(1),
  referringItemId: z.string().min(1),
  newReferencedItemIds: z.array(z.string().min(1)).default([]),
});

const isReferencedRequest = z.object({ dataCollectionId: collectionId, ...referenceSchema.shape });

const queryReferencedRequest = z.object({
  dataCollectionId: collectionId,
  referringItemFieldName: z.string().min(1).optional(),
  referringItemId: z.string().min(1).optional(),
  referringItemIds: z.array(z.string().min(1)).optional(),
  order: z.enum(["ASC", "DESC"]).optional(),
  paging: pagingSchema,
  cursorPaging: cursorPagingSchema,
  fields: fieldList.optional(),
  returnTotalCount: booleanish.optional(),
  publishPluginOptions: publishPluginOptionsSchema,
});

/** What a query-referenced cursor carries. */
const referencedState = z.object({
  field: z.string().min(1).optional(),
  referringIds: z.array(z.string().min(1)),
  order: z.enum(["ASC", "DESC"]).optional(),
  fields: z.array(fieldPath).optional(),
});
type ReferencedState = z.infer<typeof referencedState>;

/** `/wix-data/v2/…references`, is-referenced and query-referenced, over MULTI_REFERENCE fields. */
export function registerReferenceRoutes(app: FastifyInstance, services: DataServices) {
  const { store } = services;

  /**
   * A link belongs to its referring item: changing one needs the right to update that item (its
   * author's, under SITE_MEMBER_AUTHOR). Drafts take links as they did before this check.
   */
  const referringItem = (collection: StoredCollection, caller: Caller, id: string) =>
    services.items.existing(collection, caller, id, "update", { includeDrafts: true });

  app.post("/wix-data/v2/bulk/items/insert-references", async (request) => {
    const body = parseRequest(referencesRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    store.transaction(() => {
      for (const reference of body.dataItemReferences) {
        const { target } = multiReferenceField(collection, reference.referringItemFieldName);
        referringItem(collection, caller, reference.referringItemId);
        store.getItem(target, reference.referencedItemId);
        if (store.references.exists(collection.id, reference.referringItemFieldName, reference.referringItemId, reference.referencedItemId)) {
          throw referenceExists(collection.id, reference.referringItemFieldName, reference.referringItemId, reference.referencedItemId);
        }
        store.references.insert(collection.id, reference.referringItemFieldName, reference.referringItemId, target, [reference.referencedItemId]);
      }
    });
    return { results: body.dataItemReferences.map((dataItemReference) => ({ dataItemReference })) };
  });

  app.post("/wix-data/v2/bulk/items/remove-references", async (request) => {
    const body = parseRequest(referencesRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    store.transaction(() => {
      for (const reference of body.dataItemReferences) {
        multiReferenceField(collection, reference.referringItemFieldName);
        // Removing a link that is not there is no error; removing one from another member's item is.
        const referring = store.findItem(collection.id, reference.referringItemId);
        if (referring && !mayTouchItem(collection, "update", caller, referring)) throw permissionDenied(collection.id, "update");
        store.references.remove(collection.id, reference.referringItemFieldName, reference.referringItemId, reference.referencedItemId);
      }
    });
    return { results: body.dataItemReferences.map((dataItemReference) => ({ dataItemReference })) };
  });

  app.post("/wix-data/v2/items/replace-references", async (request) => {
    const body = parseRequest(replaceRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "update");
    const { target } = multiReferenceField(collection, body.referringItemFieldName);
    store.transaction(() => {
      referringItem(collection, caller, body.referringItemId);
      for (const id of body.newReferencedItemIds) store.getItem(target, id);
      store.references.replace(collection.id, body.referringItemFieldName, body.referringItemId, target, body.newReferencedItemIds);
    });
    return {};
  });

  app.post("/wix-data/v2/items/is-referenced", async (request) => {
    const body = parseRequest(isReferencedRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    multiReferenceField(collection, body.referringItemFieldName);
    // The links of an item the caller may not read are as unknown as those of a missing item.
    const readable = services.items.findReadable(collection, caller, body.referringItemId) !== undefined;
    return { isReferenced: readable && store.references.exists(collection.id, body.referringItemFieldName, body.referringItemId, body.referencedItemId) };
  });

  app.post("/wix-data/v2/items/query-referenced", async (request) => {
    const body = parseRequest(queryReferencedRequest, request.body);
    const { caller, collection } = authorise(services, request, body.dataCollectionId, "read");
    const referringIds = body.referringItemIds ?? (body.referringItemId ? [body.referringItemId] : []);
    const initial: ReferencedState = { field: body.referringItemFieldName, referringIds, order: body.order, fields: body.fields };
    const page = resolvePage(body, collection.id, initial, {
      defaultLimit: DEFAULT_REFERENCED_PAGE_SIZE,
      maxLimit: MAX_PAGE_SIZE,
      stateSchema: referencedState,
    });
    const { field: fieldKey, fields } = page.state;
    if (!fieldKey || page.state.referringIds.length === 0) {
      throw badRequest("Invalid request: referringItemFieldName and referringItemId(s) are required.");
    }
    const { target } = multiReferenceField(collection, fieldKey);
    const targetCollection = store.getCollection(target);
    const readable = services.items.canRead(targetCollection, caller);
    const includeDrafts = draftsIncluded(caller, body.publishPluginOptions);
    // Only the links of referring items the caller may read: another member's private item shows none, as a missing one.
    const readableIds = page.state.referringIds.filter((id) => services.items.findReadable(collection, caller, id, includeDrafts));
    const { links, total } = store.references.list(collection.id, fieldKey, readableIds, {
      limit: page.limit + 1,
      offset: page.offset,
      order: page.state.order,
    });
    const results = links.slice(0, page.limit).map(({ referringId, referencedId }) => {
      const item = readable ? store.findItem(target, referencedId) : undefined;
      // A draft the read does not include is an unresolved reference, as a missing item is.
      if (item && !isHiddenDraft(targetCollection, item, includeDrafts) && mayTouchItem(targetCollection, "read", caller, item)) {
        return {
          referringItemId: referringId,
          dataItem: { id: referencedId, dataCollectionId: target, data: fields && fields.length > 0 ? project(item, fields) : item },
        };
      }
      const unauthorized = (!!item && !isHiddenDraft(targetCollection, item, includeDrafts)) || !readable;
      return { referringItemId: referringId, unresolvedReference: { referringItemId: referringId, referencedItemId: referencedId, unauthorized } };
    });
    return {
      results,
      pagingMetadata: pagingMetadata(page, collection.id, results.length, links.length > page.limit, body.returnTotalCount ? total : undefined),
    };
  });
}
