import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { PlatformError } from "./errors";

/**
 * Endpoints the hosted platform does not have, for tests and tooling only:
 * a request counter and session revocation. Revocation needs the admin API key.
 */
export function registerLocalRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const counts = new Map<string, number>();

  app.addHook("onResponse", async (request) => {
    const route = request.routeOptions.url ?? "unmatched";
    if (route.startsWith("/_local/")) return;
    const key = `${request.method} ${route}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });

  app.get("/_local/stats", async () => ({ requests: Object.fromEntries(counts) }));

  app.post("/_local/revoke", async (request) => {
    if (ctx.callerOf(request).kind !== "admin") {
      throw new PlatformError(403, "PERMISSION_DENIED", "Revoking sessions needs the platform's API key.");
    }
    // A member can be named by id or by login email; a visitor only by id.
    const body = z.union([z.object({ subjectId: z.string().min(1) }), z.object({ email: z.string().min(1) })]).safeParse(request.body);
    if (!body.success) throw new PlatformError(400, "INVALID_ARGUMENT", "subjectId or email is required.");
    const subjectId = "subjectId" in body.data ? body.data.subjectId : ctx.identities.findForLogin(body.data.email)?.identity.id;
    if (!subjectId) throw new PlatformError(404, "NOT_FOUND", "No member has that email.");
    return { revoked: ctx.tokens.revokeSubject(subjectId) };
  });
}
