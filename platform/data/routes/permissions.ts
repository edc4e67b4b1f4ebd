import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { CollectionPermissions, DataAction, PermissionRole, SpecialPermission, StoredCollection } from "../collection";
import { permissionDenied } from "../errors";
import { mayAct } from "../permissions";
import { collectionId, parseRequest, requestPayload, type DataServices } from "./common";

/**
 * The permissions API (`@wix/data` `permissions`, under `/wix-data/v1/permissions`): a
 * collection's access levels per action, special permissions that allow members actions
 * whatever the levels, and the caller's own permissions (docs/platform/data.md §10).
 */

const ACTIONS: DataAction[] = ["read", "insert", "update", "remove"];
const WIRE_KEYS = { read: "itemRead", insert: "itemInsert", update: "itemUpdate", remove: "itemRemove" } as const;

/** The permissions API's levels; its PRIVILEGED is the collections API's ADMIN. */
const accessLevel = z
  .enum(["ANYONE", "SITE_MEMBER", "SITE_MEMBER_AUTHOR", "CMS_EDITOR", "PRIVILEGED"])
  .transform((level) => (level === "PRIVILEGED" ? "ADMIN" : level));
const levelOf = (role: PermissionRole) => (role === "ADMIN" ? "PRIVILEGED" : role);
const access = z.enum(["UNSPECIFIED", "ALLOWED"]).optional();

const levelsSchema = z.object({ itemRead: accessLevel, itemInsert: accessLevel, itemUpdate: accessLevel, itemRemove: accessLevel });
const grantSchema = z.object({ itemRead: access, itemInsert: access, itemUpdate: access, itemRemove: access });
/** A member's id names the subject; roles (`policyId`) are not kept by the local platform, which has no collaborators. */
const subjectSchema = z
  .object({ userId: z.string().min(1).max(64).optional(), policyId: z.string().optional() })
  .refine((subject) => subject.policyId === undefined, "policyId is not supported: the local platform has no site roles; name a member with userId")
  .refine((subject) => subject.userId !== undefined, "userId is required");

const collectionRequest = z.object({ dataCollectionId: collectionId });
const updateRequest = z.object({ dataPermissions: levelsSchema.extend({ id: collectionId }) });
const addRequest = z.object({ dataCollectionId: collectionId, specialPermissions: grantSchema.and(subjectSchema) });
const updateSpecialRequest = z.object({ specialPermissions: grantSchema });
const specialIdSchema = z.string().min(1).max(64);

const allowedOf = (grant: z.infer<typeof grantSchema>): DataAction[] => ACTIONS.filter((action) => grant[WIRE_KEYS[action]] === "ALLOWED");

function wireSpecial(grant: SpecialPermission) {
  const accessOf = (action: DataAction) => (grant.allowed.includes(action) ? "ALLOWED" : "UNSPECIFIED");
  return { id: grant.id, userId: grant.userId, ...Object.fromEntries(ACTIONS.map((action) => [WIRE_KEYS[action], accessOf(action)])) };
}

function wirePermissions(collection: StoredCollection) {
  return {
    id: collection.id,
    ...Object.fromEntries(ACTIONS.map((action) => [WIRE_KEYS[action], levelOf(collection.permissions[action])])),
    specialPermissions: collection.specialPermissions.map(wireSpecial),
  };
}

export function registerPermissionRoutes(app: FastifyInstance, services: DataServices) {
  const { store } = services;

  /** Reading and changing permissions is for the site owner (the admin key), as on the platform. */
  const assertOwner = (request: FastifyRequest, id: string) => {
    if (services.ctx.callerOf(request).kind !== "admin") throw permissionDenied(id, "manage permissions");
  };

  app.get("/wix-data/v1/permissions", async (request) => {
    const { dataCollectionId } = parseRequest(collectionRequest, requestPayload(request));
    assertOwner(request, dataCollectionId);
    return { dataPermissions: wirePermissions(store.getCollection(dataCollectionId)) };
  });

  app.post("/wix-data/v1/permissions", async (request) => {
    const { dataPermissions } = parseRequest(updateRequest, request.body);
    assertOwner(request, dataPermissions.id);
    const permissions: CollectionPermissions = Object.fromEntries(
      ACTIONS.map((action) => [action, dataPermissions[WIRE_KEYS[action]]]),
    ) as CollectionPermissions;
    return { dataPermissions: wirePermissions(store.setPermissions(dataPermissions.id, permissions)) };
  });

  app.get("/wix-data/v1/permissions/current", async (request) => {
    const { dataCollectionId } = parseRequest(collectionRequest, requestPayload(request));
    const collection = store.getCollection(dataCollectionId);
    const caller = services.ctx.callerOf(request);
    return Object.fromEntries(ACTIONS.map((action) => [WIRE_KEYS[action], mayAct(collection, action, caller)]));
  });

  app.post("/wix-data/v1/permissions/special", async (request) => {
    const { dataCollectionId, specialPermissions } = parseRequest(addRequest, request.body);
    assertOwner(request, dataCollectionId);
    store.getCollection(dataCollectionId);
    const grant = store.specialPermissions.add(dataCollectionId, specialPermissions.userId as string, allowedOf(specialPermissions));
    return { specialPermissions: wireSpecial(grant) };
  });

  app.post<{ Params: { id: string } }>("/wix-data/v1/permissions/special/:id", async (request) => {
    const id = parseRequest(specialIdSchema, request.params.id);
    const { specialPermissions } = parseRequest(updateSpecialRequest, request.body);
    assertOwner(request, id);
    return { specialPermissions: wireSpecial(store.specialPermissions.update(id, allowedOf(specialPermissions))) };
  });

  app.delete<{ Params: { id: string } }>("/wix-data/v1/permissions/special/:id", async (request) => {
    const id = parseRequest(specialIdSchema, request.params.id);
    assertOwner(request, id);
    store.specialPermissions.remove(id);
    return {};
  });
}
