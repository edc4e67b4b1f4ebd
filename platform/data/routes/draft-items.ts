import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { badRequest, permissionDenied } from "../errors";
import { draftsCollectionIdOf } from "../draft-items";
import { publishPlugin } from "../publishing";
import type { StoredCollection } from "../collection";
import type { ItemData } from "../wire";
import { wireCollection } from "./collections";
import { wireItem } from "./items";
import { authorise, booleanish, collectionId, itemId, parseRequest, type DataServices } from "./common";

const addPluginRequest = z.object({
  dataCollectionId: collectionId,
  draftItemsOptions: z.object({}).passthrough().optional(),
  publishPluginConflictAction: z.enum(["FAIL_WHEN_PUBLISH_INSTALLED", "COPY_DRAFT_ITEMS_WITH_DRAFT_STATUS"]).optional(),
});
const deletePluginRequest = z.object({
  dataCollectionId: collectionId,
  draftItemsRemovalAction: z.enum(["FAIL_IF_DRAFT_ITEMS_EXIST", "DISCARD_EXISTING_DRAFT_ITEMS", "PUBLISH_EXISTING_DRAFT_ITEMS"]).optional(),
});
const itemRequest = z.object({ dataCollectionId: collectionId, dataItemId: itemId, copyToDraft: booleanish.optional() });

/** Drafts moved or published a page at a time, so a large collection is not read into memory at once. */
const PAGE = 500;

/** Without `_id` and the dates, which the receiving collection stamps; the owner stays for the admin key to keep. */
const copyOf = (item: ItemData): ItemData => {
  const copy = { ...item };
  delete copy._createdDate;
  delete copy._updatedDate;
  return copy;
};

/**
 * The Draft Items plugin (docs/platform/data.md §18): `add-draft-items-plugin` pairs a collection
 * with a drafts collection (`<id>__drafts`, same fields, managed at the collection's update
 * level), and the items calls `create-draft`, `publish-draft` and `unpublish` copy an item
 * between the two under its id. The published item stays live while its draft is edited.
 */
