import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { createRequestListener, type ServeOptions } from "@/server/serve";

type Handle = Parameters<typeof createRequestListener>[0];

/**
 * The production server's request listener (server/serve.ts) in front of `handle`, a stand-in for
 * Next.js, on a free port of 127.0.0.1: no page cache, no server actions, 8 requests at once,
 * unless `options` says otherwise.
 */
export async function startServerEntry(handle: Handle, options: Partial<ServeOptions> = {}): Promise<{ server: http.Server; port: number }> {
  const listener = createRequestListener(handle, {
    log: pino({ level: "silent" }),
    siteOrigin: "http://localhost:3000",
    https: false,
    maxConcurrentRequests: 8,
    pageCache: null,
    actions: { ids: new Set(), formActionIds: new Set() },
    ...options,
  });
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}
