import type { IncomingMessage, ServerResponse } from "node:http";
import { inject } from "light-my-request";
import { runInRequestContext, type RequestContext } from "@/lib/observability/request-context";
import { CACHE_RENDER_HEADER } from "@/lib/security/policy";
import type { Rendered } from "./page";
import type { PageTarget } from "./request-key";

type Handle = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** A render that takes longer has gone wrong; the requests waiting for it are answered by Next.js on their own. */
const RENDER_TIMEOUT_MS = 30_000;

/**
 * Renders a page for the cache through Next.js's own handler, as a request of its own that no
 * client holds (light-my-request): a visitor's GET of the canonical URL, no cookie (or the
 * template member's, `cookie`), the RSC headers of the key, and the header that tells middleware
 * to leave out the nonce. The render
 * runs in a request context that collects the data tags it reads.
 */
export async function renderForCache(handle: Handle, target: PageTarget, host: string, cookie?: string): Promise<Rendered & { platformRequestIds: string[] }> {
  const context: RequestContext = {
    socketAddress: null,
    platformRequestIds: [],
    render: { tags: new Set(), degraded: false, personal: false, owners: new Set() },
  };
  const dispatch = (request: IncomingMessage, response: ServerResponse) => {
    runInRequestContext(context, () => handle(request, response)).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${RENDER_TIMEOUT_MS / 1000} s`)), RENDER_TIMEOUT_MS);
  });
  try {
    const answer = await Promise.race([
      inject(dispatch, { method: "GET", url: target.url, headers: { host, ...target.headers, ...(cookie && { cookie }), [CACHE_RENDER_HEADER]: "1" } }),
      timeout,
    ]);
    return {
      // A page's "not found" (components/not-found-page.tsx) is a 404, never kept, also when its
      // status went out before the page had decided (a client navigation's streamed payload).
      status: context.notFound && answer.statusCode === 200 ? 404 : answer.statusCode,
      headers: answer.headers,
      body: answer.rawPayload,
      tags: [...context.render!.tags],
      degraded: context.render!.degraded,
      personal: context.render!.personal,
      owners: [...context.render!.owners],
      platformRequestIds: context.platformRequestIds,
    };
  } finally {
    clearTimeout(timer);
  }
}
