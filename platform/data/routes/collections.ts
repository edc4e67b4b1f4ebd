import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { badRequest, collectionAlreadyExists, collectionNotFound, permissionDenied } from "../errors";
import { fieldRangeProblem, fieldRangeSchema } from "../field-ranges";
import { fieldKeyProblem, MAX_COLLECTION_FIELDS } from "../limits";
import { publishPlugin } from "../publishing";
import { PUBLISH_STATUSES, type CollectionDefinition, type CollectionField, type StoredCollection } from "../collection";
import type { DataStore } from "../store";
import { collectionId, parseRequest, requestPayload, type DataServices } from "./common";

/** Field types of the collections API (`@wix/auto_sdk_data_collections` `Type`, plus the documented extras). */
export const FIELD_TYPES = [
  "TEXT",
  "NUMBER",
  "DATE",
  "DATETIME",
  "IMAGE",
  "BOOLEAN",
  "DOCUMENT",
  "URL",
  "RICH_TEXT",
  "VIDEO",
  "ANY",
  "ARRAY_STRING",
  "ARRAY_DOCUMENT",
  "AUDIO",
  "TIME",
  "LANGUAGE",
  "RICH_CONTENT",
  "MEDIA_GALLERY",
  "ADDRESS",
  "PAGE_LINK",
  "REFERENCE",
  "MULTI_REFERENCE",
  "OBJECT",
  "ARRAY",
  "SLUG",
  "EMAIL",
  "MEDIA_IMAGE",
  "MEDIA_VECTOR_ART",
  "LEGACY_TIME",
  "LEGACY_BOOK",
  "LEGACY_EVENT_REFERENCE",
  "LEGACY_EVENT_GUESTS",
  "LEGACY_MEMBER_REFERENCE",
  "LEGACY_MEMBER_REFERENCES",
  "LEGACY_ADDRESS",
] as const;

const QUERY_OPERATORS = ["EQ", "LT", "GT", "NE", "LTE", "GTE", "STARTS_WITH", "ENDS_WITH", "CONTAINS", "HAS_SOME", "HAS_ALL", "EXISTS", "URLIZED"];
const DATA_OPERATIONS = [
  "AGGREGATE",
  "BULK_INSERT",
  "BULK_REMOVE",
  "BULK_SAVE",
  "BULK_UPDATE",
  "COUNT",
  "DISTINCT",
  "FIND",
  "GET",
  "INSERT",
  "INSERT_REFERENCE",
  "IS_REFERENCED",
  "QUERY_REFERENCED",
  "REMOVE",
  "REMOVE_REFERENCE",
  "REPLACE_REFERENCES",
  "SAVE",
  "TRUNCATE",
  "UPDATE",
  "PATCH",
  "BULK_PATCH",
];
const SYSTEM_FIELDS: CollectionField[] = [
  { key: "_id", displayName: "ID", type: "TEXT" },
  { key: "_createdDate", displayName: "Created Date", type: "DATETIME" },
  { key: "_updatedDate", displayName: "Updated Date", type: "DATETIME" },
  { key: "_owner", displayName: "Owner", type: "TEXT" },
];
/** The system field a collection with the Publish plugin adds. */
const PUBLISH_STATUS_SYSTEM_FIELD: CollectionField = { key: "_publishStatus", displayName: "Publish Status", type: "TEXT" };
const SYSTEM_FIELD_KEYS = new Set([...SYSTEM_FIELDS, PUBLISH_STATUS_SYSTEM_FIELD].map((field) => field.key));

// The collections API's roles, and CMS_EDITOR, which it documents as the default and reports as set.
const role = z.enum(["ADMIN", "CMS_EDITOR", "SITE_MEMBER_AUTHOR", "SITE_MEMBER", "ANYONE"]);

