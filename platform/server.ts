import path from "node:path";
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import type { PlatformConfig } from "./config";
import { createCallerResolver, type PlatformContext } from "./context";
import { openDatabase } from "./db";
import { registerDataRoutes } from "./data/routes";
import { migrateData } from "./data/store";
import { errorBody, handleError } from "./http/errors";
import { registerLocalRoutes } from "./http/local-routes";
import { registerHostedPages } from "./identity/routes";
import { IdentityStore, migrateIdentity } from "./identity/store";
import { registerMemberRoutes } from "./members/routes";
import { ClientRegistry } from "./oauth/clients";
import { AuthCodeStore, migrateAuthCodes } from "./oauth/codes";
import { registerOAuthRoutes } from "./oauth/routes";
import { migrateOAuth, TokenStore } from "./oauth/store";
import { registerRedirectRoutes } from "./redirects/routes";
import { migrateRedirects, RedirectSessionStore } from "./redirects/store";
import { seedDemoContent, seedDemoMember } from "./seed/seed";

export type Platform = { app: FastifyInstance; ctx: PlatformContext };

/** Items are capped at 500 KB and bulk calls at 1000 items; anything beyond 8 MB is refused with 413. */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers":
    "authorization, content-type, x-wix-bi-gateway, x-wix-consistent, client-binding, wix-site-id, wix-account-id",
  "access-control-expose-headers": "x-wix-request-id, x-wix-consistent",
};

export function createPlatform(config: PlatformConfig): Platform {
  const db = openDatabase(config.inMemory ? ":memory:" : path.join(config.dataDir, "platform.db"), [
    migrateOAuth,
    migrateAuthCodes,
    migrateIdentity,
    migrateRedirects,
    migrateData,
  ]);
  const tokens = new TokenStore(db, config.tokenTtlSeconds);
  const ctx: PlatformContext = {
    config,
    db,
    tokens,
    clients: new ClientRegistry(config),
    codes: new AuthCodeStore(db, config.authCodeTtlSeconds),
    identities: new IdentityStore(db),
    redirects: new RedirectSessionStore(db),
    callerOf: createCallerResolver(config, tokens),
  };
  seedDemoContent(db);

  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    logger: { level: config.logLevel },
  });

  // Every reply, errors included, carries the request id the SDK quotes in its errors.
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-wix-request-id", request.id);
    for (const [name, value] of Object.entries(CORS_HEADERS)) reply.header(name, value);
  });
  app.options("*", async (_request, reply) => reply.status(204).send());

  // The SDK sends `Content-Type: application/json` on bodiless calls too.
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new SyntaxError("Request body is not valid JSON."), { statusCode: 400 }), undefined);
    }
  });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody("NOT_FOUND", `No such endpoint: ${request.method} ${request.url.split("?")[0]}`));
  });

  registerLocalRoutes(app, ctx);
  registerOAuthRoutes(app, ctx);
  registerRedirectRoutes(app, ctx);
  registerHostedPages(app, ctx);
  registerMemberRoutes(app, ctx);
  registerDataRoutes(app, ctx);

  // Hashing the demo password is asynchronous; listen() waits for this before serving.
  app.addHook("onReady", async () => {
    await seedDemoMember(ctx.identities);
  });
  app.addHook("onClose", async () => db.close());
  return { app, ctx };
}

export async function startPlatform(config: PlatformConfig): Promise<Platform & { url: string }> {
  const platform = createPlatform(config);
  const address = await platform.app.listen({ port: config.port, host: config.host });
  return { ...platform, url: address };
}