export function registerDraftItemRoutes(app: FastifyInstance, services: DataServices) {
  const { store, items } = services;

  const assertAdmin = (request: FastifyRequest, id: string) => {
    if (services.ctx.callerOf(request).kind !== "admin") throw permissionDenied(id, "update");
  };

  /** The published collection and its drafts collection that an item call names (either of the two). */
  const pairOf = (id: string) => {
    const publishedId = store.draftPairs.publishedOf(id) ?? id;
    const draftsId = store.draftPairs.draftsOf(publishedId);
    if (!draftsId) {
      store.getCollection(publishedId);
      throw badRequest(`Collection [${publishedId}] does not have the Draft Items plugin; add it with addDraftItemsPlugin.`, { collectionId: publishedId });
    }
    return { publishedId, draftsId };
  };

  app.post("/wix-data/v2/collections/add-draft-items-plugin", async (request) => {
    const body = parseRequest(addPluginRequest, request.body);
    assertAdmin(request, body.dataCollectionId);
    const published = store.getCollection(body.dataCollectionId);
    if (store.draftPairs.publishedOf(published.id)) throw badRequest(`Collection [${published.id}] is a drafts collection.`, { collectionId: published.id });
    if (store.draftPairs.draftsOf(published.id)) return { dataCollection: wireCollection(published) };
    const publishing = publishPlugin(published) !== undefined;
    if (publishing && body.publishPluginConflictAction !== "COPY_DRAFT_ITEMS_WITH_DRAFT_STATUS") {
      throw badRequest(
        `Collection [${published.id}] has the Publish plugin; remove it first or pass publishPluginConflictAction COPY_DRAFT_ITEMS_WITH_DRAFT_STATUS.`,
        {
          collectionId: published.id,
        },
      );
    }
    return store.transaction(() => {
      const draftsId = draftsCollectionIdOf(published.id);
      const level = published.permissions.update;
      store.createCollection({
        id: draftsId,
        displayName: `${published.displayName ?? published.id} (drafts)`,
        displayField: published.displayField,
        fields: published.fields,
        permissions: { read: level, insert: level, update: level, remove: level },
      });
      store.draftPairs.pair(published.id, draftsId);
      if (!publishing) return { dataCollection: wireCollection(store.getCollection(published.id)) };
      // The Publish plugin's drafts move to the drafts collection; its published items stay.
      for (let page = store.itemsAfter(published.id, { filter: { _publishStatus: "DRAFT" }, includeDrafts: true }, null, PAGE); page.length > 0;) {
        for (const draft of page) {
          const data = { ...draft };
          delete data._publishStatus;
          store.insertItem(draftsId, data, typeof data._owner === "string" ? data._owner : null, true);
          store.removeItem(published.id, draft._id as string);
        }
        page = store.itemsAfter(published.id, { filter: { _publishStatus: "DRAFT" }, includeDrafts: true }, null, PAGE);
      }
      const updated = store.updateCollection({ ...published, plugins: (published.plugins ?? []).filter((plugin) => plugin.type !== "PUBLISH") });
      return { dataCollection: wireCollection(updated) };
    });
  });

  app.post("/wix-data/v2/collections/delete-draft-items-plugin", async (request) => {
    const body = parseRequest(deletePluginRequest, request.body);
    assertAdmin(request, body.dataCollectionId);
    const published = store.getCollection(body.dataCollectionId);
    const draftsId = store.draftPairs.draftsOf(published.id);
    if (!draftsId) return { dataCollection: wireCollection(published) };
    const action = body.draftItemsRemovalAction ?? "FAIL_IF_DRAFT_ITEMS_EXIST";
    if (action === "FAIL_IF_DRAFT_ITEMS_EXIST" && store.count(draftsId, {}) > 0) {
      throw badRequest(
        `Collection [${published.id}] has draft items; pass draftItemsRemovalAction DISCARD_EXISTING_DRAFT_ITEMS or PUBLISH_EXISTING_DRAFT_ITEMS.`,
        {
          collectionId: published.id,
        },
      );
    }
    store.transaction(() => {
      if (action === "PUBLISH_EXISTING_DRAFT_ITEMS") {
        for (let page = store.itemsAfter(draftsId, {}, null, PAGE); page.length > 0;) {
          for (const draft of page) publishStored(published, draft);
          const last = page.at(-1)!;
          page = store.itemsAfter(draftsId, {}, { createdDate: String(last._createdDate), id: String(last._id) }, PAGE);
        }
      }
      store.deleteCollection(draftsId);
    });
    return { dataCollection: wireCollection(store.getCollection(published.id)) };
  });

  /** A draft written over (or as) the published item, as the site owner's removal action does. */
  const publishStored = (published: StoredCollection, draft: ItemData) => {
    const id = draft._id as string;
    const owner = typeof draft._owner === "string" ? draft._owner : null;
    if (store.findItem(published.id, id)) store.replaceItem(published.id, id, copyOf(draft), owner);
    else store.insertItem(published.id, draft, owner, true);
  };

  // createDataItemDraft: a copy of the published item in the drafts collection, under its id.
  app.post("/wix-data/v2/items/create-draft", async (request) => {
    const body = parseRequest(itemRequest, request.body);
    const { publishedId, draftsId } = pairOf(body.dataCollectionId);
    const { caller, collection: published } = authorise(services, request, publishedId, "read");
    const { collection: drafts } = authorise(services, request, draftsId, "insert");
    const draft = store.transaction(() => items.insert(drafts, caller, { id: body.dataItemId, data: copyOf(items.get(published, caller, body.dataItemId)) }));
    return { dataItem: wireItem(drafts, draft) };
  });

  // publishDataItemDraft: the draft becomes the published item (inserted or replacing it) and leaves the drafts collection.
  app.post("/wix-data/v2/items/publish-draft", async (request) => {
    const body = parseRequest(itemRequest, request.body);
    const { publishedId, draftsId } = pairOf(body.dataCollectionId);
    const { caller, collection: drafts } = authorise(services, request, draftsId, "remove");
    const { collection: published } = authorise(services, request, publishedId, null);
    const item = store.transaction(() => {
      const draft = items.remove(drafts, caller, body.dataItemId);
      return items.save(published, caller, { id: body.dataItemId, data: copyOf(draft) }).item;
    });
    return { dataItem: wireItem(published, item) };
  });

  // unpublishDataItem: the item leaves the published collection; with copyToDraft it is kept as a draft (replacing one there).
  app.post("/wix-data/v2/items/unpublish", async (request) => {
    const body = parseRequest(itemRequest, request.body);
    const { publishedId, draftsId } = pairOf(body.dataCollectionId);
    const { caller, collection: published } = authorise(services, request, publishedId, "remove");
    const drafts = body.copyToDraft ? authorise(services, request, draftsId, null).collection : undefined;
    const draft = store.transaction(() => {
      const removed = items.remove(published, caller, body.dataItemId);
      return drafts && items.save(drafts, caller, { id: body.dataItemId, data: copyOf(removed) }).item;
    });
    return draft ? { dataItem: wireItem(drafts!, draft) } : {};
  });
}
