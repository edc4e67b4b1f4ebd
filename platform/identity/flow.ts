import { z } from "zod";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
import type { PlatformContext } from "../context";
import { PlatformError } from "../http/errors";
import type { AuthRequest, RedirectSession } from "../redirects/store";
import { IdentityService } from "./iam";
import { HOSTED_PAGES } from "./paths";
import {
  SITE_NAME,
  framedPage,
  loginCodePage,
  loginRestartPage,
  loginPage,
  messagePage,
  resetPage,
  signupPage,
  webMessagePage,
  type FormError,
  type HtmlPage,
  type PageContent,
} from "./pages";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { weakPasswordReason } from "./password-policy";
import type { LoginSession } from "./login-sessions";
import type { Identity } from "./store";

/**
 * What a hosted-page request comes to (docs/platform/identity.md §1), for the thin handlers in
 * routes.ts to send: a page, a ready HTML document (web_message), or a redirect; and what happens
 * to the browser's login-session cookie.
 */
export type HostedResult = (
  { kind: "page"; page: PageContent; status?: number } | { kind: "document"; page: HtmlPage } | { kind: "redirect"; url: string; status?: 302 | 303 }
) & { session?: { token: string } | "clear" };

/** What the handlers know about the browser: its login session and a fresh CSRF token for forms. */
export type Browser = { session: LoginSession | null; csrf: string };

const loginForm = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(256),
});
const signupForm = z.object({
  displayName: z.string().trim().min(1, "Enter a display name.").max(60, "Keep the display name to 60 characters."),
  email: z.email("Enter a valid email address.").max(254, "Enter a valid email address."),
  password: z.string().max(256, "Keep the password to 256 characters."),
});

const page = (content: PageContent, status?: number): HostedResult => ({ kind: "page", page: content, status });

const EXPIRED_SIGN_IN = messagePage("This link has expired", "Log-in links work for 15 minutes. Go back to the site and choose Log in again.");
const ALREADY_USED = messagePage("This link was already used", "Go back to the site; if you are not logged in there, choose Log in again.");
const CHECK_INBOX = messagePage("Check your inbox", "We sent a message to the address you gave. Follow it to finish, then log in.");
const EXPIRED_RESET = messagePage("This link has expired", "Reset links work once, for an hour. Ask for a new one with “Forgot password?” on the site.");

export class HostedFlow {
  private readonly identityService: IdentityService;

  constructor(private readonly ctx: PlatformContext) {
    this.identityService = new IdentityService(ctx);
  }

