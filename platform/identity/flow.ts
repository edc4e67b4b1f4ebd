import { z } from "zod";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
import { waitInWords } from "@ridgeline/platform-contract/words";
import type { PlatformContext } from "../context";
import { PlatformError } from "../http/errors";
import type { AuthRequest, RedirectSession } from "../redirects/store";
import { IdentityService, type StateReply } from "./iam";
import { passkeyStepScript } from "./hosted-assets";
import { HOSTED_PAGES } from "./paths";
import {
  framedPage,
  loginCodePage,
  loginPage,
  messagePage,
  resetPage,
  signupPage,
  verifyEmailPage,
  webMessagePage,
  type FormError,
  type HtmlPage,
  type Notice,
  type PageContent,
  type PasskeyOffer,
} from "./pages";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./passwords";
import { weakPasswordReason } from "./password-policy";
import type { SecondFactorType } from "./factors";
import { firstWay, type FirstWay } from "./first-way";
import type { LoginSession } from "./login-sessions";
import { resendDecoy, startDecoy, tryDecoyCode, type DecoyVerification, type Throttled } from "./signup-decoy";
import { isShutOut, type Identity } from "./store";
import { VERIFICATION_TTL_MS } from "./verifications";
import { PasskeyService } from "./webauthn";
import { originMayUseRpId, rpIdOf } from "./webauthn-challenge";

/**
 * What a hosted-page request comes to (docs/platform/identity.md §1), for the thin handlers in
 * routes.ts to send: a page, a ready HTML document (web_message), or a redirect (always 303, so
 * that a POST's answer is a GET page the browser's history can go back to); and what happens to
 * the browser's login-session cookie.
 */
export type HostedResult = ({ kind: "page"; page: PageContent; status?: number } | { kind: "document"; page: HtmlPage } | { kind: "redirect"; url: string }) & {
  session?: { token: string } | "clear";
  /** A browser the member just asked to be remembered: the token its cookie is to hold. */
  rememberedDevice?: string;
  /** The way a second step was just answered by: the next login on this browser asks for it first (first-way.ts). */
  lastWay?: SecondFactorType;
};

/**
 * What the handlers know about the browser: its login session, a fresh CSRF token for forms, and
 * its CSRF cookie, which binds what a POST leaves for the next GET to this browser; the
 * platform's origin as the browser opens the pages (platformOrigin), which decides whether they may use passkeys;
 * and the connection's address, the person's own here, against which failed log-ins count too.
 */
export type Browser = {
  session: LoginSession | null;
  csrf: string;
  key: string;
  deviceToken?: string;
  /** The way this browser last finished a second step by, from its `lp_way` cookie. */
  lastWay?: SecondFactorType;
  origin: string;
  address: string;
};

/**
 * What a failed or finished POST leaves for the GET page it redirects to, shown once: never a
 * password. `status` is a message beside the form (a new code went).
 */
type Flash = { error?: FormError; notice?: Notice; status?: string; email?: string; displayName?: string; captcha?: boolean };
/** A log-in waiting for its second factor's code, kept for the code page while the code lives. */
/** `app`: the member's app may answer instead of the challenged factor; `recovery`: they have recovery codes left. */
/** `others`: the member's other factors that send a code, which they may choose instead. */
/** `passkey`: the login's passkey challenge, for a member with passkeys; single-use, so renewed after a refused answer. */
/** `firstBecause`: why the page leads with this way, said on it; none once the member chose another. */
type PendingCode = {
  stateToken: string;
  factorType: SecondFactorType;
  firstBecause?: FirstWay["because"];
  hint: string;
  email: string;
  app: boolean;
  recovery: boolean;
  others: SecondFactorType[];
  passkey?: PendingPasskey;
};
type PendingPasskey = { challengeId: string; optionsJson: string };
/**
 * A sign-up or log-in waiting for the code that confirms its e-mail address, kept for the code
 * page while the code lives: the verification's state token, or for a taken address a stand-in
 * (signup-decoy.ts). The address is shown as it was typed, either way.
 */
type PendingVerification = { email: string } & ({ stateToken: string; decoy?: undefined } | { decoy: DecoyVerification });

/** Long enough to follow a redirect, short enough that a message never shows up much later. */
const FLASH_TTL_MS = 5 * 60 * 1000;
/** The form-state key of a pending code, apart from the code page's one-time message. */
const PENDING_CODE = "pending-code";
/** The form-state key of a pending e-mail verification. */
const PENDING_VERIFICATION = "pending-verification";

const loginForm = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(256),
});
// In the form's order, so the first field at fault is the first one on the page.
const signupForm = z.object({
  email: z
    .string()
    .trim()
    .min(1, "Enter your e-mail address.")
    .max(254, "That e-mail address is too long.")
    .pipe(z.email("Enter an e-mail address like name@example.com.")),
  password: z.string().max(256, "Use at most 256 characters."),
  displayName: z.string().trim().min(1, "Enter a nickname.").max(60, "Nickname can be at most 60 characters."),
});