const fieldSchema = z
  .object({
    key: z
      .string()
      .min(1)
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, "field keys start with a letter and hold letters, digits and _")
      .refine((key) => !fieldKeyProblem(key), "this field key is reserved"),
    displayName: z.string().optional(),
    type: z.enum(FIELD_TYPES),
    typeMetadata: z.record(z.string(), z.unknown()).optional(),
    ...fieldRangeSchema,
  })
  .passthrough()
  .superRefine((field, context) => {
    const rangeProblem = fieldRangeProblem(field);
    if (rangeProblem) context.addIssue({ code: "custom", message: rangeProblem });
    const metadata = field.typeMetadata as Record<string, { referencedCollectionId?: unknown }> | undefined;
    const reference = field.type === "REFERENCE" ? metadata?.reference : field.type === "MULTI_REFERENCE" ? metadata?.multiReference : undefined;
    if ((field.type === "REFERENCE" || field.type === "MULTI_REFERENCE") && typeof reference?.referencedCollectionId !== "string") {
      context.addIssue({
        code: "custom",
        message: `${field.type} fields need typeMetadata.${field.type === "REFERENCE" ? "reference" : "multiReference"}.referencedCollectionId`,
      });
    }
  });

const publishOptions = z.object({ defaultStatus: z.enum(PUBLISH_STATUSES).optional() });
const urlizedOptions = z.object({ format: z.enum(["ORIGINAL", "PLAIN"]).optional() });
const multilingualOptions = z.object({ translatableFieldKeys: z.array(z.string().min(1).max(1000)).max(1000).optional() });
const cmsOptions = z.object({
  siteSort: z
    .object({
      sort: z
        .array(z.object({ fieldKey: z.string().max(1000).optional(), direction: z.enum(["ASC", "DESC"]).optional() }))
        .max(100)
        .optional(),
    })
    .optional(),
});

/** The plugins this platform keeps (docs/platform/data.md §18.2); others are refused rather than stored and not acted on. */
const pluginSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("PUBLISH"), publishOptions: publishOptions.optional() }),
    z.object({ type: z.literal("URLIZED"), urlizedOptions: urlizedOptions.optional() }),
    z.object({ type: z.literal("MULTILINGUAL"), multilingualOptions: multilingualOptions.optional() }),
    z.object({ type: z.literal("CMS"), cmsOptions: cmsOptions.optional() }),
  ],
  { error: "the local platform keeps the PUBLISH, URLIZED, MULTILINGUAL and CMS plugins only" },
);
type PluginType = z.infer<typeof pluginSchema>["type"];

export const collectionSchema = z.object({
  id: z
    .string()
    .min(1, "collection id is required")
    .max(256)
    .refine((id) => !/[\u0000-\u001f]/.test(id), "a collection id cannot contain control characters"),
  displayName: z.string().optional(),
  displayField: z.string().optional(),
  // A collection read back from the platform lists the system fields too; they are the platform's, not sent ones.
  fields: z.preprocess(
    (fields) => (Array.isArray(fields) ? fields.filter((field) => !SYSTEM_FIELD_KEYS.has((field as { key?: string } | null)?.key ?? "")) : (fields ?? [])),
    z
      .array(fieldSchema)
      .max(MAX_COLLECTION_FIELDS, `a collection has at most ${MAX_COLLECTION_FIELDS} fields`)
      .refine((fields) => new Set(fields.map((f) => f.key)).size === fields.length, "field keys must be unique"),
  ),
  permissions: z.object({ read: role, insert: role, update: role, remove: role }, { error: "permissions {read, insert, update, remove} are required" }),
  // A collection read back lists the Draft Items plugin too; the pair is the platform's (add-draft-items-plugin), not a sent plugin.
  plugins: z.preprocess(
    (plugins) => (Array.isArray(plugins) ? plugins.filter((plugin) => (plugin as { type?: unknown } | null)?.type !== "DRAFT_ITEMS") : plugins),
    z
      .array(pluginSchema)
      .refine((plugins) => new Set(plugins.map((plugin) => plugin.type)).size === plugins.length, "each plugin type is given once")
      .optional(),
  ),
  revision: z.coerce.number().int().optional(),
});

