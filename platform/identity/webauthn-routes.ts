import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import type { MemberCaller } from "../types";
import { platformOrigin } from "../http/origin";
import { memberProof, type IdentityService } from "./iam";
import { PasskeyService, passkeyRegistration, registrationOptionsRequest } from "./webauthn";

/**
 * A member's passkeys (docs/platform/identity.md §3.10): listed, added by a registration ceremony,
 * removed; by the member for themselves, adding and removing with the proof other factor changes take.
 */
export function registerPasskeyRoutes(
  app: FastifyInstance,
  ctx: PlatformContext,
  service: IdentityService,
  helpers: { parse: <T extends z.ZodType>(schema: T, body: unknown) => z.infer<T>; signedInMember: (request: FastifyRequest) => MemberCaller },
): PasskeyService {
  const passkeys = new PasskeyService(ctx, ctx.passkeys, service);
  const { parse, signedInMember } = helpers;
  const memberOf = (request: FastifyRequest) => signedInMember(request).id;

  app.get("/_api/iam/factors/v1/passkeys", async (request) => passkeys.list(memberOf(request)));

  app.post("/_api/iam/factors/v1/passkeys/registration-options", async (request) => {
    return passkeys.registrationOptions(signedInMember(request), parse(registrationOptionsRequest, request.body));
  });

  app.post("/_api/iam/factors/v1/passkeys", async (request) => {
    const memberId = memberOf(request);
    const registered = await passkeys.register(memberId, parse(passkeyRegistration, request.body), platformOrigin(request, ctx.config));
    // A factor change: every remembered browser must pass the second step again.
    ctx.rememberedDevices.forgetAll(memberId);
    return registered;
  });

  app.delete("/_api/iam/factors/v1/passkeys/:passkeyId", async (request) => {
    const member = signedInMember(request);
    const { passkeyId } = parse(z.object({ passkeyId: z.string().min(1).max(1024) }), request.params);
    await passkeys.remove(member, passkeyId, parse(memberProof, request.body));
    ctx.rememberedDevices.forgetAll(member.id);
    return {};
  });

  return passkeys;
}
