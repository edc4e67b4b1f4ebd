// `node --import @ridgeline/local-platform/register app.mjs`: the app's `@wix/*` clients talk to
// the local platform instead of www.wixapis.com and edge.wixapis.com, with no change to the app.
// The platform's address is LOCAL_PLATFORM_URL, by default the one `npx local-wix-platform`
// listens on. It wraps the global fetch with routeWixApis, as the site does (platform/README.md,
// "Your own app").
import { tsImport } from "tsx/esm/api";

const DEFAULT_PLATFORM_URL = "http://127.0.0.1:4010";
const platformUrl = process.env.LOCAL_PLATFORM_URL || DEFAULT_PLATFORM_URL;
if (!URL.canParse(platformUrl) || !/^https?:$/.test(new URL(platformUrl).protocol)) {
  throw new Error(`LOCAL_PLATFORM_URL must be the local platform's http(s) address, such as ${DEFAULT_PLATFORM_URL}; it is "${platformUrl}".`);
}

// The contract is TypeScript; tsx loads it (and only it) without registering itself for the app.
const { routeWixApis } = await tsImport("@ridgeline/platform-contract/wix-apis", import.meta.url);
globalThis.fetch = routeWixApis(platformUrl, globalThis.fetch);