/** Each plugin's own calls name the collection and, to add it, its options (`<type>Options`). */
const pluginCalls = [
  { path: "publish", type: "PUBLISH", options: "publishOptions", schema: publishOptions },
  { path: "urlized", type: "URLIZED", options: "urlizedOptions", schema: urlizedOptions },
  { path: "multilingual", type: "MULTILINGUAL", options: "multilingualOptions", schema: multilingualOptions },
  { path: "cms", type: "CMS", options: "cmsOptions", schema: cmsOptions },
] as const;
const deletePluginRequest = z.object({ dataCollectionId: collectionId });
const addAnyPluginRequest = z.object({ dataCollectionId: collectionId, plugin: pluginSchema });
const deleteAnyPluginRequest = z.object({ dataCollectionId: collectionId, pluginType: z.string().min(1, "pluginType is required") });

const listRequest = z.object({
  paging: z.object({ limit: z.coerce.number().int().min(0).max(1000).optional(), offset: z.coerce.number().int().min(0).optional() }).optional(),
});

/** PATCH names the collection in the path and may carry any part of it. */
const patchRequest = z.object({ dataCollection: z.object({ revision: z.coerce.number().int().optional() }).passthrough() });
export const fieldRequest = z.object({ dataCollectionId: collectionId, field: z.object({ key: z.string().min(1, "field.key is required") }).passthrough() });
const deleteFieldRequest = z.object({ dataCollectionId: collectionId, fieldKey: z.string().min(1, "fieldKey is required") });

/** The REST shape (`id`, `createdDate`, `updatedDate`; the SDK renames them), system fields appended. */
export function wireCollection(collection: StoredCollection) {
  const field = (f: CollectionField, systemField: boolean) => ({
    ...f,
    displayName: f.displayName ?? f.key,
    systemField,
    capabilities: { sortable: f.type !== "MULTI_REFERENCE", queryOperators: f.type === "MULTI_REFERENCE" ? ["HAS_SOME", "HAS_ALL"] : QUERY_OPERATORS },
    encrypted: false,
  });
  const publishing = publishPlugin(collection);
  return {
    id: collection.id,
    collectionType: "NATIVE",
    maxPageSize: 1000,
    displayName: collection.displayName ?? collection.id,
    displayField: collection.displayField ?? collection.fields[0]?.key,
    defaultDisplayOrder: { fieldKey: "_createdDate", direction: "DESC" },
    capabilities: { dataOperations: DATA_OPERATIONS, collectionOperations: ["UPDATE", "REMOVE"], indexLimits: { regular: 3, unique: 1, total: 4 } },
    fields: [
      ...collection.fields.map((f) => field(f, false)),
      ...[...SYSTEM_FIELDS, ...(publishing ? [PUBLISH_STATUS_SYSTEM_FIELD] : [])].map((f) => field(f, true)),
    ],
    permissions: collection.permissions,
    revision: String(collection.revision),
    plugins: [
      ...(collection.plugins ?? []).map((plugin) => (plugin.type === "PUBLISH" ? { type: "PUBLISH", publishOptions: publishing } : plugin)),
      ...(collection.draftItems ? [{ type: "DRAFT_ITEMS", draftItemsOptions: collection.draftItems }] : []),
    ],
    pagingModes: ["OFFSET", "CURSOR"],
    createdDate: collection.createdDate,
    updatedDate: collection.updatedDate,
  };
}

function definitionOf(input: z.infer<typeof collectionSchema>): CollectionDefinition {
  const fields = input.fields.filter((f) => !f.key.startsWith("_")) as CollectionField[];
  return {
    id: input.id,
    displayName: input.displayName,
    displayField: input.displayField,
    fields,
    permissions: input.permissions,
    ...(input.plugins?.length && { plugins: input.plugins }),
  };
}

