import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import { permissionDenied, schemaViolations } from "../http/errors";
import { LOCAL_SITE_ID } from "../oauth/access-token";
import type { SettingsStore } from "./settings";

/**
 * The site's sign-on policy (`@wix/identity` `signOnPolicy`, docs/platform/identity.md §4): the
 * two sign-up requirements of the site owner's settings, owner approval and e-mail verification,
 * read and changed by an app or the site owner. The same settings as `/_local/settings` and the
 * Studio change, so each sees the other's changes. Captcha settings are the platform's own and
 * not part of the policy.
 */

// Partial, as the typings say; the read-only fields a client read back may be sent again and are ignored.
const updateRequest = z.object({
  signOnPolicy: z
    .object({
      requireOwnerApproval: z.boolean().optional(),
      requireEmailVerification: z.boolean().optional(),
      id: z.string().nullish(),
      revision: z.string().nullish(),
      createdDate: z.string().nullish(),
      updatedDate: z.string().nullish(),
    })
    .strict(),
});

/** The policy in the REST shape the client reads. */
export function signOnPolicyWire(settings: SettingsStore) {
  const { requireOwnerApproval, requireEmailVerification } = settings.get();
  const { revision, createdDate, updatedDate } = settings.version();
  return {
    id: LOCAL_SITE_ID,
    revision: String(revision),
    createdDate: createdDate.toISOString(),
    updatedDate: updatedDate.toISOString(),
    requireOwnerApproval,
    requireEmailVerification,
  };
}

/** Calls `listener` with the policy each time one of its requirements changes, whoever changes it (the captcha settings are no part of it). */
export function watchSignOnPolicy(settings: SettingsStore, listener: (policy: ReturnType<typeof signOnPolicyWire>) => void): void {
  settings.onUpdate((before, after) => {
    if (before.requireOwnerApproval !== after.requireOwnerApproval || before.requireEmailVerification !== after.requireEmailVerification)
      listener(signOnPolicyWire(settings));
  });
}

export function registerSignOnPolicyRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const assertApp = (request: FastifyRequest, action: string) => {
    if (ctx.callerOf(request).kind !== "admin") throw permissionDenied(`${action} the sign-on policy needs an app's token or the site's API key.`);
  };
  const policy = () => ({ signOnPolicy: signOnPolicyWire(ctx.settings) });

  app.get("/iam/signon/v1/sign-on-policies", async (request) => {
    assertApp(request, "Reading");
    return policy();
  });

  // Members who signed up before keep their status: turning approval on moves nobody back to pending.
  app.patch("/iam/signon/v1/sign-on-policies", async (request) => {
    assertApp(request, "Changing");
    const parsed = updateRequest.safeParse(request.body);
    if (!parsed.success) throw schemaViolations(parsed.error.issues);
    const { requireOwnerApproval, requireEmailVerification } = parsed.data.signOnPolicy;
    ctx.settings.update({
      ...(requireOwnerApproval !== undefined && { requireOwnerApproval }),
      ...(requireEmailVerification !== undefined && { requireEmailVerification }),
    });
    return policy();
  });
}
