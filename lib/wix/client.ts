import "server-only";
import { createClient } from "@wix/sdk";
import { items } from "@wix/data";
import { members } from "@wix/members";
import { readSession } from "@/lib/auth/server";

/**
 * A client that authenticates with a given access token and never renews it: renewal
 * belongs to middleware. `useCDN` matches what OAuthStrategy would choose.
 */
export function clientFor(accessToken: string) {
  return createClient({
    modules: { items, members },
    auth: { getAuthHeaders: () => ({ headers: { Authorization: accessToken } }) },
    useCDN: true,
  });
}

/** A client for the visitor or member of the current request. */
export async function sessionClient() {
  const session = await readSession();
  if (!session) throw new Error("No session: middleware did not run for this request.");
  return clientFor(session.accessToken);
}
