import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { hashToken, type IssuedTokens } from "./store";

/** Token grants; bodies mix camelCase and snake_case (wire contract §3.2). */
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

function oauthError(error: string, description: string) {
  return { error, error_description: description };
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: PlatformContext) {
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
    if (!ctx.identities.sessionById(loginSessionId)) return "The sign-in this code came from has ended.";
    const issued = ctx.tokens.issuePair({ role: "member", subjectId: memberId, clientId: grant.clientId, loginSessionId });
    ctx.codes.recordIssued(grant.code, hashToken(issued.refreshToken));
    return issued;
  }

  app.post("/oauth2/token", async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const parsed = tokenRequest.safeParse({ ...body, grantType: body.grantType ?? body.grant_type });
    if (!parsed.success) {
      const grant = body.grantType ?? body.grant_type;
      return reply
        .status(400)
        .send(oauthError(grant ? "invalid_request" : "unsupported_grant_type", `Unsupported or malformed token request (grant ${String(grant ?? "missing")}).`));
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
    const issued =
      grant.grantType === "anonymous" ? ctx.tokens.newVisitor(grant.clientId) : ctx.tokens.refresh(grant.refreshToken, grant.clientId);
    if (!issued) {
      return reply.status(400).send(oauthError("invalid_grant", "The refresh token is unknown or has been revoked."));
    }
    return tokenResponse(issued);
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
