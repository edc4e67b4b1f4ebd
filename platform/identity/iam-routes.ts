import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { externalLoginToken, type PlatformContext } from "../context";
import { FieldViolations, codeExpired, notFound, permissionDenied, schemaViolations, wrongCode } from "../http/errors";
import { platformOrigin } from "../http/origin";
import { SECOND_FACTOR_TYPES, VERIFY_FACTOR_TYPES, type Factor } from "./factors";
import { IdentityService, factorVerifyRequest, factorWire, loginRequest, memberProof, registerRequest, signOnRequest } from "./iam";
import type { MemberCaller } from "../types";
import { deviceName } from "./remembered-devices";
import { newTotpSecret, totpUri } from "./totp";
import { registerPasskeyRoutes } from "./webauthn-routes";

/** A phone number in international form: a plus and 8 to 15 digits once spaces, dots, dashes and brackets are gone. */
const phoneNumber = z
  .string()
  .max(40)
  .transform((value) => value.replace(/[\s().-]/g, ""))
  .pipe(z.string().regex(/^\+[0-9]{8,15}$/));

/** Passkeys are not enrolled here: each one is added by its registration ceremony (webauthn-routes.ts). */
const enrollRequest = z.object({ factor: z.object({ type: z.enum(SECOND_FACTOR_TYPES).exclude(["WEBAUTHN"]), phone: phoneNumber.optional() }) });

