import fs from "node:fs/promises";
import path from "node:path";
import formbody from "@fastify/formbody";
import { LOCAL_MAILBOX_PATH } from "@ridgeline/platform-contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { permissionDenied, PlatformError } from "../http/errors";
import { escapeHtml, render } from "../identity/pages";
import { CSRF_HEADER, StudioAccess, STUDIO_PATH, type StudioVisit } from "./access";
import { STUDIO_ASSETS, STUDIO_BUNDLE_FOLDER } from "./bundle";
import { registerCollectionsApi } from "./api/collections";
import { registerMailboxApi } from "./api/mailbox";
import { registerMembersApi } from "./api/members";
import { registerSettingsApi } from "./api/settings";
import { registerRequestsApi } from "./api/requests";

/**
 * The Studio (docs/platform/studio.md): one HTML page that loads the bundled React app, its two
 * assets, the key sign-in for platforms with a key of their own, and the JSON API the app calls
 * under `/_local/studio/api`. Each area's API lives in `api/<area>.ts` and uses the same services
 * as the platform's public routes, so every change is seen by hooks, caches and the site.
 */

/** Decorated on every Studio API request once it is admitted. */
declare module "fastify" {
  interface FastifyRequest {
    studioVisit?: StudioVisit;
  }
}

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

const ASSET_TYPES: Record<string, string> = { [STUDIO_ASSETS.script]: "text/javascript; charset=utf-8", [STUDIO_ASSETS.styles]: "text/css; charset=utf-8" };

const notThisMachine = () => permissionDenied("The Studio opens on this machine only.");
const csrfRefused = () => new PlatformError(403, "CSRF_TOKEN_INVALID", "This request did not come from the Studio's own page. Reload the Studio.");

function shell(visit: StudioVisit, signOut: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="studio-csrf" content="${escapeHtml(visit.csrf)}">
<meta name="studio-sign-out" content="${signOut ? "yes" : "no"}">
<link rel="icon" href="data:,">
<title>Studio · Local platform</title>
<link rel="stylesheet" href="${STUDIO_PATH}/assets/${STUDIO_ASSETS.styles}">
<script type="module" src="${STUDIO_PATH}/assets/${STUDIO_ASSETS.script}"></script>
</head>
<body>
<div id="root"></div>
<noscript><p>The Studio needs JavaScript.</p></noscript>
</body>
</html>
`;
}

function signInPage(failed: boolean, next: string) {
  const error = failed ? `<div class="error" role="alert" id="form-error" tabindex="-1" autofocus>That is not the platform's API key.</div>` : "";
  const keyState = failed ? ` aria-invalid="true" aria-describedby="form-error"` : " autofocus";
  return {
    title: "Studio sign-in",
    content: `<h1>Studio</h1>
<p>This platform has an API key of its own (LOCAL_PLATFORM_API_KEY). Enter it to open the Studio.</p>
${error}
<form method="post" action="${STUDIO_PATH}/sign-in">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="key">API key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required${keyState}>
<button type="submit">Open the Studio</button>
</form>`,
  };
}

/** A Studio path to return to after sign-in; anything else is the Studio's front page. */
function studioPath(value: unknown): string {
  return typeof value === "string" && /^\/_local\/studio(\/[A-Za-z0-9._~%/-]*)?$/.test(value) && !value.includes("//") ? value : STUDIO_PATH;
}

/** An HTML page; X-Frame-Options repeats the policy's frame-ancestors 'none' for browsers that read only the header. */
function sendHtml(reply: FastifyReply, html: string, csp: string) {
  return reply
    .header("content-type", "text/html; charset=utf-8")
    .header("content-security-policy", csp)
    .header("cache-control", "no-store")
    .header("x-content-type-options", "nosniff")
    .header("x-frame-options", "DENY")
    .send(html);
}

export function registerStudio(app: FastifyInstance, ctx: PlatformContext) {
  const access = new StudioAccess(ctx.config);
  // Wrong keys cost the guesser time: ten tries a minute from one address.
  const signInLimit = new RateLimiterMemory({ points: 10, duration: 60 });
  const secure = (request: FastifyRequest) => request.protocol === "https";

  async function page(request: FastifyRequest, reply: FastifyReply) {
    const visit = access.visit(request);
    if (visit) return sendHtml(reply, shell(visit, access.needsSignIn), CSP);
    if (!access.needsSignIn) throw notThisMachine();
    const failed = (request.query as Record<string, unknown>)?.failed === "1";
    const next = studioPath(request.url.split("?")[0]);
    const { html, csp } = render(signInPage(failed, next), ctx.config.siteUrl);
    return sendHtml(reply.status(failed ? 401 : 200), html, csp);
  }

  app.get(STUDIO_PATH, page);
  app.get(`${STUDIO_PATH}/*`, page);
  // The mailbox's old address, still linked from e-mails and bookmarks.
  app.get("/_local/mailbox", (_request, reply) => reply.redirect(LOCAL_MAILBOX_PATH, 308));

  app.get<{ Params: { file: string } }>(`${STUDIO_PATH}/assets/:file`, async (request, reply) => {
    const type = ASSET_TYPES[request.params.file];
    if (!type) return reply.status(404).send({ message: "No such Studio file." });
    const body = await fs.readFile(path.join(STUDIO_BUNDLE_FOLDER, request.params.file)).catch(() => null);
    if (!body) {
      return reply
        .status(503)
        .send({ message: "The Studio is not built: run `npm run build -w @ridgeline/local-platform`, or start the platform with its CLI." });
    }
    return reply.header("content-type", type).header("cache-control", "no-cache").header("x-content-type-options", "nosniff").send(body);
  });

  app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 4096 });
    scope.post(`${STUDIO_PATH}/sign-in`, async (request, reply) => {
      const form = z.object({ key: z.string().max(1024), next: z.string().max(2048).optional() }).safeParse(request.body);
      const next = studioPath(form.data?.next);
      const allowed = await signInLimit.consume(request.ip).then(
        () => true,
        () => false,
      );
      const cookie = allowed && form.success ? access.signIn(form.data.key, secure(request)) : null;
      if (!cookie) return reply.redirect(`${next}?failed=1`, 303);
      return reply.header("set-cookie", cookie).redirect(next, 303);
    });
    scope.post(`${STUDIO_PATH}/sign-out`, async (request, reply) => {
      const visit = access.visit(request);
      const token = (request.body as Record<string, unknown> | undefined)?.csrf;
      if (!visit || !access.csrfValid(visit, typeof token === "string" ? token : undefined)) throw csrfRefused();
      return reply.header("set-cookie", access.signOut(request, secure(request))).redirect(STUDIO_PATH, 303);
    });
  });

  app.register(
    async (api) => {
      // Every answer, refusals included, is JSON (or a download) to be read as what it says it is.
      api.addHook("onSend", async (_request, reply) => {
        reply.header("x-content-type-options", "nosniff");
      });
      api.addHook("onRequest", async (request) => {
        const visit = access.visit(request);
        if (!visit) throw access.needsSignIn ? permissionDenied("Sign in to the Studio first.") : notThisMachine();
        const header = request.headers[CSRF_HEADER];
        const token = typeof header === "string" ? header : undefined;
        if (request.method !== "GET" && request.method !== "HEAD" && !access.csrfValid(visit, token)) throw csrfRefused();
        request.studioVisit = visit;
      });
      registerCollectionsApi(api, ctx);
      registerMailboxApi(api, ctx);
      registerMembersApi(api, ctx);
      registerSettingsApi(api, ctx);
      registerRequestsApi(api, ctx);
    },
    { prefix: `${STUDIO_PATH}/api` },
  );
}
