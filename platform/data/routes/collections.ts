import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { PlatformError } from "../../http/errors";
import type { CollectionDefinition, CollectionField, StoredCollection } from "../store";
import { parseRequest, requestPayload, type DataServices } from "./common";

/** Field types of the collections API (`@wix/auto_sdk_data_collections` `Type`, plus the documented extras). */
export const FIELD_TYPES = [
  "TEXT", "NUMBER", "DATE", "DATETIME", "IMAGE", "BOOLEAN", "DOCUMENT", "URL", "RICH_TEXT", "VIDEO", "ANY", "ARRAY_STRING",
  "ARRAY_DOCUMENT", "AUDIO", "TIME", "LANGUAGE", "RICH_CONTENT", "MEDIA_GALLERY", "ADDRESS", "PAGE_LINK", "REFERENCE",
  "MULTI_REFERENCE", "OBJECT", "ARRAY", "SLUG", "EMAIL", "MEDIA_IMAGE", "MEDIA_VECTOR_ART",
  "LEGACY_TIME", "LEGACY_BOOK", "LEGACY_EVENT_REFERENCE", "LEGACY_EVENT_GUESTS", "LEGACY_MEMBER_REFERENCE", "LEGACY_MEMBER_REFERENCES", "LEGACY_ADDRESS",
] as const;

const QUERY_OPERATORS = ["EQ", "LT", "GT", "NE", "LTE", "GTE", "STARTS_WITH", "ENDS_WITH", "CONTAINS", "HAS_SOME", "HAS_ALL", "EXISTS", "URLIZED"];
const DATA_OPERATIONS = [
  "AGGREGATE", "BULK_INSERT", "BULK_REMOVE", "BULK_SAVE", "BULK_UPDATE", "COUNT", "DISTINCT", "FIND", "GET", "INSERT", "INSERT_REFERENCE",
  "IS_REFERENCED", "QUERY_REFERENCED", "REMOVE", "REMOVE_REFERENCE", "REPLACE_REFERENCES", "SAVE", "TRUNCATE", "UPDATE", "PATCH", "BULK_PATCH",
];
const SYSTEM_FIELDS: CollectionField[] = [
  { key: "_id", displayName: "ID", type: "TEXT" },
  { key: "_createdDate", displayName: "Created Date", type: "DATETIME" },
  { key: "_updatedDate", displayName: "Updated Date", type: "DATETIME" },
  { key: "_owner", displayName: "Owner", type: "TEXT" },
];

const role = z.enum(["ADMIN", "SITE_MEMBER_AUTHOR", "SITE_MEMBER", "ANYONE"]);

