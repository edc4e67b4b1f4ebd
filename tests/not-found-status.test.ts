import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { noteNotFound } from "@/lib/observability/request-context";
import { startServerEntry } from "./support/server-entry";

/**
 * A page that answers "not found" in place of its content (components/not-found-page.tsx) goes out
 * with 404: the production server's listener in front of a stand-in for Next.js that renders such
 * a page with 200, as Next.js does.
 */
describe("a page's not-found answer", () => {
  const closers: Array<() => void> = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  async function site() {
    const handle = async (request: IncomingMessage, response: ServerResponse) => {
      if (request.url!.includes("missing")) noteNotFound();
      response.writeHead(request.url!.includes("moved") ? 303 : 200, { "content-type": "text/html" });
      response.end("page");
    };
    const { server, port } = await startServerEntry(handle);
    closers.push(() => server.close());
    return (path: string, method = "GET") => fetch(`http://127.0.0.1:${port}${path}`, { method, redirect: "manual" }).then((answer) => answer.status);
  }

  it("is sent with 404; other pages, other statuses and other methods are left as they are", async () => {
    const status = await site();
    expect(await status("/trails/missing")).toBe(404);
    expect(await status("/trails/missing", "HEAD")).toBe(404);
    expect(await status("/trails/summit-loop")).toBe(200);
    expect(await status("/missing/moved")).toBe(303);
    expect(await status("/api/missing", "POST")).toBe(200);
  });
});
