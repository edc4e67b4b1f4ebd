import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import formbody from "@fastify/formbody";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { PlatformContext } from "../context";
import type { AuthRequest, RedirectSession } from "../redirects/store";
import { readCookie, serializeCookie } from "./cookies";
import { loginPage, messagePage, signupPage, webMessagePage, type HtmlPage } from "./pages";
import { HOSTED_COOKIE_PATH, HOSTED_PAGES } from "./paths";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import type { Identity, LoginSession } from "./store";

const SESSION_COOKIE = "lp_session";
const CSRF_COOKIE = "lp_csrf";
const SESSION_COOKIE_MAX_AGE = 7 * 24 * 60 * 60;
const FORM_BODY_LIMIT = 16 * 1024;

const loginForm = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(256),
});
const signupForm = z.object({
  displayName: z.string().trim().min(1, "Enter a display name.").max(60, "Keep the display name to 60 characters."),
  email: z.email("Enter a valid email address.").max(254, "Enter a valid email address."),
  password: z.string().min(8, "Choose a password of at least 8 characters.").max(256, "Keep the password to 256 characters."),
});

type FormBody = Record<string, unknown>;

/** A form field as a string; anything else (missing, repeated) reads as empty. */
function field(body: FormBody, name: string): string {
  const value = body[name];
  return typeof value === "string" ? value : "";
}

/**
 * The hosted pages: sign in, sign up and sign out, on the platform's own origin, driven by
 * the redirect sessions the SDK creates. Form POSTs carry a CSRF token that must match a
 * cookie only this origin can set (double submit, HMAC-bound so the cookie cannot be forged).
 */
