import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Outside a Next.js server, `unstable_cache` finds no cache to use. Tests get Next's own
 * incremental cache, in memory, so cached reads behave as they do in the site. (Next's server
 * puts AsyncLocalStorage on globalThis before its modules load; so does this.)
 */
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
const { IncrementalCache } = await import("next/dist/server/lib/incremental-cache");
const { nodeFs } = await import("next/dist/server/lib/node-fs-methods");
(globalThis as { __incrementalCache?: unknown }).__incrementalCache = new IncrementalCache({
  fs: nodeFs,
  serverDistDir: fs.mkdtempSync(path.join(os.tmpdir(), "next-cache-")),
  flushToDisk: false,
  dev: false,
  minimalMode: false,
  requestHeaders: {},
  allowedRevalidateHeaderKeys: [],
  fetchCacheKeyPrefix: "",
  maxMemoryCacheSize: 16 * 1024 * 1024,
  previewProps: { previewModeId: "test", previewModeSigningKey: "test", previewModeEncryptionKey: "test" },
  prerenderManifest: {
    version: 4,
    routes: {},
    dynamicRoutes: {},
    notFoundRoutes: [],
    preview: { previewModeId: "test", previewModeSigningKey: "test", previewModeEncryptionKey: "test" },
  },
});
