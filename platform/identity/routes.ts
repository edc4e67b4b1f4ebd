import formbody from "@fastify/formbody";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { PlatformContext } from "../context";
import { platformOrigin } from "../http/origin";
import { readCookie, serializeCookie } from "./cookies";
import { createCsrf, CSRF_COOKIE } from "./csrf";
import { wayOf } from "./first-way";
import { HostedFlow, type Browser, type HostedResult } from "./flow";
import { registerHostedAssets } from "./hosted-assets";
import { messagePage, render } from "./pages";
import { HOSTED_COOKIE_PATH, HOSTED_PAGES } from "./paths";
import { deviceName, REMEMBER_DEVICE_MS } from "./remembered-devices";

const SESSION_COOKIE = "lp_session";
const SESSION_COOKIE_MAX_AGE = 7 * 24 * 60 * 60;
/** A remembered browser's token: sent only to the hosted pages, where a log-in shows it. */
const DEVICE_COOKIE = "lp_device";
/** The way this browser last finished a second step by, asked first next time (first-way.ts): not a secret, kept a year. */
const WAY_COOKIE = "lp_way";
const WAY_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;
const CSRF_COOKIE_MAX_AGE = 60 * 60;
const FORM_BODY_LIMIT = 16 * 1024;

type Fields = Record<string, unknown>;

/** "Remember this device" ticked: the browser's name, from its User-Agent. */
const rememberAs = (request: FastifyRequest, body: Fields) => (field(body, "remember") === "1" ? deviceName(request.headers["user-agent"]) : null);

/** A form or query field as a string; anything else (missing, repeated) reads as empty. */
function field(fields: unknown, name: string): string {
  const value = (fields as Fields | undefined)?.[name];
  return typeof value === "string" ? value : "";
}

/**
 * The hosted pages (docs/platform/identity.md §1) as thin handlers: each reads the request, asks
 * the flow (flow.ts) what to do and sends its one kind of result. CSRF lives in csrf.ts.
 */
