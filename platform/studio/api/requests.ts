import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../../context";
import { invalidArgument } from "../../http/errors";
import { entryMatches, type LoggedRequest } from "../../http/request-entry";

const FILTER = z.object({
  path: z.string().trim().max(2048).optional(),
  status: z
    .string()
    .trim()
    .regex(/^(all|errors|[1-5]xx|[1-5]\d\d)?$/)
    .optional(),
});

/** A comment line now and then keeps proxies and the browser from taking a quiet stream for a dead one. */
const KEEP_ALIVE_MS = 15_000;
/** How long the browser waits before reconnecting after the stream drops. */
const RETRY_MS = 2000;

const event = (name: string, data: unknown, id?: string) => `${id ? `id: ${id}\n` : ""}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The request log (docs/platform/studio.md §6): a filtered list, newest first, and a stream of
 * server-sent events. A new stream starts with a `reset` event holding the whole log; a browser
 * reconnecting with `Last-Event-ID` gets only what it missed, or a `reset` when that is gone.
 */
export function registerRequestsApi(api: FastifyInstance, ctx: PlatformContext) {
  api.get("/requests", async (request) => {
    const filter = FILTER.safeParse(request.query ?? {});
    if (!filter.success) throw invalidArgument("Give `path` as part of a path and `status` as all, errors, 4xx or an exact status such as 404.");
    const { path = "", status = "" } = filter.data;
    const requests = ctx.requests
      .list()
      .filter((entry) => entryMatches(entry, { path, status }))
      .reverse();
    return { requests, capacity: ctx.requests.capacity };
  });

  const streams = new Set<ServerResponse>();
  // An open stream would hold `close()` until the browser leaves: end them first, and their
  // connections with them rather than wait for each reader to hang up.
  api.addHook("preClose", async () => {
    for (const stream of streams) stream.end(() => stream.socket?.destroy());
  });

  api.get("/requests/stream", (request, reply) => {
    const lastId = request.headers["last-event-id"];
    const missed = typeof lastId === "string" ? ctx.requests.since(lastId) : null;
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-accel-buffering": "no",
      // The connection is the stream's alone: ending the stream ends it, so a stopping platform is not kept waiting.
      connection: "close",
    });
    const send = (entry: LoggedRequest) => stream.write(event("request", entry, entry.id));
    stream.write(`retry: ${RETRY_MS}\n\n`);
    if (missed) missed.forEach(send);
    else {
      const entries = ctx.requests.list();
      stream.write(event("reset", { requests: entries, capacity: ctx.requests.capacity }, entries.at(-1)?.id));
    }
    const unsubscribe = ctx.requests.subscribe(send);
    const keepAlive = setInterval(() => stream.write(": still here\n\n"), KEEP_ALIVE_MS);
    streams.add(stream);
    stream.on("close", () => {
      clearInterval(keepAlive);
      unsubscribe();
      streams.delete(stream);
    });
  });
}
