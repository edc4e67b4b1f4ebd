import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { z } from "zod";
import { externalLoginToken, type PlatformContext } from "../context";
import { errorBody, notFound, permissionDenied, unauthenticated } from "../http/errors";
import { MemberStore } from "../members/store";
import { LOCAL_INSTANCE_ID, publicJwk, readAccessToken } from "./access-token";
import { hashToken, type IssuedTokens } from "./store";

/** The grants `POST /oauth2/token` answers (docs/platform/oauth.md §2); the client-coverage audit reads them too. */
export const TOKEN_GRANTS = ["anonymous", "refresh_token", "authorization_code", "authorized_client", "client_credentials"] as const;

/** Token grants; bodies mix camelCase and snake_case (docs/platform/oauth.md §2). */
const tokenRequest = z.union([
  z.object({ grantType: z.literal("anonymous"), clientId: z.string().min(1) }),
  z.object({ grantType: z.literal("refresh_token"), clientId: z.string().min(1), refreshToken: z.string().min(1) }),
  z.object({
    grantType: z.literal("authorization_code"),
    clientId: z.string().min(1),
    code: z.string().min(1).max(512),
    codeVerifier: z.string().min(1).max(512),
    redirectUri: z.string().min(1).optional(),
  }),
]);

/** The external-login grant; the client comes from the access token in the header, not the body. */
const authorizedClientRequest = z.object({
  memberId: z.string().min(1).max(100),
  sessionToken: z.string().min(1).max(512).optional(),
});

/** The client_credentials grant as `AppStrategy` sends it (snake_case); camelCase is taken too, as for the other grants. */
const clientCredentialsRequest = z.object({
  clientId: z.string().min(1).max(200),
  clientSecret: z.string().min(1).max(512),
  instanceId: z.string().min(1).max(200),
});

function oauthError(error: string, description: string) {
  return { error, error_description: description };
}

const rawHttpRequest = z.object({ body: z.base64().max(16_384) });
const camelCase = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The request `@wix/identity`'s `oauth.token` and `oauth.tokenInfo` send: the raw HTTP request,
 * its body as bytes (`{"body": "<base64>"}` on the wire), holding JSON or a form (RFC 6749, RFC
 * 7662). Its fields, with snake_case names in camelCase as the SDK's own JSON calls send them;
 * null when the request is not of that form.
 */
