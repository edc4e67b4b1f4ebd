import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { LOCAL_CLIENT_ID } from "../config";
import type { PlatformContext } from "../context";

/** Token grants; bodies mix camelCase and snake_case (wire contract §3.2). */
const tokenRequest = z.union([
  z.object({ grantType: z.literal("anonymous"), clientId: z.string().min(1) }),
  z.object({ grantType: z.literal("refresh_token"), clientId: z.string().min(1), refreshToken: z.string().min(1) }),
]);

function oauthError(error: string, description: string) {
  return { error, error_description: description };
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const knownClients = new Set([LOCAL_CLIENT_ID]);

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
    if (!knownClients.has(grant.clientId)) {
      return reply.status(401).send(oauthError("invalid_client", "Unknown client id."));
    }
    const issued =
      grant.grantType === "anonymous" ? ctx.tokens.newVisitor(grant.clientId) : ctx.tokens.refresh(grant.refreshToken, grant.clientId);
    if (!issued) {
      return reply.status(400).send(oauthError("invalid_grant", "The refresh token is unknown or has been revoked."));
    }
    return {
      access_token: issued.accessToken,
      refresh_token: issued.refreshToken,
      token_type: "Bearer",
      expires_in: issued.expiresIn,
    };
  });
}