/** The IAM endpoints the SDK's own-form helpers call (docs/platform/identity.md §3). */
export function registerIamRoutes(app: FastifyInstance, ctx: PlatformContext) {
  const service = new IdentityService(ctx);

  /** A malformed body is answered as a validationError naming each field at fault (docs/platform/identity.md §3). */
  function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
    const parsed = schema.safeParse(body ?? {});
    if (!parsed.success) throw schemaViolations(parsed.error.issues);
    return parsed.data;
  }

  /** The signed-in member, with the login session their token belongs to (where proofs of who they are count). */
  function signedInMember(request: FastifyRequest): MemberCaller {
    const caller = ctx.callerOf(request);
    if (caller.kind !== "member") throw permissionDenied("Only a signed-in member can do this, for themselves.");
    return caller;
  }
  const memberOf = (request: FastifyRequest) => signedInMember(request).id;

  function requireAdmin(request: FastifyRequest) {
    if (ctx.callerOf(request).kind !== "admin") throw permissionDenied("This needs the platform's admin API key.");
  }

  // Any caller may register or log in; an unreadable token is still refused by callerOf.
  app.post("/_api/iam/authentication/v2/register", async (request) => {
    ctx.callerOf(request);
    return service.register(parse(registerRequest, request.body));
  });

  app.post("/_api/iam/authentication/v2/validate-email", async (request) => {
    ctx.callerOf(request);
    return service.validateEmail(parse(z.object({ email: z.string().max(254) }), request.body).email);
  });

  // Failures count against the connection's address only for a call with no token: a site's server
  // sends every visitor's login from its one address, with its visitor token, and limits them per
  // visitor address itself; counting those would let anyone lock the site's login (docs/platform/identity.md §3.6).
  app.post("/_api/iam/authentication/v2/login", async (request) => {
    const caller = ctx.callerOf(request);
    return service.login(parse(loginRequest, request.body), caller, caller.kind === "anonymous" ? (request.socket.remoteAddress ?? "unknown") : null);
  });

  // Only a server holding the API key may vouch for a person: `<access token>,<API key>`, as the token endpoint takes it.
  app.post("/_api/iam/authentication/v2/sign-on", async (request) => {
    const accessToken = externalLoginToken(ctx.config, request.headers.authorization);
    if (!accessToken || !ctx.tokens.resolveAccess(accessToken)) {
      throw permissionDenied("Signing a member on needs a live access token and the platform's API key.");
    }
    return service.signOn(parse(signOnRequest, request.body));
  });

  // A member's server ends their session, without the browser: the login session their token
  // came from ends and every token issued under it is revoked. The reply is the RawHttpResponse
  // the SDK reads; an empty one, as there is no page to show.
  app.get("/_api/iam/authentication/v1/logout", async (request) => {
    const caller = ctx.callerOf(request);
    if (caller.kind !== "member") throw permissionDenied("Only a signed-in member can log out.");
    ctx.tokens.revokeSessionOf(request.headers.authorization!.trim());
    if (caller.loginSessionId) {
      ctx.loginSessions.end(caller.loginSessionId);
      ctx.tokens.revokeLoginSession(caller.loginSessionId);
    }
    return {};
  });

  // The installed client sends the new password alone; the session must have re-checked the current one just before.
  app.post("/_api/iam/authentication/v2/change-password", async (request) => {
    const member = signedInMember(request);
    const { newPassword } = parse(z.object({ newPassword: z.string().max(1024) }), request.body);
    await service.changePassword(member, newPassword);
    return {};
  });

  // The second step of a login with a second factor: the code it sent, in the factor's data object.
  app.post("/_api/iam/authentication/v2/:factorType/verify", async (request) => {
    ctx.callerOf(request);
    const { factorType } = parse(z.object({ factorType: z.string().toUpperCase().pipe(z.enum(VERIFY_FACTOR_TYPES)) }), request.params);
    const body = parse(factorVerifyRequest, request.body);
    if (factorType === "WEBAUTHN") {
      if (!body.webauthnData) {
        throw new FieldViolations([{ field: "webauthnData", description: "Required: the passkey's answer.", violatedRule: "VALIDATION", data: {} }]);
      }
      const remember = body.rememberThisDevice ? { deviceName: deviceName(request.headers["user-agent"]) } : null;
      return passkeys.verifyLogin(body.stateToken, body.webauthnData, platformOrigin(request, ctx.config), remember);
    }
    // emailData, smsData, totpData, recoveryCodeData.
    const dataField = `${factorType.toLowerCase().replace(/_(.)/g, (_match, letter: string) => letter.toUpperCase())}Data` as Exclude<
      keyof typeof body & `${string}Data`,
      "webauthnData"
    >;
    const code = body[dataField]?.code;
    const field = `${dataField}.code`;
    if (!code) throw new FieldViolations([{ field, description: "Required: the code this login sent.", violatedRule: "VALIDATION", data: {} }]);
    // The site's own forms call from its server, which passes on its visitor's User-Agent.
    return service.verifyFactor(factorType, body.stateToken, code, body.rememberThisDevice ? { deviceName: deviceName(request.headers["user-agent"]) } : null);
  });

  // A member's second factors (docs/platform/identity.md §3.8): listed, turned on, turned off, by the member for themselves.
  // The member's own list shows where SMS codes go, so they can recognise the number, and an app
  // still waiting for its first code shows its secret, so the set-up page can be shown again;
  // once the app is enabled the secret is never shown.
  const ownFactor = (factor: Factor) => {
    const email = ctx.identities.get(factor.identityId)?.loginEmail ?? "";
    return {
      ...factorWire(factor),
      factorStatus: factor.status,
      ...(factor.phone && { phone: factor.phone }),
      ...(factor.type === "TOTP" &&
        factor.status === "REQUIRE_ACTIVATION" &&
        factor.secret && { totpData: { secret: factor.secret, uri: totpUri(factor.secret, email) } }),
    };
  };

  const passkeys = registerPasskeyRoutes(app, ctx, service, { parse, signedInMember });

  app.get("/_api/iam/factors/v1/factors", async (request) => {
    const memberId = memberOf(request);
    return { factors: ctx.factors.listOwn(memberId).map(ownFactor), recoveryCodes: { remaining: ctx.recoveryCodes.remaining(memberId) } };
  });

  // New one-time recovery codes, the earlier ones void: shown in this reply only, and only to the member who proves it is them.
  app.post("/_api/iam/factors/v1/recovery-codes", async (request) => {
    const member = signedInMember(request);
    await service.proveMember(member, parse(memberProof, request.body));
    return { recoveryCodes: ctx.recoveryCodes.replace(member.id) };
  });

  // Adding a factor, or removing one that is on, takes the member's password or a current app
  // code besides the token: a stolen access token alone must not change how the account is guarded.
  app.post("/_api/iam/factors/v1/factors", async (request) => {
    const member = signedInMember(request);
    const memberId = member.id;
    const { factor } = parse(enrollRequest, request.body);
    await service.proveMember(member, parse(memberProof, request.body));
    if (factor.type === "SMS" && !factor.phone) {
      throw new FieldViolations([{ field: "factor.phone", description: "An SMS factor needs a phone number.", violatedRule: "VALIDATION", data: {} }]);
    }
    // A phone and an app wait for their first code: proof that the member holds them.
    const detail =
      factor.type === "SMS"
        ? { phone: factor.phone, secret: service.phoneEnrolmentCode(memberId, factor.phone!) }
        : factor.type === "TOTP"
          ? { secret: newTotpSecret() }
          : {};
    const enrolled = ctx.factors.enroll(memberId, factor.type, detail);
    // A change to how the account is guarded: no browser skips the second step on the old terms.
    ctx.rememberedDevices.forgetAll(memberId);
    return { factor: ownFactor(enrolled) };
  });

  // A phone or an app turns on with its first right code: the one texted to the phone, or one the app shows.
  app.post("/_api/iam/factors/v1/factors/:factorId/activate", async (request) => {
    const memberId = memberOf(request);
    const { factorId } = parse(z.object({ factorId: z.string().min(1).max(100) }), request.params);
    const { code } = parse(z.object({ code: z.string().trim().min(1).max(20) }), request.body);
    const factor = ctx.factors.get(memberId, factorId);
    if (!factor || factor.status !== "REQUIRE_ACTIVATION") throw notFound("This member has no factor waiting for activation with this id.");
    if (factor.type === "TOTP" ? !service.appCodeIsRight(factor, code) : ctx.factors.tryEnrolmentCode(factor.factorId, code) !== "right") {
      // Expired or tried too often, the waiting phone is gone: the member starts again.
      if (!ctx.factors.get(memberId, factorId)) throw codeExpired();
      throw wrongCode();
    }
    ctx.factors.activate(factor.factorId);
    ctx.rememberedDevices.forgetAll(memberId);
    // The first app comes with recovery codes, shown this once, for when the phone is lost.
    const recoveryCodes = factor.type !== "TOTP" || ctx.recoveryCodes.has(memberId) ? undefined : ctx.recoveryCodes.replace(memberId);
    return { factor: ownFactor({ ...factor, status: "ENABLED" }), ...(recoveryCodes && { recoveryCodes }) };
  });

  app.delete("/_api/iam/factors/v1/factors/:factorId", async (request) => {
    const member = signedInMember(request);
    const memberId = member.id;
    const { factorId } = parse(z.object({ factorId: z.string().min(1).max(100) }), request.params);
    const factor = ctx.factors.get(memberId, factorId);
    if (!factor) throw notFound("This member has no such factor.");
    // An app still being set up guards nothing yet: cancelling it needs no proof.
    if (factor.status === "ENABLED") {
      await service.proveMember(member, parse(memberProof, request.body));
      ctx.rememberedDevices.forgetAll(memberId);
    }
    ctx.factors.remove(memberId, factorId);
    // The passkey factor stands for all the member's passkeys.
    if (factor.type === "WEBAUTHN") ctx.passkeys.removeAll(memberId);
    return {};
  });

  // The browsers the member asked to be remembered, each named from its User-Agent; and forgetting
  // one or all of them, which needs no proof beyond the token: it only takes a shortcut away.
  app.get("/_api/iam/factors/v1/remembered-devices", async (request) => {
    const memberId = memberOf(request);
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      devices: ctx.rememberedDevices.list(memberId).map((device) => ({
        deviceId: device.deviceId,
        name: device.name,
        createdDate: iso(device.createdAt),
        lastUsedDate: iso(device.lastUsedAt),
        expiresDate: iso(device.expiresAt),
      })),
    };
  });

  app.delete("/_api/iam/factors/v1/remembered-devices/:deviceId", async (request) => {
    const memberId = memberOf(request);
    const { deviceId } = parse(z.object({ deviceId: z.string().min(1).max(100) }), request.params);
    if (!ctx.rememberedDevices.forget(memberId, deviceId)) throw notFound("This member has no remembered device with this id.");
    return {};
  });

  app.delete("/_api/iam/factors/v1/remembered-devices", async (request) => {
    ctx.rememberedDevices.forgetAll(memberOf(request));
    return {};
  });

  app.post("/_api/iam/verification/v1/auth/verify", async (request) => {
    ctx.callerOf(request);
    const { code, stateToken } = parse(z.object({ code: z.string().min(1).max(64), stateToken: z.string().min(1).max(1000) }), request.body);
    return service.verify(code, stateToken);
  });

  // A new code for the verification a login or registration is waiting on, mailed within the
  // identity's hourly limit; the state token stays the same, so the form the member is on still works.
  app.post("/_api/iam/verification/v1/auth/resend", async (request) => {
    ctx.callerOf(request);
    const { stateToken } = parse(z.object({ stateToken: z.string().min(1).max(1000) }), request.body);
    return service.resendVerification(stateToken);
  });

  // Starts a verification outside a login (a member, for themselves, or the admin for anyone): the code goes by e-mail.
  app.post("/_api/iam/verification/v1/start", async (request) => {
    const caller = ctx.callerOf(request);
    const { identityId } = parse(z.object({ identityId: z.string().max(200).optional(), target: z.enum(["EMAIL"]).optional() }), request.body);
    const target = identityId ?? (caller.kind === "member" ? caller.id : undefined);
    if (!target || (caller.kind !== "admin" && !(caller.kind === "member" && caller.id === target))) {
      throw permissionDenied("A member can start a verification for themselves only.");
    }
    const identity = ctx.identities.get(target);
    if (!identity) throw notFound("No such identity.");
    return { verificationId: service.sendVerification(identity) };
  });

  app.post("/_api/iam/recovery/v1/send-email", async (request) => {
    ctx.callerOf(request);
    const body = parse(
      z.object({
        email: z.string().min(1).max(320),
        language: z.string().max(20).optional(),
        redirect: z
          .object({ url: z.string().max(2048), clientId: z.string().max(200) })
          .partial()
          .optional(),
      }),
      request.body,
    );
    service.sendRecoveryEmail(body.email, body.redirect, platformOrigin(request, ctx.config));
    return {};
  });

  app.post("/_api/iam/recovery/v1/recover", async (request) => {
    ctx.callerOf(request);
    const { recoveryToken, password } = parse(
      z.object({ recoveryToken: z.string().min(1).max(1000), password: z.string().max(1024).optional() }),
      request.body,
    );
    const result = await service.recover(recoveryToken, password ?? "");
    if ("weak" in result) throw new FieldViolations([{ field: "password", description: result.weak, violatedRule: "FORMAT", data: {} }]);
    return service.afterRecovery(result.identity);
  });

  app.post("/_api/iam/recovery/v1/activation-email", async (request) => {
    requireAdmin(request);
    const { identityId, emailOptions } = parse(
      z.object({
        identityId: z.string().min(1).max(200),
        emailOptions: z
          .object({ language: z.string().max(20), redirect: z.object({ url: z.string().max(2048), clientId: z.string().max(200) }).partial() })
          .partial()
          .optional(),
      }),
      request.body,
    );
    const identity = ctx.identities.get(identityId);
    if (!identity) throw notFound("No such identity.");
    const redirect = emailOptions?.redirect;
    const client = redirect?.clientId ? ctx.clients.get(redirect.clientId) : null;
    service.sendResetLink(identity, client ? ctx.clients.safeReturnUrl(redirect?.url, client) : null, platformOrigin(request, ctx.config), "activation");
    return {};
  });
}