const page = (content: PageContent, status?: number): HostedResult => ({ kind: "page", page: content, status });
const seeOther = (url: string): HostedResult => ({ kind: "redirect", url });
const pageUrl = (path: string, params: Record<string, string>) => `${path}?${new URLSearchParams(params)}`;

const EXPIRED_SIGN_IN = { title: "This link has expired", message: "Log-in links work for 15 minutes. Go back to the site and choose Log in again." };
const ALREADY_USED = { title: "This link was already used", message: "Go back to the site; if you are not logged in there, choose Log in again." };
const CHECK_INBOX = { title: "Check your inbox", message: "We sent a message to the address you gave. Follow it to finish, then log in." };
const EXPIRED_RESET = { title: "This link has expired", message: "Reset links work once, for an hour. Ask for a new one with “Forgot password?” on the site." };
const FORM_EXPIRED = "This form expired. Please try again.";
const WRONG_PASSWORD = "That e-mail address and password do not match. Check both, or reset the password.";
const CAPTCHA_MISSING = "Please confirm you are not a robot, then try again.";
const AWAITING_APPROVAL = {
  title: "Waiting for approval",
  message: "Your account is waiting for a club organiser to approve it. Try again once you hear from us.",
};
const tooManyCodesSent = (error: PlatformError) => `Too many codes were sent to this account. Try again ${laterBy(retryAfter(error))}.`;
// The e-mail verification's words, as on the site's own code page (lib/auth/forms.ts).
const WRONG_CODE = "That code is not right, or it has expired. Check the latest e-mail and try again.";
const TOO_MANY_WRONG_CODES = "Too many wrong codes, so this one no longer works. Log in again and we will send you a new one.";
const VERIFICATION_EXPIRED = "This verification has expired. Log in again and we will send a new code.";
const noMoreCodes = ({ throttledForSeconds }: Throttled) =>
  `We have sent as many codes as we can for now. Use the latest one, or try again ${laterBy(throttledForSeconds)}.`;
/** The true wait, as the site's forms say it: "in 40 minutes", or "later" when the refusal gave none. */
const laterBy = (seconds: number | undefined) => (seconds ? `in ${waitInWords(seconds)}` : "later");
/** The wait a refusal for too many codes carries (codesThrottled). */
const retryAfter = (error: PlatformError) => (typeof error.data.retryAfterSeconds === "number" ? error.data.retryAfterSeconds : undefined);
const codeResent = (email: string) => `We sent a new code to ${email}. It replaces the previous one and works for 15 minutes.`;

/** The code page's fields, in the order a filled one stands in for the button pressed (an empty field's Enter). */
const WAYS_BY_FIELD = ["code", "app", "recovery"] as const;

const passkeyOf = (data: { challengeId: string; publicKeyCredentialRequestOptionsJson: string } | undefined): PendingPasskey | undefined =>
  data && { challengeId: data.challengeId, optionsJson: data.publicKeyCredentialRequestOptionsJson };

export class HostedFlow {
  private readonly identityService: IdentityService;
  private readonly passkeys: PasskeyService;

  constructor(private readonly ctx: PlatformContext) {
    this.identityService = new IdentityService(ctx);
    this.passkeys = new PasskeyService(ctx, ctx.passkeys, this.identityService);
  }