  /** The log-in page, or at once a code (prompt=none), or back to the site when the flow is already done. */
  showLogin(rsId: unknown, browser: Browser): HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent === "logout") return page(EXPIRED_SIGN_IN, 400);
    if (rs.intent === "login" && rs.memberId) return this.prewarm(rs, rs.memberId, browser);
    if (rs.completed) return this.afterCompleted(rs);
    if (rs.intent === "auth" && rs.auth.prompt === "none") {
      // Silent log-in: the session token given to the redirect session, else this browser's cookie.
      const session = this.ctx.loginSessions.byId(rs.loginSessionId) ?? browser.session;
      if (!this.ctx.redirects.complete(rs.id)) return this.afterCompleted(rs);
      if (!session) return this.deliver(rs.auth, { error: "login_required", error_description: "The member is not logged in." });
      return this.issueCode(rs, session);
    }
    if (rs.intent === "login" && browser.session) {
      const identity = this.ctx.identities.get(browser.session.memberId);
      if (identity) return page(this.loggedInPage(identity));
    }
    return page(loginPage({ rs: rs.id, csrf: browser.csrf, formActionOrigins: this.formOrigins(rs), forgotPasswordUrl: this.forgotPasswordUrl() }));
  }

  async submitLogin(
    rsId: unknown,
    input: { email: string; password: string; captcha: string },
    browser: Browser & { csrfValid: boolean },
  ): Promise<HostedResult> {
    const rs = this.openSession(rsId);
    if (!("intent" in rs)) return rs;
    const form = { rs: rs.id, email: input.email, csrf: browser.csrf, formActionOrigins: this.formOrigins(rs), forgotPasswordUrl: this.forgotPasswordUrl() };
    const again = (error: FormError, status?: number) => page(loginPage({ ...form, error }), status);
    if (!browser.csrfValid) return again({ message: "This form expired. Please log in again." }, 403);
    const parsed = loginForm.safeParse(input);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))];
      return again({ message: "Enter your email and password.", fields });
    }
    // The same throttle as the API: failures per account slow logins down, then ask for a captcha too (docs/platform/identity.md §3.6).
    const { delayMs, captcha } = await this.ctx.loginThrottle.before(parsed.data.email);
    if (captcha && input.captcha !== LOCAL_CAPTCHA_TOKEN) {
      return page(
        loginPage({ ...form, captcha, error: { message: "Too many failed attempts for this account. Confirm you are not a robot, then log in." } }),
        429,
      );
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const found = this.ctx.identities.findForLogin(parsed.data.email);
    // Unknown emails are checked against a decoy hash so they take as long as a wrong password.
    const passwordOk = await verifyPassword(parsed.data.password, found?.passwordHash || (await decoyPasswordHash()));
    if (!found || !passwordOk) {
      await this.ctx.loginThrottle.failed(parsed.data.email);
      // The same words for an unknown email, so the page does not tell who is a member; the password is what to retype.
      return again({ message: "That email and password do not match. Check them and try again.", fields: ["password"] });
    }
    await this.ctx.loginThrottle.succeeded(parsed.data.email);
    if (found.identity.status === "PENDING") {
      return page(messagePage("Waiting for approval", "Your account is waiting for a club organiser to approve it. Try again once you hear from us."));
    }
    if (found.identity.status === "BLOCKED") return again({ message: "This account is blocked." }, 403);
    const factors = this.ctx.factors.list(found.identity.id);
    if (factors.length > 0) {
      let challenge;
      try {
        challenge = this.identityService.challenge(found.identity, factors);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        return again({ message: "Too many login codes were sent to this account. Try again in an hour." }, 429);
      }
      const { factorType, verificationChallengeData } = challenge.mfaChallengeData!;
      const codeForm = { rs: rs.id, csrf: browser.csrf, formActionOrigins: form.formActionOrigins, stateToken: challenge.stateToken! };
      return page(loginCodePage({ ...codeForm, factorType, hint: verificationChallengeData.hint }));
    }
    return this.completeLogin(rs, found.identity, browser.session);
  }

  /** The code of a log-in's second factor; a right one finishes the log-in as a password alone would have. */
  submitLoginCode(rsId: unknown, input: { stateToken: string; code: string; factorType: string; hint: string }, browser: Browser & { csrfValid: boolean }) {
    const rs = this.openSession(rsId);
    if (!("intent" in rs)) return rs;
    const form = { rs: rs.id, csrf: browser.csrf, formActionOrigins: this.formOrigins(rs), stateToken: input.stateToken, hint: input.hint };
    const factorType = input.factorType === "SMS" ? ("SMS" as const) : ("EMAIL" as const);
    const again = (error: FormError, status?: number) => page(loginCodePage({ ...form, factorType, error }), status);
    if (!browser.csrfValid) return again({ message: "This form expired. Please log in again." }, 403);
    const code = input.code.trim();
    if (!/^[0-9]{6}$/.test(code)) return again({ message: "Enter the 6-digit code.", fields: ["code"] });
    let identity: Identity;
    try {
      identity = this.identityService.checkFactor(input.stateToken, code);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      const restart = `${HOSTED_PAGES.login}?${new URLSearchParams({ rs: rs.id })}`;
      if (error.code === "VERIFICATION_FAILED") return again({ message: "That code is not right. Check the latest message and try again.", fields: ["code"] });
      const title = error.code === "THROTTLED_FEATURE" ? "Too many wrong codes" : "This code has expired";
      return page(loginRestartPage(title, restart), error.code === "THROTTLED_FEATURE" ? 429 : 400);
    }
    return this.completeLogin(rs, identity, browser.session);
  }

  showSignup(rsId: unknown, browser: Browser): HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent === "logout") return page(EXPIRED_SIGN_IN, 400);
    if (rs.completed) return this.afterCompleted(rs);
    return page(signupPage({ rs: rs.id, csrf: browser.csrf, formActionOrigins: this.formOrigins(rs) }));
  }

  async submitSignup(
    rsId: unknown,
    input: { displayName: string; email: string; password: string },
    browser: Browser & { csrfValid: boolean },
  ): Promise<HostedResult> {
    const rs = this.openSession(rsId);
    if (!("intent" in rs)) return rs;
    const form = { rs: rs.id, displayName: input.displayName, email: input.email, csrf: browser.csrf, formActionOrigins: this.formOrigins(rs) };
    const again = (error: FormError, status?: number) => page(signupPage({ ...form, error }), status);
    if (!browser.csrfValid) return again({ message: "This form expired. Please try again." }, 403);
    const parsed = signupForm.safeParse(input);
    const issues = parsed.success ? [] : parsed.error.issues.map((issue) => ({ field: String(issue.path[0]), message: issue.message }));
    const weak = weakPasswordReason(input.password);
    if (weak && !issues.some((issue) => issue.field === "password")) issues.push({ field: "password", message: weak });
    if (!parsed.success || issues.length > 0) {
      return again({ message: [...new Set(issues.map((issue) => issue.message))].join(" "), fields: [...new Set(issues.map((issue) => issue.field))] });
    }
    const identity = this.ctx.identities.create({
      email: parsed.data.email,
      passwordHash: await hashPassword(parsed.data.password),
      nickname: parsed.data.displayName,
      status: this.ctx.settings.get().requireOwnerApproval ? "PENDING" : "APPROVED",
    });
    // The same answer as for a new address that needs confirming; the owner is told by mail.
    if (!identity) {
      this.identityService.tellOwnerOfSignup(parsed.data.email);
      return page(CHECK_INBOX);
    }
    if (identity.status === "PENDING") {
      return page(messagePage("Waiting for approval", "Your account is created and waits for a club organiser to approve it."));
    }
    return this.completeLogin(rs, identity, browser.session);
  }

  showReset(token: string, browser: Browser): HostedResult {
    if (!token || !this.ctx.recoveries.peek(token)) return page(EXPIRED_RESET, 400);
    return page(resetPage({ token, csrf: browser.csrf, formActionOrigins: this.ctx.clients.originsOf() }));
  }

  async submitReset(token: string, password: string, browser: Browser & { csrfValid: boolean }): Promise<HostedResult> {
    const form = { token, csrf: browser.csrf, formActionOrigins: this.ctx.clients.originsOf() };
    if (!browser.csrfValid) return page(resetPage({ ...form, error: { message: "This form expired. Please try again." } }), 403);
    let result;
    try {
      result = await this.identityService.recover(token, password);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      return page(EXPIRED_RESET, 400);
    }
    if ("weak" in result) return page(resetPage({ ...form, error: { message: result.weak, fields: ["password"] } }));
    // Every session of the member ended with the reset, this browser's cookie included.
    if (!result.redirectUrl) return { ...page(messagePage("Your password is set", "Log in on the site with your new password.")), session: "clear" };
    const target = new URL(result.redirectUrl);
    target.searchParams.set("passwordReset", "1");
    return { kind: "redirect", url: target.href, status: 303, session: "clear" };
  }

  logout(rsId: unknown, browser: Browser): HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent !== "logout") return page(messagePage("This link has expired", "Go back to the site and choose Log out again."), 400);
    const signedOut = page(messagePage("You are logged out", `You have logged out of the ${SITE_NAME}.`));
    // A used link logs out nothing more: it may be an old tab, and a newer session is not its to end.
    if (!this.ctx.redirects.complete(rs.id)) return signedOut;
    // Only the member whose token asked for the link: a link anyone can make (with a visitor
    // token) must not sign out whoever opens it.
    const ownBrowser = rs.memberId !== null && browser.session?.memberId === rs.memberId;
    const ended = new Set([rs.loginSessionId, ownBrowser ? browser.session?.id : null].filter((id): id is string => !!id));
    for (const id of ended) {
      this.ctx.loginSessions.end(id);
      this.ctx.tokens.revokeLoginSession(id);
    }
    // The cookie goes too when it is this member's, or already dead (the site ended the session first).
    const session = rs.memberId !== null && (ownBrowser || !browser.session) ? ("clear" as const) : undefined;
    if (rs.returnUrl) return { kind: "redirect", url: rs.returnUrl, session };
    return { ...signedOut, session };
  }

  /** A live, unfinished log-in redirect session, or the result explaining why there is none. */
  private openSession(rsId: unknown): RedirectSession | HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent === "logout") return page(EXPIRED_SIGN_IN, 400);
    if (rs.completed) return page(ALREADY_USED);
    return rs;
  }

  /**
   * A finished log-in opened again (the browser's Back button): back to the site rather than a dead
   * end. The authorization callback cannot take the same flow twice, so an `auth` session returns to
   * the site's front page; a `login` session to where it was going. Inside a frame (web_message)
   * there is nowhere to go, so it says so.
   */
  private afterCompleted(rs: RedirectSession): HostedResult {
    if (rs.intent === "login") return { kind: "redirect", url: rs.returnUrl ?? `${this.ctx.config.siteUrl}/`, status: 303 };
    if (rs.intent === "auth" && rs.auth.responseMode !== "web_message" && rs.auth.redirectUri) {
      return { kind: "redirect", url: `${new URL(rs.auth.redirectUri).origin}/`, status: 303 };
    }
    return page(ALREADY_USED);
  }

  /**
   * Session pre-warm (the SDK's `syncToWixPages`): a login session a member's server asked for
   * with their token signs this browser in as them on the hosted pages, once. The site loads it
   * in a hidden frame, so the answer is an empty page its origins may frame.
   */
  private prewarm(rs: RedirectSession, memberId: string, browser: Browser): HostedResult {
    const done: HostedResult = { kind: "document", page: framedPage("Signed in", this.ctx.clients.originsOf()) };
    const identity = this.ctx.identities.get(memberId);
    if (!this.ctx.redirects.complete(rs.id) || identity?.status !== "APPROVED" || browser.session?.memberId === memberId) return done;
    // A fresh session id, as on any log-in; the browser's previous one ends.
    if (browser.session) this.ctx.loginSessions.end(browser.session.id);
    return { ...done, session: { token: this.ctx.loginSessions.start(memberId).token } };
  }

  /** After a correct password or a sign-up: a new login session, then the flow continues. */
  private completeLogin(rs: RedirectSession, identity: Identity, previous: LoginSession | null): HostedResult {
    if (!this.ctx.redirects.complete(rs.id)) return page(ALREADY_USED);
    // A fresh session id on every log-in; the browser's previous one ends (session fixation).
    if (previous) this.ctx.loginSessions.end(previous.id);
    const { session, token } = this.ctx.loginSessions.start(identity.id);
    this.ctx.identities.recordLogin(identity.id);
    const next: HostedResult =
      rs.intent === "auth"
        ? this.issueCode(rs, session)
        : rs.intent === "login" && rs.returnUrl
          ? { kind: "redirect", url: rs.returnUrl }
          : page(this.loggedInPage(identity));
    return { ...next, session: { token } };
  }

  private issueCode(rs: RedirectSession & { intent: "auth" }, session: LoginSession): HostedResult {
    const code = this.ctx.codes.issue({
      clientId: rs.auth.clientId,
      redirectUri: rs.auth.redirectUri,
      codeChallenge: rs.auth.codeChallenge,
      memberId: session.memberId,
      loginSessionId: session.id,
    });
    return this.deliver(rs.auth, { code });
  }

  /** Hands the result to the client by the requested response mode (docs/platform/identity.md §1.3). */
  private deliver(auth: AuthRequest, result: Record<string, string>): HostedResult {
    const params = { ...result, state: auth.state };
    if (auth.responseMode === "web_message") {
      const client = this.ctx.clients.get(auth.clientId);
      const origins = auth.redirectUri ? [new URL(auth.redirectUri).origin] : client ? this.ctx.clients.originsOf(client) : [];
      return { kind: "document", page: webMessagePage(params, origins) };
    }
    // Redirect sessions without a redirect URI are web_message only, so the URI exists here.
    const target = new URL(auth.redirectUri as string);
    if (auth.responseMode === "query") {
      for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
    } else {
      target.hash = new URLSearchParams(params).toString();
    }
    return { kind: "redirect", url: target.href };
  }

  /** Origins the forms may hand the browser over to after logging in. */
  private formOrigins(rs: RedirectSession): string[] {
    const client = rs.intent === "auth" ? this.ctx.clients.get(rs.auth.clientId) : null;
    return this.ctx.clients.originsOf(client ?? undefined);
  }

  private forgotPasswordUrl(): string {
    return `${this.ctx.config.siteUrl}/forgot-password`;
  }

  private loggedInPage(identity: Identity): PageContent {
    return messagePage("You are logged in", `Logged in as ${identity.nickname}. You can close this page.`);
  }
}