export function registerHostedPages(app: FastifyInstance, ctx: PlatformContext) {
  const csrfKey = randomBytes(32);
  const csrfFor = (cookie: string) => createHmac("sha256", csrfKey).update(cookie).digest("base64url");

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
          ? messagePage("Something went wrong", "The page could not be shown. Go back to the site and try again.")
          : messagePage("That did not work", "The request could not be read. Go back to the site and try again.");
      return send(reply, page, status);
    });

    function send(reply: FastifyReply, page: HtmlPage, status = 200) {
      return reply.status(status).header("content-type", "text/html; charset=utf-8").header("content-security-policy", page.csp).send(page.html);
    }

    function secure(request: FastifyRequest) {
      return request.protocol === "https";
    }

    /** The CSRF token for this browser, setting the cookie it is bound to when there is none yet. */
    function csrfToken(request: FastifyRequest, reply: FastifyReply): string {
      let cookie = readCookie(request.headers.cookie, CSRF_COOKIE);
      if (!cookie || !/^[A-Za-z0-9_-]{43}$/.test(cookie)) {
        cookie = randomBytes(32).toString("base64url");
        reply.header(
          "set-cookie",
          serializeCookie(CSRF_COOKIE, cookie, { path: HOSTED_COOKIE_PATH, maxAgeSeconds: 60 * 60, secure: secure(request) }),
        );
      }
      return csrfFor(cookie);
    }

    function csrfValid(request: FastifyRequest, body: FormBody): boolean {
      const cookie = readCookie(request.headers.cookie, CSRF_COOKIE);
      if (!cookie) return false;
      const expected = Buffer.from(csrfFor(cookie));
      const given = Buffer.from(field(body, "csrf"));
      return given.length === expected.length && timingSafeEqual(given, expected);
    }

    function cookieSession(request: FastifyRequest): LoginSession | null {
      return ctx.identities.sessionByToken(readCookie(request.headers.cookie, SESSION_COOKIE));
    }

    /** Origins the forms may hand the browser over to after signing in. */
    function formOrigins(rs: RedirectSession): string[] {
      const client = rs.intent === "auth" ? ctx.clients.get(rs.auth.clientId) : null;
      return ctx.clients.originsOf(client ?? undefined);
    }

    /** The redirect session a sign-in/sign-up request belongs to, or the page explaining why there is none. */
    function signInSession(rsId: unknown): RedirectSession | HtmlPage {
      const rs = ctx.redirects.get(rsId);
      if (!rs || rs.intent === "logout") {
        return messagePage("This link has expired", "Sign-in links work for 15 minutes. Go back to the site and choose Sign in again.");
      }
      if (rs.completed) {
        return messagePage("This link was already used", "Go back to the site; if you are not signed in there, choose Sign in again.");
      }
      return rs;
    }

    /** Hands the result to the client by the requested response mode (wire contract §3.3–3.4). */
    function deliver(reply: FastifyReply, auth: AuthRequest, result: Record<string, string>) {
      const params = { ...result, state: auth.state };
      if (auth.responseMode === "web_message") {
        const client = ctx.clients.get(auth.clientId);
        const origins = auth.redirectUri ? [new URL(auth.redirectUri).origin] : client ? ctx.clients.originsOf(client) : [];
        return send(reply, webMessagePage(params, origins));
      }
      // Redirect sessions without a redirect URI are web_message only, so the URI exists here.
      const target = new URL(auth.redirectUri as string);
      if (auth.responseMode === "query") {
        for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
      } else {
        target.hash = new URLSearchParams(params).toString();
      }
      return reply.redirect(target.href, 302);
    }

    function issueCode(reply: FastifyReply, rs: RedirectSession & { intent: "auth" }, session: LoginSession) {
      const code = ctx.codes.issue({
        clientId: rs.auth.clientId,
        redirectUri: rs.auth.redirectUri,
        codeChallenge: rs.auth.codeChallenge,
        memberId: session.memberId,
        loginSessionId: session.id,
      });
      return deliver(reply, rs.auth, { code });
    }

    /** After a correct password or a sign-up: a new login session, then the flow continues. */
    function completeSignIn(request: FastifyRequest, reply: FastifyReply, rs: RedirectSession, identity: Identity) {
      if (!ctx.redirects.complete(rs.id)) {
        return send(reply, messagePage("This link was already used", "Go back to the site; if you are not signed in there, choose Sign in again."));
      }
      // A fresh session id on every sign-in; the browser's previous one ends (session fixation).
      const previous = cookieSession(request);
      if (previous) ctx.identities.endSession(previous.id);
      const { session, token } = ctx.identities.startSession(identity.id);
      ctx.identities.recordLogin(identity.id);
      reply.header(
        "set-cookie",
        serializeCookie(SESSION_COOKIE, token, { path: HOSTED_COOKIE_PATH, maxAgeSeconds: SESSION_COOKIE_MAX_AGE, secure: secure(request) }),
      );
      if (rs.intent === "auth") return issueCode(reply, rs, session);
      if (rs.intent === "login" && rs.returnUrl) return reply.redirect(rs.returnUrl, 302);
      return send(reply, signedInPage(identity));
    }

    function signedInPage(identity: Identity): HtmlPage {
      return messagePage("You are signed in", `Signed in as ${identity.nickname}. You can close this page.`);
    }

    scope.get(HOSTED_PAGES.login, async (request, reply) => {
      const rs = signInSession((request.query as Record<string, unknown>).rs);
      if (!("intent" in rs)) return send(reply, rs, 400);
      const current = cookieSession(request);
      if (rs.intent === "auth" && rs.auth.prompt === "none") {
        // Silent sign-in: the session token given to the redirect session, else this browser's cookie.
        const session = ctx.identities.sessionById(rs.loginSessionId) ?? current;
        if (!ctx.redirects.complete(rs.id)) return send(reply, messagePage("This link was already used", "Go back to the site and try again."), 400);
        if (!session) return deliver(reply, rs.auth, { error: "login_required", error_description: "The member is not signed in." });
        return issueCode(reply, rs, session);
      }
      if (rs.intent === "login" && current) {
        const identity = ctx.identities.get(current.memberId);
        if (identity) return send(reply, signedInPage(identity));
      }
      return send(reply, loginPage({ rs: rs.id, csrf: csrfToken(request, reply), formActionOrigins: formOrigins(rs) }));
    });

    scope.post(HOSTED_PAGES.login, async (request, reply) => {
      const body = (request.body ?? {}) as FormBody;
      const rs = signInSession(body.rs);
      if (!("intent" in rs)) return send(reply, rs, 400);
      const email = field(body, "email");
      const form = { rs: rs.id, email, formActionOrigins: formOrigins(rs) };
      if (!csrfValid(request, body)) {
        return send(reply, loginPage({ ...form, csrf: csrfToken(request, reply), error: "This form expired. Please sign in again." }), 403);
      }
      const csrf = csrfToken(request, reply);
      const parsed = loginForm.safeParse({ email, password: field(body, "password") });
      if (!parsed.success) return send(reply, loginPage({ ...form, csrf, error: "Enter your email and password." }));
      const found = ctx.identities.findForLogin(parsed.data.email);
      // Unknown emails are checked against a decoy hash so they take as long as a wrong password.
      const passwordOk = await verifyPassword(parsed.data.password, found?.passwordHash ?? (await decoyPasswordHash()));
      if (!found || !passwordOk) {
        return send(reply, loginPage({ ...form, csrf, error: "That email and password do not match. Check them and try again." }));
      }
      return completeSignIn(request, reply, rs, found.identity);
    });

    scope.get(HOSTED_PAGES.signup, async (request, reply) => {
      const rs = signInSession((request.query as Record<string, unknown>).rs);
      if (!("intent" in rs)) return send(reply, rs, 400);
      return send(reply, signupPage({ rs: rs.id, csrf: csrfToken(request, reply), formActionOrigins: formOrigins(rs) }));
    });

    scope.post(HOSTED_PAGES.signup, async (request, reply) => {
      const body = (request.body ?? {}) as FormBody;
      const rs = signInSession(body.rs);
      if (!("intent" in rs)) return send(reply, rs, 400);
      const input = { displayName: field(body, "displayName"), email: field(body, "email"), password: field(body, "password") };
      const form = { rs: rs.id, displayName: input.displayName, email: input.email, formActionOrigins: formOrigins(rs) };
      if (!csrfValid(request, body)) {
        return send(reply, signupPage({ ...form, csrf: csrfToken(request, reply), error: "This form expired. Please try again." }), 403);
      }
      const csrf = csrfToken(request, reply);
      const parsed = signupForm.safeParse(input);
      if (!parsed.success) {
        const error = [...new Set(parsed.error.issues.map((i) => i.message))].join(" ");
        return send(reply, signupPage({ ...form, csrf, error }));
      }
      const identity = ctx.identities.create({
        email: parsed.data.email,
        passwordHash: await hashPassword(parsed.data.password),
        nickname: parsed.data.displayName,
      });
      if (!identity) {
        return send(reply, signupPage({ ...form, csrf, error: "An account with this email already exists. Sign in instead." }));
      }
      return completeSignIn(request, reply, rs, identity);
    });

    scope.get(HOSTED_PAGES.logout, async (request, reply) => {
      const rs = ctx.redirects.get((request.query as Record<string, unknown>).rs);
      if (!rs || rs.intent !== "logout") {
        return send(reply, messagePage("This link has expired", "Go back to the site and choose Sign out again."), 400);
      }
      // A used link signs out nothing more: it may be an old tab, and a newer session is not its to end.
      if (ctx.redirects.complete(rs.id)) {
        const ended = new Set([rs.loginSessionId, cookieSession(request)?.id].filter((id): id is string => !!id));
        for (const id of ended) {
          ctx.identities.endSession(id);
          ctx.tokens.revokeLoginSession(id);
        }
        reply.header("set-cookie", serializeCookie(SESSION_COOKIE, "", { path: HOSTED_COOKIE_PATH, maxAgeSeconds: 0, secure: secure(request) }));
        if (rs.returnUrl) return reply.redirect(rs.returnUrl, 302);
      }
      return send(reply, messagePage("You are signed out", "You have signed out of the Ridgeline Hiking Club. You can close this page."));
    });
  });
}