  /** The log-in page, or at once a code (prompt=none), or back to the site when the flow is already done. */
  showLogin(rsId: unknown, browser: Browser): HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent === "logout") return page(messagePage(EXPIRED_SIGN_IN), 400);
    if (rs.intent === "login" && rs.memberId) return this.prewarm(rs, rs.memberId, browser);
    if (rs.completed) return this.afterCompleted(rs);
    if (rs.intent === "auth" && rs.auth.prompt === "none") {
      // Silent log-in: the session token given to the redirect session, else this browser's cookie.
      const session = this.ctx.loginSessions.byId(rs.loginSessionId) ?? browser.session;
      if (!this.ctx.redirects.complete(rs.id)) return this.afterCompleted(rs);
      if (!session) return this.deliver(rs.auth, { error: "login_required", error_description: "The member is not logged in." });
      return this.issueCode(rs, session);
    }
    const flash = this.takeFlash(HOSTED_PAGES.login, rs.id, browser);
    if (flash.notice) return page(messagePage(flash.notice, this.backToSite(rs)));
    if (rs.intent === "login" && browser.session) {
      const identity = this.ctx.identities.get(browser.session.memberId);
      if (identity) return page(this.loggedInPage(identity, rs));
    }
    const { error, email } = flash;
    const captcha = flash.captcha || this.captchaRequired();
    return page(loginPage({ ...this.formOf(rs, browser), email, error, captcha, forgotPasswordUrl: this.forgotPasswordUrl() }));
  }

  async submitLogin(
    rsId: unknown,
    input: { email: string; password: string; captcha: string },
    browser: Browser & { csrfValid: boolean },
  ): Promise<HostedResult> {
    const rs = this.openSession(rsId, HOSTED_PAGES.login);
    if (!("intent" in rs)) return rs;
    const again = (flash: Flash) => this.redirectWith(HOSTED_PAGES.login, rs.id, browser, { email: input.email, ...flash });
    if (!browser.csrfValid) return again({ error: { message: FORM_EXPIRED } });
    const parsed = loginForm.safeParse(input);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))];
      return again({ error: { message: "Enter your e-mail address and password.", fields } });
    }
    // The same throttles as the API: failures per address, past their limit, refuse every log-in from
    // it; failures per account slow logins down, then ask for a captcha too (docs/platform/identity.md §3.6).
    const locked = await this.ctx.addressLimit.refusedFor(browser.address);
    if (locked > 0) return again({ error: { message: `Too many failed log-ins from this network. Try again ${laterBy(locked)}.` } });
    const { delayMs, captcha } = await this.ctx.loginThrottle.before(parsed.data.email);
    if (captcha && input.captcha !== LOCAL_CAPTCHA_TOKEN) {
      return again({ captcha, error: { message: "Too many failed attempts for this account. Please confirm you are not a robot, then try again." } });
    }
    // The owner's setting asks it of every log-in, as the API does.
    if (this.captchaRequired() && input.captcha !== LOCAL_CAPTCHA_TOKEN) return again({ captcha: true, error: { message: CAPTCHA_MISSING } });
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const found = this.ctx.identities.findForLogin(parsed.data.email);
    // Unknown emails are checked against a decoy hash so they take as long as a wrong password.
    const passwordOk = await verifyPassword(parsed.data.password, found?.passwordHash || (await decoyPasswordHash()));
    if (!found || !passwordOk) {
      await this.ctx.loginThrottle.failed(parsed.data.email);
      await this.ctx.addressLimit.failed(browser.address);
      // The same words for an unknown email, so the page does not tell who is a member; the password is what to retype.
      return again({ error: { message: WRONG_PASSWORD, fields: ["password"] } });
    }
    await this.ctx.loginThrottle.succeeded(parsed.data.email);
    return this.proceed(rs, found.identity, browser, { from: HOSTED_PAGES.login, email: parsed.data.email });
  }

  /**
   * Where a log-in or sign-up goes once the person has proved who they are (a password, a
   * confirmed address), in the API's order (`IdentityService.continueWith`): a blocked account
   * stops; an address still to confirm gets its code step; a pending account waits for approval;
   * a second factor gets its code step; else the flow continues to the site. What there is to say
   * goes to the page the person came from.
   */
  private proceed(rs: RedirectSession, identity: Identity, browser: Browser, { from, email }: { from: string; email: string }): HostedResult {
    const again = (flash: Flash) => this.redirectWith(from, rs.id, browser, { email, ...flash });
    if (isShutOut(identity)) return again({ error: { message: "This account is blocked." } });
    if (this.ctx.settings.get().requireEmailVerification && !identity.emailVerified) {
      let stateToken;
      try {
        stateToken = this.identityService.sendVerification(identity);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        return again({ error: { message: tooManyCodesSent(error) } });
      }
      return this.awaitVerification(rs, browser, { email, stateToken });
    }
    if (identity.status === "PENDING") {
      return again({
        notice:
          from === HOSTED_PAGES.signup
            ? { ...AWAITING_APPROVAL, message: "Your account is created and waits for a club organiser to approve it." }
            : AWAITING_APPROVAL,
      });
    }
    const factors = this.ctx.factors.list(identity.id);
    const remembered = browser.deviceToken !== undefined && this.ctx.rememberedDevices.recognise(identity.id, browser.deviceToken);
    const first = remembered ? undefined : firstWay(factors, browser.lastWay, this.passkeysHere(browser));
    if (first) {
      let challenge;
      try {
        challenge = this.identityService.challenge(identity, factors, first.factor);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        return again({ error: { message: tooManyCodesSent(error) } });
      }
      return this.awaitCode(rs, browser, identity, email, challenge, first.because);
    }
    return this.completeLogin(rs, identity, browser.session);
  }

  /** On to the code page of a log-in's second step, with the challenge kept for this browser while its code lives. */
  private awaitCode(
    rs: RedirectSession,
    browser: Browser,
    identity: Identity,
    email: string,
    challenge: StateReply,
    firstBecause?: FirstWay["because"],
  ): HostedResult {
    const { factorType, verificationChallengeData, availableFactors } = challenge.mfaChallengeData!;
    const pending: PendingCode = {
      stateToken: challenge.stateToken!,
      factorType,
      firstBecause,
      hint: verificationChallengeData.hint,
      email,
      app: factorType !== "TOTP" && availableFactors.some((factor) => factor.factorType === "TOTP"),
      recovery: this.ctx.recoveryCodes.remaining(identity.id) > 0,
      // A passkey and the app send nothing: they have their own forms.
      others: availableFactors
        .map((factor) => factor.factorType)
        .filter((type): type is "EMAIL" | "SMS" => (type === "EMAIL" || type === "SMS") && type !== factorType),
      passkey: passkeyOf(verificationChallengeData.webauthnData),
    };
    this.ctx.formStates.save(this.stateKey(PENDING_CODE, rs.id, browser), pending, VERIFICATION_TTL_MS);
    return seeOther(pageUrl(HOSTED_PAGES.loginCode, { rs: rs.id }));
  }

  /**
   * "Send a new code" (the factor asked, by `factorType` too) or "Send the code by text message
   * instead" (or by e-mail): the log-in's challenge goes on by that factor, with a new code sent by
   * it; the earlier code stops working. The page says where it went; past the hour's codes it
   * says the wait, and the earlier code still works.
   */
  sendCodeBy(rsId: unknown, factorType: string, browser: Browser & { csrfValid: boolean }): HostedResult {
    const form = this.codeStepForm(rsId, browser);
    if ("answer" in form) return form.answer;
    const { rs, pending, again } = form;
    const sends = pending.factorType === "EMAIL" || pending.factorType === "SMS";
    const chosen = [...pending.others, ...(sends ? [pending.factorType] : [])].find((type) => type === factorType);
    if (!chosen) return again({ message: "Choose one of the ways offered below." });
    const identity = this.ctx.identities.findForLogin(pending.email)?.identity;
    if (!identity) return seeOther(pageUrl(HOSTED_PAGES.login, { rs: rs.id }));
    let challenge: StateReply;
    try {
      challenge = this.identityService.continueChallenge(pending.email, pending.stateToken, chosen);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      // Only the hour's codes are used up: the code sent before still works (past the day's wrong codes none does).
      if (error.code === "THROTTLED_FEATURE" && !this.ctx.wrongCodes.reached(identity.id)) {
        return again({ message: `${tooManyCodesSent(error)} The code we sent before still works.` });
      }
      const message = error.code === "THROTTLED_FEATURE" ? tooManyCodesSent(error) : "That code has expired. Log in again and we will send you a new one.";
      return this.redirectWith(HOSTED_PAGES.login, rs.id, browser, { email: pending.email, error: { message } });
    }
    this.awaitCode(rs, browser, identity, pending.email, challenge);
    const { factorType: sentBy, verificationChallengeData } = challenge.mfaChallengeData!;
    const where = `${sentBy === "SMS" ? "by text message to" : "by e-mail to"} ${verificationChallengeData.hint}`;
    return this.redirectWith(HOSTED_PAGES.loginCode, rs.id, browser, {
      status: `We sent a new code ${where}. It replaces the previous one and works for 15 minutes.`,
    });
  }

  /** On to the code page, with the verification it waits for kept for this browser while its code lives. */
  private awaitVerification(rs: RedirectSession, browser: Browser, pending: PendingVerification): HostedResult {
    this.ctx.formStates.save(this.stateKey(PENDING_VERIFICATION, rs.id, browser), pending, VERIFICATION_TTL_MS);
    return seeOther(pageUrl(HOSTED_PAGES.verify, { rs: rs.id }));
  }

  /** The code step of an address still to confirm, while this browser has a verification waiting. */
  showVerify(rsId: unknown, browser: Browser): HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent === "logout") return page(messagePage(EXPIRED_SIGN_IN), 400);
    if (rs.completed) return this.afterCompleted(rs);
    const pending = this.ctx.formStates.read<PendingVerification>(this.stateKey(PENDING_VERIFICATION, rs.id, browser));
    if (!pending) return seeOther(pageUrl(HOSTED_PAGES.login, { rs: rs.id }));
    const { error, status } = this.takeFlash(HOSTED_PAGES.verify, rs.id, browser);
    return page(verifyEmailPage({ ...this.formOf(rs, browser), email: pending.email, error, status }));
  }

  /**
   * The e-mailed code: a right one confirms the address and the flow goes on (`proceed`). A taken
   * address's stand-in answers every code as a real verification answers a wrong one.
   */
  submitVerify(rsId: unknown, input: { code: string }, browser: Browser & { csrfValid: boolean }): HostedResult {
    const rs = this.openSession(rsId, HOSTED_PAGES.verify);
    if (!("intent" in rs)) return rs;
    const key = this.stateKey(PENDING_VERIFICATION, rs.id, browser);
    const pending = this.ctx.formStates.read<PendingVerification>(key);
    if (!pending) return seeOther(pageUrl(HOSTED_PAGES.login, { rs: rs.id }));
    const again = (error: FormError) => this.redirectWith(HOSTED_PAGES.verify, rs.id, browser, { error });
    if (!browser.csrfValid) return again({ message: FORM_EXPIRED });
    const code = input.code.replace(/\s/g, "");
    if (!/^[0-9]{6}$/.test(code)) return again({ message: "Enter the 6 digits of the code, like 123456.", fields: ["code"] });
    let result;
    if (pending.decoy) {
      const now = Date.now();
      const tried = tryDecoyCode(pending.decoy, now);
      this.ctx.formStates.save(key, { ...pending, decoy: tried.decoy }, tried.decoy.expiresAt - now);
      result = tried.result;
    } else {
      result = this.ctx.verifications.check(pending.stateToken, code, "email");
    }
    if (result === "wrong-code") return again({ message: WRONG_CODE, fields: ["code"] });
    const identity = typeof result === "string" ? null : this.ctx.identities.get(result.identityId);
    this.ctx.formStates.delete(key);
    // Tried too often, or over: a log-in starts a new verification with a new code.
    if (!identity) {
      const message = result === "too-many" ? TOO_MANY_WRONG_CODES : VERIFICATION_EXPIRED;
      return this.redirectWith(HOSTED_PAGES.login, rs.id, browser, { email: pending.email, error: { message } });
    }
    this.ctx.identities.markEmailVerified(identity.id);
    return this.proceed(rs, { ...identity, emailVerified: true }, browser, { from: HOSTED_PAGES.login, email: pending.email });
  }

  /** "Resend code": a new code for the waiting verification, within the hourly limit of code mails; the stand-in answers alike. */
  resendVerification(rsId: unknown, browser: Browser & { csrfValid: boolean }): HostedResult {
    const rs = this.openSession(rsId, HOSTED_PAGES.verify);
    if (!("intent" in rs)) return rs;
    const key = this.stateKey(PENDING_VERIFICATION, rs.id, browser);
    const pending = this.ctx.formStates.read<PendingVerification>(key);
    if (!pending) return seeOther(pageUrl(HOSTED_PAGES.login, { rs: rs.id }));
    const again = (flash: Flash) => this.redirectWith(HOSTED_PAGES.verify, rs.id, browser, flash);
    if (!browser.csrfValid) return again({ error: { message: FORM_EXPIRED } });
    const outcome = pending.decoy ? resendDecoy(pending.decoy, Date.now()) : this.resendCode(pending.stateToken);
    if (typeof outcome === "object" && "throttledForSeconds" in outcome) return again({ error: { message: noMoreCodes(outcome) } });
    if (outcome === "expired") {
      this.ctx.formStates.delete(key);
      return this.redirectWith(HOSTED_PAGES.login, rs.id, browser, { email: pending.email, error: { message: VERIFICATION_EXPIRED } });
    }
    // The new code lives 15 minutes from now, and so does what the page keeps of it.
    this.ctx.formStates.save(key, pending.decoy ? { ...pending, decoy: outcome } : pending, VERIFICATION_TTL_MS);
    return again({ status: codeResent(pending.email) });
  }

  /** A real verification's new code, its refusals in the stand-in's words. */
  private resendCode(stateToken: string): "sent" | "expired" | Throttled {
    try {
      this.identityService.resendVerification(stateToken);
      return "sent";
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      if (error.code !== "THROTTLED_FEATURE") return "expired";
      return { throttledForSeconds: retryAfter(error) };
    }
  }

  /** The second step of a log-in: the code page, while this browser has a log-in waiting for one. */
  showLoginCode(rsId: unknown, browser: Browser): HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent === "logout") return page(messagePage(EXPIRED_SIGN_IN), 400);
    if (rs.completed) return this.afterCompleted(rs);
    const pending = this.ctx.formStates.read<PendingCode>(this.stateKey(PENDING_CODE, rs.id, browser));
    if (!pending) return seeOther(pageUrl(HOSTED_PAGES.login, { rs: rs.id }));
    const { error, status } = this.takeFlash(HOSTED_PAGES.loginCode, rs.id, browser);
    return page(
      loginCodePage({
        status,
        ...this.formOf(rs, browser),
        factorType: pending.factorType,
        firstBecause: pending.firstBecause,
        hint: pending.hint,
        app: pending.app,
        recovery: pending.recovery,
        others: pending.others,
        passkey: pending.passkey && this.passkeyOffer(pending.passkey, browser),
        error,
      }),
    );
  }

  /** Whether this browser's hosted pages may use the site's passkeys: only where their origin may use its RP id, which browsers insist on. */
  private passkeysHere(browser: Browser): boolean {
    return originMayUseRpId(browser.origin, rpIdOf(this.ctx.config));
  }

  /** The passkey step as this page can offer it (passkeysHere). */
  private passkeyOffer(passkey: PendingPasskey, browser: Browser): PasskeyOffer {
    if (!this.passkeysHere(browser)) return "site-only";
    return { optionsJson: passkey.optionsJson, script: `${browser.origin}${passkeyStepScript().path}` };
  }

  /**
   * The second step answered with a passkey: the credential the page's script posted, checked as
   * the API checks it (PasskeyService). A refused answer used its challenge up, so the page comes
   * back with a new one and the other ways still offered.
   */
  async submitPasskey(
    rsId: unknown,
    input: { credential: string; rememberAs: string | null },
    browser: Browser & { csrfValid: boolean },
  ): Promise<HostedResult> {
    const form = this.codeStepForm(rsId, browser);
    if ("answer" in form) return form.answer;
    const { rs, pending, pendingKey, again } = form;
    if (!pending.passkey) return again({ message: "Choose one of the ways offered below." });
    let identity: Identity;
    try {
      identity = await this.passkeys.checkLogin(pending.stateToken, { challengeId: pending.passkey.challengeId, credential: input.credential }, browser.origin);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      if (error.code !== "VERIFICATION_FAILED" && error.code !== "INVALID_ARGUMENT") return this.secondStepOver(rs, browser, pending, error);
      this.ctx.formStates.save(pendingKey, { ...pending, passkey: passkeyOf(this.passkeys.loginChallenge(pending.stateToken)) }, VERIFICATION_TTL_MS);
      return again({ message: "That passkey did not work for this account. Try again with a passkey of this account, or use another way below." });
    }
    return this.secondStepDone(rs, browser, identity, input.rememberAs, "WEBAUTHN");
  }

  /**
   * The code of a log-in's second factor, or a recovery code; a right one finishes the log-in as a
   * password alone would have, and with "Remember this device" ticked (`rememberAs` names the
   * browser) gives the browser its remembered-device cookie. The page is one form: `way` is the
   * button pressed (the code, the app's, a recovery code); Enter presses the form's first button,
   * so a way whose field is empty gives way to the one whose field was filled.
   */
  submitLoginCode(
    rsId: unknown,
    input: { way: string; code: string; appCode: string; recoveryCode: string; rememberAs: string | null },
    browser: Browser & { csrfValid: boolean },
  ): HostedResult {
    const form = this.codeStepForm(rsId, browser);
    if ("answer" in form) return form.answer;
    const { rs, pending, again } = form;
    const typed = { code: input.code.trim(), app: pending.app ? input.appCode.trim() : "", recovery: pending.recovery ? input.recoveryCode.trim() : "" };
    const pressed = input.way === "app" || input.way === "recovery" ? input.way : "code";
    const way = typed[pressed] ? pressed : (WAYS_BY_FIELD.find((each) => typed[each]) ?? pressed);
    const recoveryCode = way === "recovery" ? typed.recovery : "";
    const byApp = way === "app";
    const codeField = way === "recovery" ? "recoveryCode" : byApp ? "appCode" : "code";
    const code = (byApp ? typed.app : typed.code).replace(/\s/g, "");
    if (way === "recovery" && !recoveryCode) return again({ message: "Enter one of your recovery codes.", fields: [codeField] });
    if (way !== "recovery" && !/^[0-9]{6}$/.test(code)) return again({ message: "Enter the 6 digits of the code, like 123456.", fields: [codeField] });
    let identity: Identity;
    try {
      identity = recoveryCode
        ? this.identityService.checkFactor(pending.stateToken, recoveryCode, "RECOVERY_CODE")
        : this.identityService.checkFactor(pending.stateToken, code, byApp ? "TOTP" : undefined);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      if (error.code === "VERIFICATION_FAILED") {
        if (recoveryCode) return again({ message: "That recovery code is not right, or it was already used.", fields: ["recoveryCode"] });
        const hint = byApp || pending.factorType === "TOTP" ? "Enter the code your app shows now." : "Check the latest message and try again.";
        return again({ message: `That code is not right, or it has expired. ${hint}`, fields: [codeField] });
      }
      return this.secondStepOver(rs, browser, pending, error);
    }
    // A recovery code is for a lost device: it changes no way to ask first.
    return this.secondStepDone(rs, browser, identity, input.rememberAs, recoveryCode ? undefined : byApp ? "TOTP" : pending.factorType);
  }

  /** Expired or tried too often: this log-in's second step is done; a new log-in sends a new code. */
  private secondStepOver(rs: RedirectSession, browser: Browser, pending: PendingCode, error: PlatformError): HostedResult {
    this.ctx.formStates.delete(this.stateKey(PENDING_CODE, rs.id, browser));
    const message =
      error.code === "THROTTLED_FEATURE"
        ? "Too many wrong codes. Log in again and we will send you a new one."
        : "That code has expired. Log in again and we will send you a new one.";
    return this.redirectWith(HOSTED_PAGES.login, rs.id, browser, { email: pending.email, error: { message } });
  }

  /**
   * A right second step: the log-in finishes, and with "Remember this device" ticked the browser gets its cookie;
   * the way it was answered by (`way`) is the one this browser's next login asks for first.
   */
  private secondStepDone(rs: RedirectSession, browser: Browser, identity: Identity, rememberAs: string | null, way?: SecondFactorType): HostedResult {
    this.ctx.formStates.delete(this.stateKey(PENDING_CODE, rs.id, browser));
    const done = { ...this.completeLogin(rs, identity, browser.session), lastWay: way };
    return rememberAs === null ? done : { ...done, rememberedDevice: this.ctx.rememberedDevices.remember(identity.id, rememberAs) };
  }

  showSignup(rsId: unknown, browser: Browser): HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent === "logout") return page(messagePage(EXPIRED_SIGN_IN), 400);
    if (rs.completed) return this.afterCompleted(rs);
    const { notice, error, email, displayName } = this.takeFlash(HOSTED_PAGES.signup, rs.id, browser);
    if (notice) return page(messagePage(notice, this.backToSite(rs)));
    return page(signupPage({ ...this.formOf(rs, browser), email, displayName, error, captcha: this.captchaRequired() }));
  }

  async submitSignup(
    rsId: unknown,
    input: { displayName: string; email: string; password: string; captcha: string },
    browser: Browser & { csrfValid: boolean },
  ): Promise<HostedResult> {
    const rs = this.openSession(rsId, HOSTED_PAGES.signup);
    if (!("intent" in rs)) return rs;
    const again = (flash: Flash) => this.redirectWith(HOSTED_PAGES.signup, rs.id, browser, flash);
    const typed = { email: input.email, displayName: input.displayName };
    if (!browser.csrfValid) return again({ ...typed, error: { message: FORM_EXPIRED } });
    // As the API's register: the owner's captcha setting first.
    if (this.captchaRequired() && input.captcha !== LOCAL_CAPTCHA_TOKEN) return again({ ...typed, error: { message: CAPTCHA_MISSING } });
    const parsed = signupForm.safeParse(input);
    const issues = parsed.success ? [] : parsed.error.issues.map((issue) => ({ field: String(issue.path[0]), message: issue.message }));
    const weak = weakPasswordReason(input.password);
    if (weak && !issues.some((issue) => issue.field === "password")) issues.push({ field: "password", message: weak });
    if (!parsed.success || issues.length > 0) {
      const fields = Object.keys(signupForm.shape).filter((field) => issues.some((issue) => issue.field === field));
      return again({ ...typed, error: { message: [...new Set(issues.map((issue) => issue.message))].join(" "), fields } });
    }
    const identity = this.ctx.identities.create({
      email: parsed.data.email,
      passwordHash: await hashPassword(parsed.data.password),
      nickname: parsed.data.displayName,
      privacyStatus: this.identityService.initialPrivacy(),
      status: this.ctx.settings.get().requireOwnerApproval ? "PENDING" : "APPROVED",
    });
    const email = parsed.data.email;
    // A taken address: the owner is told by mail, and the page answers as for a new address that
    // needs confirming: the code step when the owner requires it (a stand-in no code opens), else
    // "check your inbox".
    if (!identity) {
      this.identityService.tellOwnerOfSignup(email);
      if (this.ctx.settings.get().requireEmailVerification) return this.awaitVerification(rs, browser, { email, decoy: startDecoy(Date.now()) });
      return again({ notice: CHECK_INBOX });
    }
    return this.proceed(rs, identity, browser, { from: HOSTED_PAGES.signup, email });
  }

  showReset(token: string, browser: Browser): HostedResult {
    const { notice, error } = token ? this.takeFlash(HOSTED_PAGES.reset, token, browser) : {};
    if (notice) return page(messagePage(notice));
    if (!token || !this.ctx.recoveries.peek(token)) return page(messagePage(EXPIRED_RESET), 400);
    return page(resetPage({ token, csrf: browser.csrf, error, formActionOrigins: this.ctx.clients.originsOf() }));
  }

  async submitReset(token: string, password: string, browser: Browser & { csrfValid: boolean }): Promise<HostedResult> {
    const again = (flash: Flash) => (token ? this.redirectWith(HOSTED_PAGES.reset, token, browser, flash) : seeOther(HOSTED_PAGES.reset));
    if (!browser.csrfValid) return again({ error: { message: FORM_EXPIRED } });
    let result;
    try {
      result = await this.identityService.recover(token, password);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      return again({});
    }
    if ("weak" in result) return again({ error: { message: result.weak, fields: ["password"] } });
    // Every session of the member ended with the reset, this browser's cookie included.
    if (!result.redirectUrl)
      return { ...again({ notice: { title: "Your password is set", message: "Log in on the site with your new password." } }), session: "clear" };
    const target = new URL(result.redirectUrl);
    target.searchParams.set("passwordReset", "1");
    return { ...seeOther(target.href), session: "clear" };
  }

  logout(rsId: unknown, browser: Browser): HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent !== "logout")
      return page(messagePage({ title: "This link has expired", message: "Go back to the site and choose Log out again." }), 400);
    const signedOut = page(messagePage({ title: "You are logged out", message: "See you on the trail." }));
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
    if (rs.returnUrl) return { ...seeOther(rs.returnUrl), session };
    return { ...signedOut, session };
  }

  /**
   * A live, unfinished log-in redirect session; else back to the page's GET, which explains
   * (an expired link) or returns to the site (a finished one).
   */
  /**
   * A form posted on the code page: its redirect session, the log-in waiting for its second step
   * (and where it is kept), and the way back to the page with a message; or, for no such session
   * or log-in or a form past its CSRF token, where the browser goes instead.
   */
  private codeStepForm(
    rsId: unknown,
    browser: Browser & { csrfValid: boolean },
  ):
    | { rs: RedirectSession; pending: PendingCode; pendingKey: ReturnType<HostedFlow["stateKey"]>; again: (error: FormError) => HostedResult }
    | { answer: HostedResult } {
    const rs = this.openSession(rsId, HOSTED_PAGES.loginCode);
    if (!("intent" in rs)) return { answer: rs };
    const pendingKey = this.stateKey(PENDING_CODE, rs.id, browser);
    const pending = this.ctx.formStates.read<PendingCode>(pendingKey);
    if (!pending) return { answer: seeOther(pageUrl(HOSTED_PAGES.login, { rs: rs.id })) };
    const again = (error: FormError) => this.redirectWith(HOSTED_PAGES.loginCode, rs.id, browser, { error });
    if (!browser.csrfValid) return { answer: again({ message: FORM_EXPIRED }) };
    return { rs, pending, pendingKey, again };
  }

  private openSession(rsId: unknown, path: string): RedirectSession | HostedResult {
    const rs = this.ctx.redirects.get(rsId);
    if (!rs || rs.intent === "logout" || rs.completed) return seeOther(pageUrl(path, { rs: typeof rsId === "string" ? rsId : "" }));
    return rs;
  }

  private stateKey(path: string, subject: string, browser: Browser) {
    return { page: path, subject, browser: browser.key };
  }

  /** Post/Redirect/Get: what the POST has to say waits, for this browser only, for the page it redirects to. */
  private redirectWith(path: string, subject: string, browser: Browser, flash: Flash): HostedResult {
    this.ctx.formStates.save(this.stateKey(path, subject, browser), flash, FLASH_TTL_MS);
    return seeOther(pageUrl(path, path === HOSTED_PAGES.reset ? { token: subject } : { rs: subject }));
  }

  private takeFlash(path: string, subject: string, browser: Browser): Flash {
    return this.ctx.formStates.take<Flash>(this.stateKey(path, subject, browser)) ?? {};
  }

  /** What every form of a log-in redirect session carries. */
  private formOf(rs: RedirectSession, browser: Browser) {
    return { rs: rs.id, csrf: browser.csrf, formActionOrigins: this.formOrigins(rs), back: this.backToSite(rs) };
  }

  /**
   * Where "Back to the site" leads from a log-in: for an authorization request, its redirect URI
   * with `error=access_denied` and the request's state (OAuth's answer for a person who declines),
   * so the site can return them to where the log-in started; else where the log-in was going.
   */
  private backToSite(rs: RedirectSession): string | undefined {
    if (rs.intent === "login") return rs.returnUrl ?? undefined;
    if (rs.intent !== "auth" || rs.auth.responseMode === "web_message" || !rs.auth.redirectUri) return undefined;
    return this.callbackUrl(rs.auth, { error: "access_denied", error_description: "The member went back without logging in." });
  }

  /**
   * A finished log-in opened again (the browser's Back button): back to the site rather than a dead
   * end. An `auth` session answers its redirect URI as "Back to the site" does (`access_denied` with
   * the request's state, never a second code), so the client can return the person to the page the
   * log-in started from; a `login` session goes to where it was going. Inside a frame
   * (web_message) there is nowhere to go, so it says so.
   */
  private afterCompleted(rs: RedirectSession): HostedResult {
    if (rs.intent === "login") return seeOther(rs.returnUrl ?? `${this.ctx.config.siteUrl}/`);
    if (rs.intent === "auth" && rs.auth.responseMode !== "web_message" && rs.auth.redirectUri) {
      return seeOther(this.callbackUrl(rs.auth, { error: "access_denied", error_description: "This log-in has already finished." }));
    }
    return page(messagePage(ALREADY_USED));
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
    // Finished meanwhile by another request: its GET page says what became of it.
    if (!this.ctx.redirects.complete(rs.id)) return seeOther(pageUrl(HOSTED_PAGES.login, { rs: rs.id }));
    // A fresh session id on every log-in; the browser's previous one ends (session fixation).
    if (previous) this.ctx.loginSessions.end(previous.id);
    const { session, token } = this.ctx.loginSessions.start(identity.id);
    this.ctx.identities.recordLogin(identity.id);
    const next = rs.intent === "auth" ? this.issueCode(rs, session) : seeOther((rs.intent === "login" && rs.returnUrl) || `${this.ctx.config.siteUrl}/`);
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
    if (auth.responseMode === "web_message") {
      const client = this.ctx.clients.get(auth.clientId);
      const origins = auth.redirectUri ? [new URL(auth.redirectUri).origin] : client ? this.ctx.clients.originsOf(client) : [];
      return { kind: "document", page: webMessagePage({ ...result, state: auth.state }, origins) };
    }
    return seeOther(this.callbackUrl(auth, result));
  }

  /** The client's redirect URI carrying a result and the request's state, in the query or the fragment as it asked. */
  private callbackUrl(auth: AuthRequest, result: Record<string, string>): string {
    const params = { ...result, state: auth.state };
    // Redirect sessions without a redirect URI are web_message only, so the URI exists here.
    const target = new URL(auth.redirectUri as string);
    if (auth.responseMode === "query") {
      for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
    } else {
      target.hash = new URLSearchParams(params).toString();
    }
    return target.href;
  }

  /** Origins the forms may hand the browser over to after logging in. */
  private formOrigins(rs: RedirectSession): string[] {
    const client = rs.intent === "auth" ? this.ctx.clients.get(rs.auth.clientId) : null;
    return this.ctx.clients.originsOf(client ?? undefined);
  }

  /** The owner's setting: every log-in and sign-up shows the captcha box, as the API asks every call for an answer. */
  private captchaRequired(): boolean {
    return this.ctx.settings.get().requireCaptcha;
  }

  private forgotPasswordUrl(): string {
    return `${this.ctx.config.siteUrl}/forgot-password`;
  }

  private loggedInPage(identity: Identity, rs: RedirectSession): PageContent {
    return messagePage({ title: "You are logged in", message: `Logged in as ${identity.nickname}. You can close this page.` }, this.backToSite(rs));
  }
}
