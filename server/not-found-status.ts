import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestContext } from "@/lib/observability/request-context";

/**
 * A page that answered "not found" in place of its content (components/not-found-page.tsx) goes
 * out with 404, a document and a client navigation's payload alike: Next.js's router loads the
 * whole page for a payload that is not a 200, which then shows it. Checked when the headers go
 * out, after the page has rendered. Only a GET's: a server action's answer carries the page it
 * redirects to, rendered in the action's context, and is not itself "not found".
 */
export function answeringNotFound(request: IncomingMessage, response: ServerResponse, context: RequestContext): void {
  if (request.method !== "GET" && request.method !== "HEAD") return;
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((status: number, ...rest: unknown[]) =>
    writeHead(status === 200 && context.notFound ? 404 : status, ...rest)) as ServerResponse["writeHead"];
}
