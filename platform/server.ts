import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import type { PlatformConfig } from "./config";
import { createCallerResolver, type PlatformContext } from "./context";
import { openPlatformDatabase } from "./db";
import { registerDataRoutes } from "./data/routes";
import { DataStore } from "./data/store";
import { registerAdminGuard } from "./http/admin-guard";
import { registerCors } from "./http/cors";
import { errorBody, handleClientError, handleError } from "./http/errors";
import { FaultStore, registerFaultHook } from "./http/faults";
import { registerLocalRoutes } from "./http/local-routes";
import { RequestLog } from "./http/request-log";
import { registerRequestLog } from "./http/request-logging";
import { registerHostedPages } from "./identity/routes";
import { registerIamRoutes } from "./identity/iam-routes";
import { registerSignOnPolicyRoutes } from "./identity/sign-on-policy";
import { SettingsStore } from "./identity/settings";
import { LoginSessionStore } from "./identity/login-sessions";
import { HostedFormStateStore } from "./identity/form-states";
import { RecoveryTokenStore } from "./identity/recovery-tokens";
import { IdentityStore } from "./identity/store";
import { PROOFS_PER_SESSION, PROOF_WINDOW_MS, WRONG_CODES_PER_DAY, WindowLimit, createAddressLimit, createLoginThrottle } from "./identity/throttle";
import { VerificationStore } from "./identity/verifications";
import { FactorStore } from "./identity/factors";
import { RecoveryCodeStore } from "./identity/recovery-codes";
import { RememberedDeviceStore } from "./identity/remembered-devices";
import { PasskeyStore } from "./identity/webauthn-store";
import { Outbox } from "./mail/outbox";
import { registerFollowerRoutes } from "./followers/routes";
import { registerBadgeRoutes } from "./badges/routes";
import { registerBadgeV3Routes } from "./badges/v3-routes";
import { registerCustomFieldApplicationRoutes } from "./custom-fields/applications-routes";
import { registerCustomFieldRoutes } from "./custom-fields/routes";
import { registerCustomFieldSuggestionRoutes } from "./custom-fields/suggestions-routes";
import { registerMemberAboutRoutes } from "./member-abouts/routes";
import { registerMemberBlockRoutes } from "./member-blocks/routes";
import { registerMemberPrivacyRoutes } from "./member-privacy/routes";
import { registerMemberReportRoutes } from "./member-reports/routes";
import { registerMemberRoleRoutes } from "./member-roles/routes";
import { registerMemberRoutes } from "./members/routes";
import { ClientRegistry } from "./oauth/clients";
import { AuthCodeStore } from "./oauth/codes";
import { registerOAuthRoutes } from "./oauth/routes";
import { newSigningKey, storedSigningKey } from "./oauth/access-token";
import { TokenStore } from "./oauth/store";
import { registerRedirectRoutes } from "./redirects/routes";
import { RedirectSessionStore } from "./redirects/store";
import { startPruning } from "./pruning";
import { registerSiteAssetRoutes } from "./site-assets/routes";
import { registerStudio } from "./studio/routes";
import { seedDemoContent, seedDemoMembers, seedLaterDemoCollections, seedOrganiser, seedTrailReports } from "./seed/seed";
import { WebhookKeys } from "./webhooks/keys";
import { registerWebhooks } from "./webhooks/start";

export type Platform = { app: FastifyInstance; ctx: PlatformContext };

