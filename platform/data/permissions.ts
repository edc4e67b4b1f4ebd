import type { Caller } from "../context";
import { PlatformError } from "../http/errors";
import type { CollectionDefinition, PermissionRole } from "./store";

export type DataAction = "read" | "insert" | "update" | "remove";

function satisfies(role: PermissionRole, caller: Caller): boolean {
  switch (role) {
    case "ANYONE":
      return true;
    case "SITE_MEMBER":
    case "SITE_MEMBER_AUTHOR":
      return caller.kind === "member" || caller.kind === "admin";
    case "ADMIN":
      return caller.kind === "admin";
  }
}

/** Throws the platform's WDE0027 denial unless the caller holds the collection's role for the action. */
export function assertPermitted(collection: CollectionDefinition, action: DataAction, caller: Caller): void {
  if (!satisfies(collection.permissions[action], caller)) {
    throw new PlatformError(
      403,
      "WDE0027",
      `The current user does not have permissions to ${action} on the ${collection.id} collection.`,
      { collectionId: collection.id, action },
    );
  }
}
