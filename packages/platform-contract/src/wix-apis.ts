// No Node built-ins here: browsers and Edge runtimes import this file alone
// (`@ridgeline/platform-contract/wix-apis`, platform/README.md "Your own app").

/**
 * The `@wix/*` packages hard-code https://www.wixapis.com and https://edge.wixapis.com, so a
 * fetch that talks to the local platform re-addresses requests for those hosts to it,
 * keeping path and query.
 */
const WIX_API_HOSTS = new Set(["www.wixapis.com", "edge.wixapis.com"]);

type Fetch = typeof globalThis.fetch;

export function routeWixApis(platformUrl: string, upstream: Fetch): Fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!WIX_API_HOSTS.has(url.hostname)) return upstream(input, init);
    const target = new URL(url.pathname + url.search, platformUrl);
    return upstream(input instanceof Request ? new Request(target, input) : target, init);
  };
}