/** Items are capped at 500 KB and bulk calls at 1000 items; anything beyond 8 MB is refused with 413. */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export function createPlatform(config: PlatformConfig): Platform {
  const db = openPlatformDatabase(config);
  // Kept in the data folder so tokens issued before a restart still check against the published key.
  const tokens = new TokenStore(db, config.tokenTtlSeconds, Date.now, config.inMemory ? newSigningKey() : storedSigningKey(config.dataDir));
  const ctx: PlatformContext = {
    config,
    db,
    tokens,
    clients: new ClientRegistry(config),
    codes: new AuthCodeStore(db, config.authCodeTtlSeconds),
    identities: new IdentityStore(db),
    verifications: new VerificationStore(db),
    factors: new FactorStore(db),
    recoveryCodes: new RecoveryCodeStore(db),
    rememberedDevices: new RememberedDeviceStore(db),
    passkeys: new PasskeyStore(db),
    recoveries: new RecoveryTokenStore(db),
    loginSessions: new LoginSessionStore(db),
    formStates: new HostedFormStateStore(db),
    settings: new SettingsStore(config.signup),
    outbox: new Outbox(db),
    loginThrottle: createLoginThrottle(),
    sessionProofs: new WindowLimit(PROOFS_PER_SESSION, Date.now, PROOF_WINDOW_MS),
    addressLimit: createAddressLimit(),
    mailLimit: new WindowLimit(),
    wrongCodes: new WindowLimit(WRONG_CODES_PER_DAY, Date.now, 24 * 60 * 60 * 1000),
    redirects: new RedirectSessionStore(db),
    data: new DataStore(db),
    faults: new FaultStore(config.faults),
    requests: new RequestLog(),
    callerOf: createCallerResolver(config, tokens),
    webhookKeys: new WebhookKeys(config.dataDir),
  };
  const contentSeeded = seedDemoContent(ctx.data);
  const rostersAdded = seedLaterDemoCollections(ctx.data);

  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    clientErrorHandler: handleClientError,
    logger: { level: config.logLevel },
  });

  // Every reply, errors included, carries the request id the SDK quotes in its errors. No CORS
  // headers unless the owner names origins: the site calls from its server and browsers only
  // navigate to hosted pages, so no web page may read the platform's answers (docs/platform/operations.md §1).
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-wix-request-id", request.id);
  });
  // Before the guards, so calls they refuse are logged too.
  registerRequestLog(app, ctx.requests, config, tokens);
  registerCors(app, config);
  registerAdminGuard(app, config);
  registerFaultHook(app, ctx.faults);

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
  registerIamRoutes(app, ctx);
  registerSignOnPolicyRoutes(app, ctx);
  registerMemberRoutes(app, ctx);
  registerFollowerRoutes(app, ctx);
  registerMemberBlockRoutes(app, ctx);
  registerMemberPrivacyRoutes(app, ctx);
  registerMemberAboutRoutes(app, ctx);
  registerMemberReportRoutes(app, ctx);
  registerMemberRoleRoutes(app, ctx);
  registerBadgeRoutes(app, ctx);
  registerBadgeV3Routes(app, ctx);
  registerCustomFieldRoutes(app, ctx);
  registerCustomFieldApplicationRoutes(app, ctx);
  registerCustomFieldSuggestionRoutes(app, ctx);
  registerDataRoutes(app, ctx);
  registerSiteAssetRoutes(app, ctx);
  registerStudio(app, ctx);

  const webhooks = registerWebhooks(app, ctx);
  // Hashing the demo password is asynchronous; listen() waits for this before serving.
  app.addHook("onReady", async () => {
    const membersSeeded = await seedDemoMembers(db, ctx.identities);
    if (contentSeeded || membersSeeded) seedTrailReports(ctx.data, ctx.identities);
    if (contentSeeded || membersSeeded || rostersAdded) seedOrganiser(ctx.data, ctx.identities);
    // Watched from here on: seeding happens before the site can have cached anything.
    webhooks.start();
  });
  const stopPruning = startPruning(ctx, app.log);
  app.addHook("onClose", async () => {
    stopPruning();
    // Webhook events written just before a stop are still sent: read from the database before it closes.
    const sent = webhooks.flush();
    db.close();
    await sent;
  });
  return { app, ctx };
}

export async function startPlatform(config: PlatformConfig): Promise<Platform & { url: string }> {
  const platform = createPlatform(config);
  const address = await platform.app.listen({ port: config.port, host: config.host });
  return { ...platform, url: address };
}