function rawRequestFields(body: unknown): Record<string, unknown> | null {
  const raw = rawHttpRequest.safeParse(body);
  if (!raw.success) return null;
  const text = Buffer.from(raw.data.body, "base64").toString("utf8");
  let fields: unknown;
  try {
    fields = JSON.parse(text);
  } catch {
    fields = Object.fromEntries(new URLSearchParams(text));
  }
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return {};
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [camelCase(key), value]));
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: PlatformContext) {
  // Each anonymous grant stores a new pair, so one address may not mint them without end. Keyed
  // by the socket's address: nothing in front of the platform is trusted to name the client.
  const anonymousGrants = new RateLimiterMemory({ points: ctx.config.anonymousGrantsPerMinute, duration: 60 });

  /** Exchanges an authorization code for a member pair tied to the login session it came from. */
  function exchangeCode(grant: { clientId: string; code: string; codeVerifier: string; redirectUri?: string }): IssuedTokens | string {
    const result = ctx.codes.redeem(grant.code, {
      clientId: grant.clientId,
      redirectUri: grant.redirectUri ?? null,
      codeVerifier: grant.codeVerifier,
    });
    if (!result.ok) {
      // A replayed code may be in an attacker's hands: what it issued the first time is revoked too (RFC 6749 §4.1.2).
      if (result.issuedRefreshHash) ctx.tokens.revokeRefreshHash(result.issuedRefreshHash);
      return result.reason;
    }
    const { memberId, loginSessionId } = result.grant;
    if (!ctx.loginSessions.byId(loginSessionId)) return "The sign-in this code came from has ended.";
    const issued = ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: grant.clientId, loginSessionId });
    ctx.codes.recordIssued(grant.code, hashToken(issued.refreshToken));
    return issued;
  }

  /**
   * `authorized_client`: a server holding the API key signs a member in without their password
   * (docs/platform/oauth.md §3). With a session token, the pair is tied to that member's login session.
   */
  function authorizeClient(
    authorization: string | undefined,
    body: Record<string, unknown>,
  ): IssuedTokens | { status: number; error: string; description: string } {
    const accessToken = externalLoginToken(ctx.config, authorization);
    if (!accessToken)
      return { status: 401, error: "invalid_client", description: "authorized_client needs the header `<access token>,<API key>` with the site's API key." };
    const caller = ctx.tokens.resolveAccess(accessToken);
    if (!caller) return { status: 401, error: "invalid_client", description: "The access token in the header is invalid or has expired." };
    const parsed = authorizedClientRequest.safeParse({ memberId: body.member_id ?? body.memberId, sessionToken: body.session_token ?? body.sessionToken });
    if (!parsed.success) return { status: 400, error: "invalid_request", description: "authorized_client needs member_id." };
    const { memberId, sessionToken } = parsed.data;
    const member = ctx.identities.get(memberId);
    if (!member || member.status === "BLOCKED") return { status: 400, error: "invalid_grant", description: "No member with this id can sign in." };
    let loginSessionId: string | null = null;
    if (sessionToken !== undefined) {
      const session = ctx.loginSessions.byToken(sessionToken);
      if (!session || session.memberId !== memberId)
        return { status: 400, error: "invalid_grant", description: "The session token is not a live session of this member." };
      loginSessionId = session.id;
    }
    return ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: caller.clientId, loginSessionId });
  }

  /**
   * `client_credentials`: an app registered with a secret gets a token of its own identity for the
   * local site's instance (docs/platform/oauth.md §5). A wrong secret is `invalid_client` whatever
   * the client id, so the answer does not tell which clients exist.
   */
  function appToken(body: Record<string, unknown>): { accessToken: string; expiresIn: number } | { status: number; error: string; description: string } {
    const parsed = clientCredentialsRequest.safeParse({
      clientId: body.client_id ?? body.clientId,
      clientSecret: body.client_secret ?? body.clientSecret,
      instanceId: body.instance_id ?? body.instanceId,
    });
    if (!parsed.success) return { status: 400, error: "invalid_request", description: "client_credentials needs client_id, client_secret and instance_id." };
    const { clientId, clientSecret, instanceId } = parsed.data;
    const client = ctx.clients.get(clientId);
    if (!client || !ctx.clients.hasSecret(client, clientSecret)) {
      return { status: 401, error: "invalid_client", description: "Unknown client, or the secret is not the client's." };
    }
    if (instanceId !== LOCAL_INSTANCE_ID) {
      return { status: 400, error: "invalid_grant", description: `The app has no instance ${instanceId}; the local site's instance is ${LOCAL_INSTANCE_ID}.` };
    }
    return ctx.tokens.issueApp(clientId);
  }

  /**
   * `oauth.token` sends the raw request and reads a RawHttpResponse back: its fields are answered as
   * any token request's, and the answer (status and body) goes inside `{body, statusCode, headers}`.
   */
  const rawTokenRequests = new WeakSet<FastifyRequest>();
  const unwrapRawRequest = async (request: FastifyRequest) => {
    const fields = rawRequestFields(request.body);
    if (!fields) return;
    request.body = fields;
    rawTokenRequests.add(request);
  };
  const wrapRawResponse = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!rawTokenRequests.has(request)) return payload;
    const statusCode = reply.statusCode;
    const headers = [{ key: "Content-Type", value: "application/json" }];
    const retryAfter = reply.getHeader("retry-after");
    if (retryAfter !== undefined) headers.push({ key: "Retry-After", value: String(retryAfter) });
    reply.code(200).header("content-type", "application/json; charset=utf-8").removeHeader("retry-after");
    return JSON.stringify({ body: Buffer.from(String(payload)).toString("base64"), statusCode, headers });
  };

  app.post("/oauth2/token", { preHandler: unwrapRawRequest, onSend: wrapRawResponse }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if ((body.grantType ?? body.grant_type) === "client_credentials") {
      const issued = appToken(body);
      if ("error" in issued) return reply.status(issued.status).send(oauthError(issued.error, issued.description));
      return { access_token: issued.accessToken, token_type: "Bearer", expires_in: issued.expiresIn };
    }
    if ((body.grantType ?? body.grant_type) === "authorized_client") {
      const issued = authorizeClient(request.headers.authorization, body);
      if ("error" in issued) return reply.status(issued.status).send(oauthError(issued.error, issued.description));
      return tokenResponse(issued);
    }
    const parsed = tokenRequest.safeParse({ ...body, grantType: body.grantType ?? body.grant_type });
    if (!parsed.success) {
      const grant = body.grantType ?? body.grant_type;
      return reply
        .status(400)
        .send(
          oauthError(
            (TOKEN_GRANTS as readonly unknown[]).includes(grant) ? "invalid_request" : "unsupported_grant_type",
            `Unsupported or malformed token request (grant ${String(grant ?? "missing")}; the platform answers ${TOKEN_GRANTS.join(", ")}).`,
          ),
        );
    }
    const grant = parsed.data;
    if (!ctx.clients.get(grant.clientId)) {
      return reply.status(401).send(oauthError("invalid_client", "Unknown client id."));
    }
    if (grant.grantType === "authorization_code") {
      const issued = exchangeCode(grant);
      if (typeof issued === "string") return reply.status(400).send(oauthError("invalid_grant", issued));
      return tokenResponse(issued);
    }
    if (grant.grantType === "anonymous") {
      const refusal = await anonymousGrants.consume(request.socket.remoteAddress ?? "unknown").then(
        () => null,
        (limited: unknown) => (limited instanceof RateLimiterRes ? limited : Promise.reject(limited)),
      );
      if (refusal) {
        const description = "Too many anonymous token grants from this address; try again shortly.";
        // The platform's error envelope, with the OAuth fields the token endpoint's callers read.
        return reply
          .status(429)
          .header("retry-after", String(Math.ceil(refusal.msBeforeNext / 1000)))
          .send({ ...errorBody("TOO_MANY_REQUESTS", description), ...oauthError("temporarily_unavailable", description) });
      }
    }
    const issued = grant.grantType === "anonymous" ? ctx.tokens.newVisitor(grant.clientId) : ctx.tokens.refresh(grant.refreshToken, grant.clientId);
    if (!issued) {
      return reply.status(400).send(oauthError("invalid_grant", "The refresh token is unknown or has been revoked."));
    }
    return tokenResponse(issued);
  });

  /**
   * What a token stands for: its subject, site and lifetime. An unknown, expired or revoked token
   * is reported inactive, with nothing about it. Two clients call it: `@wix/sdk`'s `getTokenInfo`
   * sends `{"token": "…"}`; `@wix/identity`'s `oauth.tokenInfo` sends the introspection request's
   * raw body as bytes, `{"body": "<base64>"}`, holding that JSON or the form `token=…` of RFC 7662.
   */
  app.post("/oauth2/token-info", async (request, reply) => {
    const body = z.object({ token: z.string().min(1).max(4096) }).safeParse(rawRequestFields(request.body) ?? request.body);
    if (!body.success) {
      return reply.status(400).send(oauthError("invalid_request", 'Send the token as {"token": "…"}, or as the raw body {"body": "<base64 of token=…>"}.'));
    }
    const token = body.data.token;
    const claims = ctx.tokens.resolveAccess(token) ? readAccessToken(token) : null;
    if (!claims) return { active: false, subjectType: "UNKNOWN", subjectId: "", exp: 0, iat: 0, siteId: "" };
    return { active: true, ...claims };
  });

  /**
   * The public key access tokens are signed with (`oauth.jwks`), as a JSON Web Key Set: an app
   * checks a token's signature with it after taking off the `OauthNG.JWS.` prefix. Public, as a
   * key set is.
   */
  app.get("/oauth2/jwks", async () => ({ keys: [publicJwk(ctx.tokens.signingKey)] }));

  /**
   * The OpenID user-info answer (`oauth.userInfo` in `@wix/identity`) for the member whose token
   * calls: who they are (`sub`, their member id), their names, login e-mail and photo. Only a
   * member's token has a user behind it; a visitor's or an app's is refused.
   */
  const members = new MemberStore(ctx.db, ctx.identities);
  app.get("/oauth2/user-info", async (request) => {
    const caller = ctx.callerOf(request);
    if (caller.kind === "anonymous") throw unauthenticated();
    if (caller.kind !== "member") throw permissionDenied("userInfo needs a signed-in member's access token; this caller is not a member.");
    const member = members.get(caller.id);
    if (!member) throw notFound("The member of this token no longer exists.");
    const { identity, details } = member;
    const fullName = [identity.firstName, identity.lastName].filter(Boolean).join(" ");
    return {
      sub: identity.id,
      givenName: identity.firstName,
      familyName: identity.lastName,
      name: fullName || identity.nickname,
      email: identity.loginEmail,
      emailVerified: identity.emailVerified,
      picture: details.photo?.url ?? null,
    };
  });
}

function tokenResponse(issued: IssuedTokens) {
  return {
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    token_type: "Bearer",
    expires_in: issued.expiresIn,
  };
}
