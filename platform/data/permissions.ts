import type { Caller } from "../types";
import { permissionDenied } from "./errors";
import type { CollectionDefinition, PermissionRole } from "./collection";

export type DataAction = "read" | "insert" | "update" | "remove";

/** `_owner` stamped on items written with the admin API key (the local site's owner). */
export const SITE_OWNER_ID = "local-site-owner";

const SIGNED_IN = new Set<Caller["kind"]>(["member", "admin"]);

function satisfies(role: PermissionRole, action: DataAction, caller: Caller): boolean {
  switch (role) {
    case "ANYONE":
      return true;
    case "SITE_MEMBER":
      return SIGNED_IN.has(caller.kind);
    case "SITE_MEMBER_AUTHOR":
      // Authors read only their own items, so anyone may run a read and simply sees nothing
      // that is not theirs; writes still need a signed-in caller.
      return action === "read" || SIGNED_IN.has(caller.kind);
    case "ADMIN":
      return caller.kind === "admin";
  }
}

export function isPermitted(collection: CollectionDefinition, action: DataAction, caller: Caller): boolean {
  return satisfies(collection.permissions[action], action, caller);
}

/** Throws the platform's WDE0027 denial unless the caller holds the collection's role for the action. */
export function assertPermitted(collection: CollectionDefinition, action: DataAction, caller: Caller): void {
  if (!isPermitted(collection, action, caller)) throw permissionDenied(collection.id, action);
}

/** The owner id a write by this caller stamps (`null`: an anonymous REST call). */
export function ownerOf(caller: Caller): string | null {
  if (caller.kind === "admin") return SITE_OWNER_ID;
  return caller.kind === "anonymous" ? null : caller.id;
}

/** Under SITE_MEMBER_AUTHOR, a member acts on their own items only; admins on all. */
function ownerScoped(collection: CollectionDefinition, action: DataAction, caller: Caller): boolean {
  return collection.permissions[action] === "SITE_MEMBER_AUTHOR" && caller.kind !== "admin";
}

/** Rows an action may reach: all of them (undefined), or only one owner's (`ownerId: null`: none). */
export type ReadScope = { ownerId: string | null } | undefined;

/** Everything, or under SITE_MEMBER_AUTHOR the caller's own items. */
export function rowScope(collection: CollectionDefinition, caller: Caller, action: DataAction = "read"): ReadScope {
  return ownerScoped(collection, action, caller) ? { ownerId: ownerOf(caller) } : undefined;
}

export function mayTouchItem(collection: CollectionDefinition, action: DataAction, caller: Caller, item: Record<string, unknown>): boolean {
  return !ownerScoped(collection, action, caller) || (item._owner !== undefined && item._owner === ownerOf(caller));
}
