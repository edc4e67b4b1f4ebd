import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { invalidArgument, invalidClient, invalidRedirectUri, PlatformError, unsupportedIdp, unsupportedIntent } from "../http/errors";
import { platformOrigin } from "../http/origin";
import { SESSION_TOKEN_TTL_MS } from "../identity/iam";
import { HOSTED_PAGES } from "../identity/paths";
import { S256_CHALLENGE } from "../oauth/codes";
import type { RedirectIntent } from "./store";

/** `redirects.createRedirectSession` body (docs/platform/identity.md §2); unknown keys are ignored. */
const authIntent = z.object({
  authRequest: z.object({
    clientId: z.string().min(1),
    responseType: z.literal("code", { error: 'responseType must be "code"' }),
    redirectUri: z.string().min(1).optional(),
    state: z.string().min(1).max(2048),
    responseMode: z.enum(["query", "fragment", "web_message"]).default("fragment"),
    codeChallenge: z.string().regex(S256_CHALLENGE, "codeChallenge must be a base64url SHA-256 digest (43 characters)"),
    codeChallengeMethod: z.literal("S256", { error: 'codeChallengeMethod must be "S256"' }),
    sessionToken: z.string().min(1).optional(),
    idp: z.string().optional(),
    prompt: z.string().optional(),
  }),
  prompt: z.string().optional(),
});
const callbacks = z.object({ postFlowUrl: z.string().optional() }).optional();
const request = z.object({
  auth: authIntent.optional(),
  login: z.object({}).optional(),
  logout: z.object({ clientId: z.string().min(1) }).optional(),
  callbacks,
});

const SUPPORTED_INTENTS = ["auth", "login", "logout"];

function invalid(issues: z.core.$ZodIssue[]): PlatformError {
  const lines = issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`);
  return invalidArgument(`Invalid redirect session request. ${lines.join("; ")}`);
}

export function registerRedirectRoutes(app: FastifyInstance, ctx: PlatformContext) {
  app.post("/_api/redirects-api/v1/redirect-session", async (req) => {
    const caller = ctx.callerOf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== "object" || Array.isArray(body)) throw invalidArgument("Expected a JSON object.");
    const intents = Object.keys(body).filter((key) => key !== "callbacks" && key !== "preferences" && key !== "origin");
    const unsupported = intents.filter((key) => !SUPPORTED_INTENTS.includes(key));
    if (unsupported.length > 0) {
      throw unsupportedIntent(unsupported);
    }
    if (intents.length !== 1) {
      throw invalidArgument("A redirect session needs exactly one intent: auth, login or logout.");
    }
    const parsed = request.safeParse(body);
    if (!parsed.success) throw invalid(parsed.error.issues);
    const { auth, logout } = parsed.data;
    const postFlowUrl = parsed.data.callbacks?.postFlowUrl;

    let intent: RedirectIntent;
    let sessionToken: string | null = null;
    if (auth) {
      const a = auth.authRequest;
      const client = ctx.clients.get(a.clientId);
      if (!client) throw invalidClient(a.clientId);
      // Refused here, before any page exists, so a bad URI never receives a redirect.
      if (a.redirectUri !== undefined && !ctx.clients.isAllowedRedirectUri(client, a.redirectUri)) {
        throw invalidRedirectUri(a.redirectUri, client.id, client.redirectUris);
      }
      if (a.redirectUri === undefined && a.responseMode !== "web_message") {
        throw invalidArgument(`responseMode "${a.responseMode}" needs a redirectUri.`);
      }
      if (a.idp) throw unsupportedIdp();
      const prompt = (auth.prompt ?? a.prompt) === "none" ? "none" : "login";
      // A session token from a form login is good for a short exchange only (docs/platform/identity.md §3.5).
      const loginSession = ctx.loginSessions.byToken(a.sessionToken, SESSION_TOKEN_TTL_MS);
      sessionToken = loginSession ? (a.sessionToken ?? null) : null;
      intent = {
        intent: "auth",
        auth: {
          clientId: client.id,
          redirectUri: a.redirectUri ?? null,
          codeChallenge: a.codeChallenge,
          state: a.state,
          responseMode: a.responseMode,
          prompt,
        },
        loginSessionId: loginSession?.id ?? null,
      };
    } else if (logout) {
      const client = ctx.clients.get(logout.clientId);
      if (!client) throw invalidClient(logout.clientId);
      intent = {
        intent: "logout",
        clientId: client.id,
        returnUrl: ctx.clients.safeReturnUrl(postFlowUrl, client),
        // The SDK asks for the logout page with the member's own token: that names the login session to end.
        loginSessionId: caller.kind === "member" ? caller.loginSessionId : null,
        memberId: caller.kind === "member" ? caller.id : null,
      };
    } else {
      // With a member's token this is a session pre-warm: the page signs the browser in as them.
      intent = { intent: "login", returnUrl: ctx.clients.safeReturnUrl(postFlowUrl), memberId: caller.kind === "member" ? caller.id : null };
    }

    const id = ctx.redirects.create(intent);
    const endpoint = `${platformOrigin(req, ctx.config)}${intent.intent === "logout" ? HOSTED_PAGES.logout : HOSTED_PAGES.login}`;
    const fullUrl = `${endpoint}?${new URLSearchParams({ rs: id })}`;
    return { redirectSession: { id, fullUrl, shortUrl: fullUrl, urlDetails: { endpoint, searchParams: { rs: id } }, sessionToken } };
  });
}
