import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestContext } from "@/lib/observability/request-context";

/**
 * A page that answered "not found" in place of its content (components/not-found-page.tsx) goes
 * out with 404. Checked when the headers go out: a document's, after the page has rendered (its
 * shell waits for the page). A client navigation's payload is streamed before the page has decided,
 * so it goes out with 200 and the router shows the page in place; the page cache, which holds a
 * render whole, gives it its 404 (server/page-cache/render.ts). Only a GET's: a server action's
 * answer carries the page it redirects to, rendered in the action's context, and is not itself
 * "not found".
 */
export function answeringNotFound(request: IncomingMessage, response: ServerResponse, context: RequestContext): void {
  if (request.method !== "GET" && request.method !== "HEAD") return;
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((status: number, ...rest: unknown[]) =>
    writeHead(status === 200 && context.notFound ? 404 : status, ...rest)) as ServerResponse["writeHead"];
}