export function registerHostedPages(app: FastifyInstance, ctx: PlatformContext) {
  const csrf = createCsrf();
  const flow = new HostedFlow(ctx);
  // Outside the pages' scope: scripts are cached for good, pages never.
  registerHostedAssets(app);

  app.register(async (scope) => {
    // Form bodies are parsed only here, so the API routes keep speaking JSON alone.
    await scope.register(formbody, { bodyLimit: FORM_BODY_LIMIT });

    scope.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", "no-store");
      reply.header("referrer-policy", "no-referrer");
      reply.header("x-content-type-options", "nosniff");
    });

    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, "hosted page failed");
      const page =
        status === 500
          ? messagePage({ title: "Something went wrong", message: "The page could not be shown. Go back to the site and try again." })
          : messagePage({ title: "That did not work", message: "The request could not be read. Go back to the site and try again." });
      return send(request, reply, { kind: "page", page, status });
    });

    const cookieOptions = (request: FastifyRequest, maxAgeSeconds: number) => ({
      path: HOSTED_COOKIE_PATH,
      maxAgeSeconds,
      secure: request.protocol === "https",
    });

    /** The browser as the flow sees it; sets the CSRF cookie when the browser has none yet. */
    function browser(request: FastifyRequest, reply: FastifyReply, body?: Fields): Browser & { csrfValid: boolean } {
      const cookie = readCookie(request.headers.cookie, CSRF_COOKIE);
      const csrfValid = body !== undefined && csrf.valid(cookie, field(body, "csrf"));
      const { token, newCookie } = csrf.issue(cookie);
      if (newCookie) reply.header("set-cookie", serializeCookie(CSRF_COOKIE, newCookie, cookieOptions(request, CSRF_COOKIE_MAX_AGE)));
      const session = ctx.loginSessions.byToken(readCookie(request.headers.cookie, SESSION_COOKIE));
      // The CSRF cookie this browser holds after this answer names the browser for the form states (flow.ts).
      return {
        session,
        csrf: token,
        csrfValid,
        key: newCookie ?? cookie!,
        deviceToken: readCookie(request.headers.cookie, DEVICE_COOKIE),
        lastWay: wayOf(readCookie(request.headers.cookie, WAY_COOKIE)),
        origin: platformOrigin(request, ctx.config),
        address: request.socket.remoteAddress ?? "unknown",
      };
    }

    function send(request: FastifyRequest, reply: FastifyReply, result: HostedResult) {
      if (result.session) {
        const [value, maxAge] = result.session === "clear" ? ["", 0] : [result.session.token, SESSION_COOKIE_MAX_AGE];
        reply.header("set-cookie", serializeCookie(SESSION_COOKIE, value, cookieOptions(request, maxAge)));
      }
      if (result.rememberedDevice) {
        reply.header("set-cookie", serializeCookie(DEVICE_COOKIE, result.rememberedDevice, cookieOptions(request, REMEMBER_DEVICE_MS / 1000)));
      }
      if (result.lastWay) reply.header("set-cookie", serializeCookie(WAY_COOKIE, result.lastWay, cookieOptions(request, WAY_COOKIE_MAX_AGE)));
      if (result.kind === "redirect") return reply.redirect(result.url, 303);
      const page = result.kind === "document" ? result.page : render(result.page, ctx.config.siteUrl);
      const status = result.kind === "page" ? (result.status ?? 200) : 200;
      // A page's policy lets no one frame it; older browsers read that from this header. A
      // document (pre-warm, web_message) is framed by the client's origins, which the header cannot name.
      if (result.kind === "page") reply.header("x-frame-options", "DENY");
      return reply.status(status).header("content-type", "text/html; charset=utf-8").header("content-security-policy", page.csp).send(page.html);
    }

    scope.get(HOSTED_PAGES.login, async (request, reply) => send(request, reply, flow.showLogin(field(request.query, "rs"), browser(request, reply))));

    scope.post(HOSTED_PAGES.login, async (request, reply) => {
      const body = (request.body ?? {}) as Fields;
      const input = { email: field(body, "email"), password: field(body, "password"), captcha: field(body, "captcha") };
      return send(request, reply, await flow.submitLogin(body.rs, input, browser(request, reply, body)));
    });

    scope.get(HOSTED_PAGES.loginCode, async (request, reply) => send(request, reply, flow.showLoginCode(field(request.query, "rs"), browser(request, reply))));

    scope.post(HOSTED_PAGES.loginCode, async (request, reply) => {
      const body = (request.body ?? {}) as Fields;
      return send(
        request,
        reply,
        flow.submitLoginCode(
          body.rs,
          {
            way: field(body, "way"),
            code: field(body, "code"),
            appCode: field(body, "appCode"),
            recoveryCode: field(body, "recoveryCode"),
            rememberAs: rememberAs(request, body),
          },
          browser(request, reply, body),
        ),
      );
    });

    scope.post(HOSTED_PAGES.loginPasskey, async (request, reply) => {
      const body = (request.body ?? {}) as Fields;
      const input = { credential: field(body, "credential"), rememberAs: rememberAs(request, body) };
      return send(request, reply, await flow.submitPasskey(body.rs, input, browser(request, reply, body)));
    });

    scope.post(HOSTED_PAGES.loginCodeSendBy, async (request, reply) => {
      const body = (request.body ?? {}) as Fields;
      return send(request, reply, flow.sendCodeBy(body.rs, field(body, "factorType"), browser(request, reply, body)));
    });

    scope.get(HOSTED_PAGES.signup, async (request, reply) => send(request, reply, flow.showSignup(field(request.query, "rs"), browser(request, reply))));

    scope.post(HOSTED_PAGES.signup, async (request, reply) => {
      const body = (request.body ?? {}) as Fields;
      const input = {
        displayName: field(body, "displayName"),
        email: field(body, "email"),
        password: field(body, "password"),
        captcha: field(body, "captcha"),
      };
      return send(request, reply, await flow.submitSignup(body.rs, input, browser(request, reply, body)));
    });

    scope.get(HOSTED_PAGES.verify, async (request, reply) => send(request, reply, flow.showVerify(field(request.query, "rs"), browser(request, reply))));

    scope.post(HOSTED_PAGES.verify, async (request, reply) => {
      const body = (request.body ?? {}) as Fields;
      return send(request, reply, flow.submitVerify(body.rs, { code: field(body, "code") }, browser(request, reply, body)));
    });

    scope.post(HOSTED_PAGES.verifyResend, async (request, reply) => {
      const body = (request.body ?? {}) as Fields;
      return send(request, reply, flow.resendVerification(body.rs, browser(request, reply, body)));
    });

    scope.get(HOSTED_PAGES.reset, async (request, reply) => send(request, reply, flow.showReset(field(request.query, "token"), browser(request, reply))));

    scope.post(HOSTED_PAGES.reset, async (request, reply) => {
      const body = (request.body ?? {}) as Fields;
      return send(request, reply, await flow.submitReset(field(body, "token"), field(body, "password"), browser(request, reply, body)));
    });

    scope.get(HOSTED_PAGES.logout, async (request, reply) => send(request, reply, flow.logout(field(request.query, "rs"), browser(request, reply))));
  });
}
