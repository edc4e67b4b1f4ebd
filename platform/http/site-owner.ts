import type { Caller } from "../types";
import { permissionDenied } from "./errors";

/** Refuses every caller but the site owner (the API key, or an app's own token), naming the call refused. */
export function requireSiteOwner(caller: Caller, action: string): void {
  if (caller.kind !== "admin") throw permissionDenied(`${action} needs the site's API key or an app's token.`);
}