function referencedCollectionsExist(store: DataStore, definition: CollectionDefinition) {
  for (const field of definition.fields) {
    const metadata = field.typeMetadata as Record<string, { referencedCollectionId?: string }> | undefined;
    const target = metadata?.reference?.referencedCollectionId ?? metadata?.multiReference?.referencedCollectionId;
    if (target && target !== definition.id) store.getCollection(target);
  }
}

/** A new collection from a parsed definition, once the caller is known to be the site owner (the route and the Studio). */
export function createCollection(store: DataStore, collection: z.infer<typeof collectionSchema>) {
  const definition = definitionOf(collection);
  referencedCollectionsExist(store, definition);
  return { collection: wireCollection(store.createCollection(definition)) };
}

/**
 * Saves a changed definition after the same validation as a full update, and answers in the
 * shape of the PATCH and field endpoints.
 */
function saveChanged(store: DataStore, current: StoredCollection, changes: Record<string, unknown>, revision?: number) {
  const merged = parseRequest(collectionSchema, { ...current, ...changes, id: current.id, revision: undefined });
  const definition = definitionOf(merged);
  referencedCollectionsExist(store, definition);
  return { dataCollection: wireCollection(store.updateCollection(definition, revision)) };
}

/** The collection a field call names and the index of the field in it; `create` wants a new key, the others an existing one. */
function fieldTarget(store: DataStore, collectionIdValue: string, key: string, action: string) {
  const current = store.getCollection(collectionIdValue);
  const index = current.fields.findIndex((field) => field.key === key);
  if (action === "create" && index >= 0) throw badRequest(`Field [${key}] already exists in collection [${current.id}].`, { fieldKey: key });
  if (action !== "create" && index < 0) throw badRequest(`Field [${key}] does not exist in collection [${current.id}].`, { fieldKey: key });
  return { current, index };
}

/** A field added to a collection, once the caller is known to be the site owner (create-field and the Studio). */
export function createField(store: DataStore, { dataCollectionId, field }: z.infer<typeof fieldRequest>) {
  const { current } = fieldTarget(store, dataCollectionId, field.key, "create");
  return saveChanged(store, current, { fields: [...current.fields, field] });
}

