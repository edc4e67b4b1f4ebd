import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { requirePasswordReset } from "../identity/iam";
import { settingsPatchSchema } from "../identity/settings";
import { errorBody, invalidArgument, notFound, permissionDenied } from "./errors";
import { parseFaults } from "./faults";

/**
 * Endpoints the hosted platform does not have, for tests and tooling only: health, a request
 * counter, session revocation, requiring a new password, the sign-up settings, the outbox
 * (docs/platform/identity.md §3.4–5) and fault mode (docs/platform/operations.md). Everything that reads or changes state needs the
 * admin API key; health needs nothing. The pages for a person are the Studio's (studio/routes.ts).
 */
export function registerLocalRoutes(app: FastifyInstance, ctx: PlatformContext) {
  function requireAdmin(request: FastifyRequest, what: string) {
    const caller = ctx.callerOf(request);
    // An app's token speaks for the site, not for the platform that stands in for Wix.
    if (caller.kind !== "admin" || caller.app !== undefined) throw permissionDenied(`${what} needs the platform's API key.`);
  }

  const counts = new Map<string, number>();

  app.addHook("onResponse", async (request) => {
    const route = request.routeOptions.url ?? "unmatched";
    if (route.startsWith("/_local/")) return;
    const key = `${request.method} ${route}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });

  // For probes and `npm start`'s wait: a trivial query proves the database answers.
  app.get("/_local/health", async (_request, reply) => {
    try {
      ctx.db.prepare("SELECT 1").get();
      return { status: "ok" };
    } catch (error) {
      reply.log.error({ err: error }, "health check: the database does not answer");
      return reply.status(503).send({ status: "unavailable", ...errorBody("UNAVAILABLE", "The platform's database does not answer.") });
    }
  });

  app.get("/_local/stats", async (request) => {
    requireAdmin(request, "Reading the request counts");
    return { requests: Object.fromEntries(counts) };
  });

  app.get("/_local/faults", async (request) => {
    requireAdmin(request, "Reading the faults");
    return { rules: ctx.faults.list() };
  });

  app.put("/_local/faults", async (request) => {
    requireAdmin(request, "Setting faults");
    const rules = parseFaults(request.body);
    request.log.warn({ rules }, "fault mode changed");
    return { rules: ctx.faults.replace(rules) };
  });

  app.delete("/_local/faults", async (request) => {
    requireAdmin(request, "Clearing faults");
    return { rules: ctx.faults.replace([]) };
  });

  app.post("/_local/revoke", async (request) => {
    requireAdmin(request, "Revoking sessions");
    // A member can be named by id or by login email; a visitor only by id.
    const body = z.union([z.object({ subjectId: z.string().min(1) }), z.object({ email: z.string().min(1) })]).safeParse(request.body);
    if (!body.success) throw invalidArgument("subjectId or email is required.");
    const subjectId = "subjectId" in body.data ? body.data.subjectId : ctx.identities.findForLogin(body.data.email)?.identity.id;
    if (!subjectId) throw notFound("No member has that email.");
    return { revoked: ctx.tokens.revokeSubject(subjectId) };
  });

  // The owner's "require a new password" for one member (docs/platform/identity.md §3.4).
  app.post("/_local/require-reset", async (request) => {
    requireAdmin(request, "Requiring a password reset");
    const body = z.object({ email: z.string().min(1).max(320) }).safeParse(request.body);
    if (!body.success) throw invalidArgument("email is required.");
    const identity = requirePasswordReset(ctx, body.data.email);
    if (!identity) throw notFound("No member has that email.");
    return { identityId: identity.id };
  });

  app.get("/_local/settings", async (request) => {
    requireAdmin(request, "Reading the settings");
    return ctx.settings.get();
  });

  app.patch("/_local/settings", async (request) => {
    requireAdmin(request, "Changing the settings");
    const patch = settingsPatchSchema.safeParse(request.body);
    if (!patch.success) {
      throw invalidArgument("Send any of requireEmailVerification, requireOwnerApproval, requireCaptcha, rejectInvisibleCaptcha as true or false.");
    }
    return ctx.settings.update(patch.data);
  });

  app.get("/_local/outbox", async (request) => {
    requireAdmin(request, "Reading the outbox");
    const { to } = z.object({ to: z.string().max(320).optional() }).parse(request.query ?? {});
    return { messages: ctx.outbox.list(to) };
  });
}
