import type { Caller } from "../types";
import { permissionDenied } from "./errors";
import type { CollectionDefinition, DataAction, PermissionRole, SpecialPermission } from "./collection";

/** `_owner` stamped on items written with the admin API key (the local site's owner). */
export const SITE_OWNER_ID = "local-site-owner";

/** What the rules read of a collection: its levels and, once stored, its special permissions. */
type Rules = Pick<CollectionDefinition, "permissions"> & { specialPermissions?: SpecialPermission[] };

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
    // The local platform has no collaborators: the site owner (the admin key) is the only one
    // above members, so the CMS editors' level and the site admins' level admit the same caller.
    case "CMS_EDITOR":
    case "ADMIN":
      return caller.kind === "admin";
  }
}

/** A special permission allows the member this action, whatever the collection's level for it. */
function granted(collection: Rules, action: DataAction, caller: Caller): boolean {
  if (caller.kind !== "member") return false;
  return (collection.specialPermissions ?? []).some((grant) => grant.userId === caller.id && grant.allowed.includes(action));
}

export function isPermitted(collection: Rules, action: DataAction, caller: Caller): boolean {
  return granted(collection, action, caller) || satisfies(collection.permissions[action], action, caller);
}

/** Throws the platform's WDE0027 denial unless the caller holds the collection's role for the action. */
export function assertPermitted(collection: Rules & { id: string }, action: DataAction, caller: Caller): void {
  if (!isPermitted(collection, action, caller)) throw permissionDenied(collection.id, action);
}

/** The owner id a write by this caller stamps (`null`: an anonymous REST call). */
export function ownerOf(caller: Caller): string | null {
  if (caller.kind === "admin") return SITE_OWNER_ID;
  return caller.kind === "anonymous" ? null : caller.id;
}

/** Under SITE_MEMBER_AUTHOR, a member acts on their own items only; admins, and members granted the action, on all. */
function ownerScoped(collection: Rules, action: DataAction, caller: Caller): boolean {
  return collection.permissions[action] === "SITE_MEMBER_AUTHOR" && caller.kind !== "admin" && !granted(collection, action, caller);
}

/** Rows an action may reach: all of them (undefined), or only one owner's (`ownerId: null`: none). */
export type ReadScope = { ownerId: string | null } | undefined;

/** Everything, or under SITE_MEMBER_AUTHOR the caller's own items. */
export function rowScope(collection: Rules, caller: Caller, action: DataAction = "read"): ReadScope {
  return ownerScoped(collection, action, caller) ? { ownerId: ownerOf(caller) } : undefined;
}

/** Whether the caller may act at all and reach some rows (the permissions API's "my permissions"). */
export function mayAct(collection: Rules, action: DataAction, caller: Caller): boolean {
  return isPermitted(collection, action, caller) && rowScope(collection, caller, action)?.ownerId !== null;
}

export function mayTouchItem(collection: Rules, action: DataAction, caller: Caller, item: Record<string, unknown>): boolean {
  return !ownerScoped(collection, action, caller) || (item._owner !== undefined && item._owner === ownerOf(caller));
}