/** `/wix-data/v2/collections`: list, get, create, update (PUT with revision) and delete. Changes need the admin API key. */
export function registerCollectionRoutes(app: FastifyInstance, services: DataServices) {
  const { store } = services;

  const assertAdmin = (request: FastifyRequest, collectionId: string, action: string) => {
    if (services.ctx.callerOf(request).kind !== "admin") {
      throw permissionDenied(collectionId, action);
    }
  };

  /** The collection a field call names, after the admin check, and the index of the field in it. */
  const adminFieldTarget = (request: FastifyRequest, collectionIdValue: string, key: string, action: string) => {
    assertAdmin(request, collectionIdValue, "update");
    return fieldTarget(store, collectionIdValue, key, action);
  };

  app.get("/wix-data/v2/collections", async (request) => {
    services.ctx.callerOf(request);
    const body = parseRequest(listRequest, requestPayload(request));
    const all = store.listCollections();
    const offset = body.paging?.offset ?? 0;
    const page = all.slice(offset, offset + (body.paging?.limit ?? 50));
    return { collections: page.map(wireCollection), pagingMetadata: { count: page.length, offset, total: all.length, tooManyToCount: false } };
  });

  app.get<{ Params: { id: string } }>("/wix-data/v2/collections/:id", async (request) => {
    services.ctx.callerOf(request);
    const query = request.query as { dataCollectionId?: string };
    return { collection: wireCollection(store.getCollection(query.dataCollectionId ?? request.params.id)) };
  });

  app.post("/wix-data/v2/collections", async (request) => {
    const { collection } = parseRequest(z.object({ collection: collectionSchema }), request.body);
    assertAdmin(request, collection.id, "create");
    return createCollection(store, collection);
  });

  app.put("/wix-data/v2/collections", async (request) => {
    const { collection } = parseRequest(z.object({ collection: collectionSchema }), request.body);
    assertAdmin(request, collection.id, "update");
    const definition = definitionOf(collection);
    referencedCollectionsExist(store, definition);
    return { collection: wireCollection(store.updateCollection(definition, collection.revision)) };
  });

  app.patch<{ Params: { id: string } }>("/wix-data/v2/collections/:id", async (request) => {
    const { dataCollection } = parseRequest(patchRequest, request.body);
    const id = typeof dataCollection.id === "string" ? dataCollection.id : request.params.id;
    assertAdmin(request, id, "update");
    const current = store.getCollection(id);
    // Permissions change only through the full update (PUT with revision).
    if (dataCollection.permissions !== undefined && JSON.stringify(dataCollection.permissions) !== JSON.stringify(current.permissions)) {
      throw badRequest("WDE0075: Not recognized role provided in permissions.");
    }
    const changes = Object.fromEntries(
      ["displayName", "displayField", "fields", "plugins"].filter((key) => dataCollection[key] !== undefined).map((key) => [key, dataCollection[key]]),
    );
    return saveChanged(store, current, changes, dataCollection.revision);
  });

  /** The collection with `plugin` in place of any plugin of its type (or without `type`), saved as an update naming it would be. */
  const withPlugin = (id: string, type: PluginType, plugin?: z.infer<typeof pluginSchema>) => {
    const current = store.getCollection(id);
    const others = (current.plugins ?? []).filter((existing) => existing.type !== type);
    return saveChanged(store, current, { plugins: plugin ? [...others, plugin] : others });
  };
  // The two drafts models exclude each other; moving drafts from the Draft Items plugin is not emulated (data.md §18).
  const assertNoDraftItems = (id: string) => {
    if (store.draftPairs.draftsOf(id)) {
      throw badRequest(`Collection [${id}] has the Draft Items plugin; remove it first with deleteDraftItemsPlugin.`, { collectionId: id });
    }
  };

  // Each plugin added (replacing its earlier options) or removed by its own call (data.md §18.2).
  for (const call of pluginCalls) {
    const addRequest = z.object({ dataCollectionId: collectionId, [call.options]: call.schema });
    app.post(`/wix-data/v2/collections/add-${call.path}-plugin`, async (request) => {
      const body = parseRequest(addRequest, request.body) as { dataCollectionId: string } & Record<string, unknown>;
      assertAdmin(request, body.dataCollectionId, "update");
      if (call.type === "PUBLISH") assertNoDraftItems(body.dataCollectionId);
      return withPlugin(body.dataCollectionId, call.type, { type: call.type, [call.options]: body[call.options] } as z.infer<typeof pluginSchema>);
    });
    app.post(`/wix-data/v2/collections/delete-${call.path}-plugin`, async (request) => {
      const { dataCollectionId } = parseRequest(deletePluginRequest, request.body);
      assertAdmin(request, dataCollectionId, "update");
      return withPlugin(dataCollectionId, call.type);
    });
  }

  // The generic calls: adding a type the collection has already fails, as the typings say.
  app.post("/wix-data/v2/collections/add-plugin", async (request) => {
    const { dataCollectionId, plugin } = parseRequest(addAnyPluginRequest, request.body);
    assertAdmin(request, dataCollectionId, "update");
    if (plugin.type === "PUBLISH") assertNoDraftItems(dataCollectionId);
    if (store.getCollection(dataCollectionId).plugins?.some((existing) => existing.type === plugin.type)) {
      throw badRequest(`Collection [${dataCollectionId}] already has the ${plugin.type} plugin.`, { collectionId: dataCollectionId });
    }
    return withPlugin(dataCollectionId, plugin.type, plugin);
  });

  app.post("/wix-data/v2/collections/delete-plugin", async (request) => {
    const { dataCollectionId, pluginType } = parseRequest(deleteAnyPluginRequest, request.body);
    assertAdmin(request, dataCollectionId, "update");
    return withPlugin(dataCollectionId, pluginType as PluginType);
  });

  app.post("/wix-data/v2/collections/create-field", async (request) => {
    const body = parseRequest(fieldRequest, request.body);
    assertAdmin(request, body.dataCollectionId, "update");
    return createField(store, body);
  });

  app.post("/wix-data/v2/collections/update-field", async (request) => {
    const { dataCollectionId, field } = parseRequest(fieldRequest, request.body);
    const { current, index } = adminFieldTarget(request, dataCollectionId, field.key, "update");
    return saveChanged(store, current, { fields: current.fields.map((existing, i) => (i === index ? field : existing)) });
  });

  app.patch<{ Params: { dataCollectionId: string } }>("/wix-data/v2/collections/:dataCollectionId/patch-field", async (request) => {
    const { dataCollectionId, field } = parseRequest(fieldRequest, { dataCollectionId: request.params.dataCollectionId, ...(request.body as object) });
    const { current, index } = adminFieldTarget(request, dataCollectionId, field.key, "patch");
    return saveChanged(store, current, { fields: current.fields.map((existing, i) => (i === index ? { ...existing, ...field } : existing)) });
  });

  /** The field's values go from the items with it, as on Wix; a MULTI_REFERENCE field's links go too. */
  app.post("/wix-data/v2/collections/delete-field", async (request) => {
    const { dataCollectionId, fieldKey } = parseRequest(deleteFieldRequest, request.body);
    const { current, index } = adminFieldTarget(request, dataCollectionId, fieldKey, "delete");
    return store.transaction(() => {
      if (current.fields[index].type === "MULTI_REFERENCE") store.references.clearField(current.id, fieldKey);
      else store.removeFieldValues(current.id, fieldKey);
      return saveChanged(store, current, { fields: current.fields.filter((_, i) => i !== index) });
    });
  });

  app.delete<{ Params: { id: string } }>("/wix-data/v2/collections/:id", async (request) => {
    const query = request.query as { dataCollectionId?: string };
    const id = query.dataCollectionId ?? request.params.id;
    assertAdmin(request, id, "remove");
    store.getCollection(id);
    const published = store.draftPairs.publishedOf(id);
    if (published)
      throw badRequest(`Collection [${id}] holds the drafts of [${published}]; remove the Draft Items plugin from [${published}] instead.`, {
        collectionId: id,
      });
    // A collection's drafts go with it (the Draft Items plugin, data.md §18).
    const drafts = store.draftPairs.draftsOf(id);
    store.transaction(() => {
      store.trash.keep(id);
      store.deleteCollection(id);
      if (drafts) store.deleteCollection(drafts);
    });
    return {};
  });

  /** A deleted collection back as it was deleted, within the days the trash keeps it (data.md §2.1). */
  app.post<{ Params: { id: string } }>("/wix-data/v2/collections/restore/:id", async (request) => {
    const { dataCollectionId } = parseRequest(z.object({ dataCollectionId: collectionId }), {
      dataCollectionId: request.params.id,
      ...(request.body as object),
    });
    assertAdmin(request, dataCollectionId, "update");
    if (!store.trash.has(dataCollectionId)) throw collectionNotFound(dataCollectionId);
    if (store.findCollection(dataCollectionId)) throw collectionAlreadyExists(dataCollectionId);
    const restored = store.transaction(() => {
      store.trash.restore(dataCollectionId);
      const collection = store.getCollection(dataCollectionId);
      store.indexFields(collection);
      return collection;
    });
    return { dataCollection: wireCollection(restored) };
  });
}
