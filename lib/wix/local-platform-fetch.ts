import { getConfig } from "@/lib/config";
import { routeWixApis } from "@ridgeline/platform-contract";

const INSTALLED = Symbol.for("wix-member-site.local-platform-fetch");

type Fetch = typeof globalThis.fetch;

/**
 * Local mode only, on the server only: sends the `@wix/*` packages' requests to the local
 * platform. They call the global fetch (token calls ignore any fetch given to createClient),
 * and Next.js replaces `globalThis.fetch` more than once (its own patch, and a reset on every
 * dev recompile), so the routing is an accessor that wraps whichever fetch was assigned last
 * rather than a one-time assignment that a reset would undo.
 */
export function installLocalPlatformRouting(): void {
  const { localPlatformUrl } = getConfig();
  const global = globalThis as typeof globalThis & { [INSTALLED]?: true };
  if (!localPlatformUrl || global[INSTALLED]) return;
  let assigned: Fetch = globalThis.fetch;
  const routed = new WeakMap<Fetch, Fetch>();
  Object.defineProperty(globalThis, "fetch", {
    configurable: true,
    enumerable: true,
    get() {
      let fetch = routed.get(assigned);
      if (!fetch) routed.set(assigned, (fetch = routeWixApis(localPlatformUrl, assigned)));
      return fetch;
    },
    set(value: Fetch) {
      assigned = value;
    },
  });
  global[INSTALLED] = true;
}