const fieldSchema = z
  .object({
    key: z.string().min(1).regex(/^[A-Za-z][A-Za-z0-9_]*$/, "field keys start with a letter and hold letters, digits and _"),
    displayName: z.string().optional(),
    type: z.enum(FIELD_TYPES),
    typeMetadata: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough()
  .superRefine((field, context) => {
    const metadata = field.typeMetadata as Record<string, { referencedCollectionId?: unknown }> | undefined;
    const reference = field.type === "REFERENCE" ? metadata?.reference : field.type === "MULTI_REFERENCE" ? metadata?.multiReference : undefined;
    if ((field.type === "REFERENCE" || field.type === "MULTI_REFERENCE") && typeof reference?.referencedCollectionId !== "string") {
      context.addIssue({ code: "custom", message: `${field.type} fields need typeMetadata.${field.type === "REFERENCE" ? "reference" : "multiReference"}.referencedCollectionId` });
    }
  });

const collectionSchema = z.object({
  id: z.string().min(1, "collection id is required").max(256),
  displayName: z.string().optional(),
  displayField: z.string().optional(),
  fields: z
    .array(fieldSchema)
    .default([])
    .refine((fields) => new Set(fields.map((f) => f.key)).size === fields.length, "field keys must be unique"),
  permissions: z.object({ read: role, insert: role, update: role, remove: role }, { error: "permissions {read, insert, update, remove} are required" }),
  revision: z.coerce.number().int().optional(),
});

const listRequest = z.object({
  paging: z.object({ limit: z.coerce.number().int().min(0).max(1000).optional(), offset: z.coerce.number().int().min(0).optional() }).optional(),
});

/** The REST shape (`id`, `createdDate`, `updatedDate`; the SDK renames them), system fields appended. */
export function wireCollection(collection: StoredCollection) {
  const field = (f: CollectionField, systemField: boolean) => ({
    ...f,
    displayName: f.displayName ?? f.key,
    systemField,
    capabilities: { sortable: f.type !== "MULTI_REFERENCE", queryOperators: f.type === "MULTI_REFERENCE" ? ["HAS_SOME", "HAS_ALL"] : QUERY_OPERATORS },
    encrypted: false,
  });
  return {
    id: collection.id,
    collectionType: "NATIVE",
    maxPageSize: 1000,
    displayName: collection.displayName ?? collection.id,
    displayField: collection.displayField ?? collection.fields[0]?.key,
    defaultDisplayOrder: { fieldKey: "_createdDate", direction: "DESC" },
    capabilities: { dataOperations: DATA_OPERATIONS, collectionOperations: ["UPDATE", "REMOVE"], indexLimits: { regular: 3, unique: 1, total: 4 } },
    fields: [...collection.fields.map((f) => field(f, false)), ...SYSTEM_FIELDS.map((f) => field(f, true))],
    permissions: collection.permissions,
    revision: String(collection.revision),
    plugins: [],
    pagingModes: ["OFFSET", "CURSOR"],
    createdDate: collection.createdDate,
    updatedDate: collection.updatedDate,
  };
}

function definitionOf(input: z.infer<typeof collectionSchema>): CollectionDefinition {
  const fields = input.fields.filter((f) => !f.key.startsWith("_")) as CollectionField[];
  return { id: input.id, displayName: input.displayName, displayField: input.displayField, fields, permissions: input.permissions };
}

/** `/wix-data/v2/collections`: list, get, create, update (PUT with revision) and delete. Changes need the admin API key. */
export function registerCollectionRoutes(app: FastifyInstance, services: DataServices) {
  const { store } = services;

  const assertAdmin = (request: FastifyRequest, collectionId: string, action: string) => {
    if (services.ctx.callerOf(request).kind !== "admin") {
      throw new PlatformError(403, "WDE0027", `WDE0027: The current user does not have permissions to ${action} the ${collectionId} collection.`, { collectionId, action });
    }
  };

  const referencedCollectionsExist = (definition: CollectionDefinition) => {
    for (const field of definition.fields) {
      const metadata = field.typeMetadata as Record<string, { referencedCollectionId?: string }> | undefined;
      const target = metadata?.reference?.referencedCollectionId ?? metadata?.multiReference?.referencedCollectionId;
      if (target && target !== definition.id) store.getCollection(target);
    }
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
    const definition = definitionOf(collection);
    referencedCollectionsExist(definition);
    return { collection: wireCollection(store.createCollection(definition)) };
  });

  app.put("/wix-data/v2/collections", async (request) => {
    const { collection } = parseRequest(z.object({ collection: collectionSchema }), request.body);
    assertAdmin(request, collection.id, "update");
    const definition = definitionOf(collection);
    referencedCollectionsExist(definition);
    return { collection: wireCollection(store.updateCollection(definition, collection.revision)) };
  });

  app.delete<{ Params: { id: string } }>("/wix-data/v2/collections/:id", async (request) => {
    const query = request.query as { dataCollectionId?: string };
    const id = query.dataCollectionId ?? request.params.id;
    assertAdmin(request, id, "remove");
    store.getCollection(id);
    store.deleteCollection(id);
    return {};
  });
}
