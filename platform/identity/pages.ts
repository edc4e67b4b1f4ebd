import { createHash } from "node:crypto";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
import { BRANDING } from "./branding";
import type { SecondFactorType } from "./factors";
import { HOSTED_PAGES } from "./paths";

/** HTML for the hosted pages. Every value that came from a request goes through `escapeHtml`. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside a <script> element: no `</script>`, no line separators. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function cspHash(source: string): string {
  return `'sha256-${createHash("sha256").update(source).digest("base64")}'`;
}

// The site's look (app/globals.css, components/auth/auth-card.tsx, components/forms/*): its header bar,
// one narrow card, its colours and type. Values are Tailwind's, written out.
const STYLE = `
:root { color-scheme: light; --pine-100: #dcebdf; --pine-600: #2f6b45; --pine-700: #255638; --pine-900: #15301f;
  --stone-200: #e7e5e4; --stone-400: #a6a09b; --stone-600: #57534d; --stone-700: #44403b; --stone-800: #292524; --stone-900: #1c1917; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; font-family: ${BRANDING.fontSans}; background: #fbf8f3; color: var(--stone-800);
  line-height: 1.5; -webkit-font-smoothing: antialiased; }
.site-header { border-bottom: 1px solid var(--stone-200); background: rgba(255,255,255,.8); }
.site-header div { max-width: 72rem; margin: 0 auto; padding: 16px; }
.brand { display: inline-flex; align-items: center; gap: 8px; font-family: ${BRANDING.fontSerif}; font-size: 1.25rem; line-height: 1.75rem;
  font-weight: 600; color: var(--pine-900); text-decoration: none; }
main { max-width: 28rem; margin: 0 auto; padding: 40px 16px; }
.card { background: #fff; border: 1px solid var(--stone-200); border-radius: 16px; padding: 32px 20px;
  box-shadow: 0 1px 3px rgba(0,0,0,.1), 0 1px 2px -1px rgba(0,0,0,.1); }
@media (min-width: 640px) { .site-header div { padding: 16px 24px; } main { padding: 64px 0; } .card { padding: 32px; } }
h1 { margin: 0; font-family: ${BRANDING.fontSerif}; font-size: 1.875rem; line-height: 2.25rem; font-weight: 600; color: var(--pine-900); }
.intro { margin: 8px 0 0; font-size: .875rem; color: var(--stone-700); }
.body { margin-top: 24px; }
p { margin: 0 0 16px; }
form > * + * { margin-top: 20px; }
.field > * + * { margin-top: 6px; }
label { display: block; font-size: .875rem; font-weight: 500; color: var(--stone-800); }
input { display: block; width: 100%; padding: 10px 12px; font: inherit; color: var(--stone-900); background: #fff; border: 1px solid var(--stone-400);
  border-radius: 8px; box-shadow: 0 1px 2px rgba(0,0,0,.05); outline: none; }
input:focus-visible { border-color: var(--pine-700); box-shadow: 0 0 0 4px var(--pine-100); }
input[aria-invalid="true"] { border-color: #e7000b; }
input[aria-invalid="true"]:focus-visible { box-shadow: 0 0 0 4px #ffc9c9; }
.check { display: flex; align-items: flex-start; gap: 12px; font-weight: 400; }
.check input { width: 20px; height: 20px; margin: 2px 0 0; accent-color: var(--pine-700); box-shadow: none; }
.hint { margin: 0; color: var(--stone-600); font-size: .75rem; }
button { width: 100%; padding: 12px 20px; font: inherit; font-weight: 500; color: #fff; background: var(--pine-700); border: 0; border-radius: 8px;
  cursor: pointer; }
button:hover { background: var(--pine-600); }
button:focus-visible { outline: none; box-shadow: 0 0 0 4px var(--pine-100); }
.error { background: #fef2f2; color: #82181a; border: 1px solid #ffa2a2; border-radius: 8px; padding: 12px 16px; margin: 0 0 20px; font-size: .875rem; }
.error:focus { outline: 2px solid var(--pine-700); outline-offset: 2px; }
.status { background: #f0fdf4; color: var(--pine-900); border: 1px solid #b9f8cf; border-radius: 8px; padding: 12px 16px; margin: 0 0 20px;
  font-size: .875rem; }
.resend { margin-top: 24px; padding-top: 20px; border-top: 1px solid var(--stone-200); }
.resend p { margin: 0; font-size: .875rem; color: var(--stone-700); }
.way { margin-top: 24px; padding-top: 16px; border-top: 1px solid var(--stone-200); }
.way > p:first-of-type { margin: 0 0 12px; font-size: .875rem; color: var(--stone-700); }
.way button { width: auto; }
/* "Use another way" (the site's SecondStepForm): a rule, a link-like summary, each way below it in small grey words. */
details.ways { margin-top: 24px; padding-top: 16px; border-top: 1px solid var(--stone-200); }
details.ways > summary { cursor: pointer; list-style: none; font-weight: 500; color: var(--pine-700); text-underline-offset: 2px; }
details.ways > summary::-webkit-details-marker { display: none; }
details.ways > summary:hover { text-decoration: underline; }
details.ways > summary:focus-visible { outline: 2px solid var(--pine-700); outline-offset: 2px; }
.other { margin-top: 16px; }
.other > * + * { margin-top: 12px; }
.other > p { margin: 0; font-size: .875rem; color: var(--stone-700); }
.other.hint { margin: 16px 0 0; font-size: .875rem; color: var(--stone-700); }
.other button { width: auto; }
.other.recovery { margin-top: 24px; padding-top: 16px; border-top: 1px solid var(--stone-200); }
.buttons { display: flex; flex-wrap: wrap; gap: 12px; }
.buttons form > * + * { margin-top: 0; }
button.quiet { width: auto; color: var(--pine-700); background: #fff; border: 1px solid var(--stone-400); }
button.quiet:hover { background: var(--pine-100); }
.forgot { margin: 16px 0 0; text-align: right; font-size: .875rem; }
.footer { margin-top: 24px; padding-top: 20px; border-top: 1px solid var(--stone-200); font-size: .875rem; color: var(--stone-700); }
.footer p { margin: 0; }
.footer p + p { margin-top: 8px; }
a { color: var(--pine-700); font-weight: 500; text-underline-offset: 2px; }
a:focus-visible { outline: 2px solid var(--pine-700); outline-offset: 2px; }
`;

export type HtmlPage = { html: string; csp: string };

/**
 * What a hosted page shows; `render` wraps it in the site's frame. `back` is where "Back to the
 * site" leads (by default the site's front page); `footer` holds the page's own links.
 */
/** `scripts`: the page's own script files (absolute URLs on the platform's origin), the only scripts its CSP allows. */
export type PageContent = {
  title: string;
  content: string;
  intro?: string;
  footer?: string;
  back?: string;
  formActionOrigins?: readonly string[];
  scripts?: readonly string[];
};

export function render(page: PageContent, siteUrl: string): HtmlPage {
  const { title, formActionOrigins = [], scripts = [] } = page;
  const back = escapeHtml(page.back ?? `${siteUrl}/`);
  const footer = `${page.footer ?? ""}\n<p><a href="${back}">Back to ${BRANDING.name}</a></p>`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · ${BRANDING.name}</title>
<style>${STYLE}</style>
</head>
<body>
<header class="site-header"><div><a class="brand" href="${back}">${BRANDING.logo}${BRANDING.shortName}</a></div></header>
<main>
<section class="card">
<h1>${escapeHtml(title)}</h1>
${page.intro ? `<p class="intro">${page.intro}</p>\n` : ""}<div class="body">
${page.content}
</div>
<div class="footer">
${footer}
</div>
</section>
</main>
${scripts.map((src) => `<script src="${escapeHtml(src)}" defer></script>\n`).join("")}</body>
</html>
`;
  // A form's redirect to the site after sign-in counts as a form action, so the site's origins are allowed.
  const formAction = ["'self'", ...formActionOrigins].join(" ");
  // Scripts only for a page that has its own: exactly those files.
  const scriptSrc = scripts.length > 0 ? [`script-src ${scripts.join(" ")}`] : [];
  const csp = ["default-src 'none'", `style-src ${cspHash(STYLE)}`, ...scriptSrc, `form-action ${formAction}`, "frame-ancestors 'none'", "base-uri 'none'"];
  return { html, csp: csp.join("; ") };
}

function errorBlock(error: string | undefined, focus: boolean): string {
  if (!error) return "";
  // With no field to blame (an expired form), the message itself takes the focus.
  return `<div class="error" role="alert" id="form-error"${focus ? ` tabindex="-1" autofocus` : ""}>${escapeHtml(error)}</div>`;
}

function hiddenFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join("");
}

/** A form's error: the message, and the fields it is about (the first one gets the focus). */
export type FormError = { message: string; fields?: readonly string[] };

/** A form page: its CSRF token, the error its last POST left (shown once), and where "Back to the site" leads. */
export type FormState = { csrf: string; error?: FormError; formActionOrigins: readonly string[]; back?: string };

/** `form`: the form a field outside it belongs to; `optional`: not `required` (one of several ways, each with its own button). */
type Field = {
  name: string;
  label: string;
  type: string;
  autocomplete: string;
  value?: string;
  limits?: string;
  hint?: string;
  form?: string;
  optional?: boolean;
};

/** A labelled input; only the fields the error names are marked invalid, and the first of them is focused. */
function input(field: Field, error: FormError | undefined): string {
  const invalid = error?.fields?.includes(field.name) ?? false;
  const described = [field.hint ? `${field.name}-hint` : "", invalid ? "form-error" : ""].filter(Boolean).join(" ");
  const attrs = [
    `id="${field.name}"`,
    `name="${field.name}"`,
    `type="${field.type}"`,
    `autocomplete="${field.autocomplete}"`,
    field.form ? `form="${field.form}"` : "",
    field.optional ? "" : "required",
    field.limits ?? "",
    field.value !== undefined ? `value="${escapeHtml(field.value)}"` : "",
    described ? `aria-describedby="${described}"` : "",
    invalid ? `aria-invalid="true"` : "",
    invalid && error?.fields?.[0] === field.name ? "autofocus" : "",
  ].filter(Boolean);
  return `<div class="field"><label for="${field.name}">${field.label}</label>
<input ${attrs.join(" ")}>${field.hint ? `\n<p class="hint" id="${field.name}-hint">${field.hint}</p>` : ""}</div>`;
}

function formError(error: FormError | undefined): string {
  return errorBlock(error?.message, !error?.fields?.length);
}

/** The password field of the sign-up and reset pages: the same limits as the identity service checks. */
const NEW_PASSWORD = {
  name: "password",
  type: "password",
  autocomplete: "new-password",
  limits: `minlength="8" maxlength="256"`,
  hint: "At least 8 characters; avoid common passwords.",
} as const;

/** The e-mail field, worded as on the site's own forms. */
function emailField(autocomplete: string, value: string | undefined, error: FormError | undefined): string {
  return input({ name: "email", label: "E-mail", type: "email", autocomplete, limits: `maxlength="254"`, value: value ?? "" }, error);
}

/** The local captcha's visible challenge, when a form needs one (the owner's setting, or an account's failed logins). */
function captchaBox(shown: boolean | undefined): string {
  return shown ? `<label class="check"><input type="checkbox" name="captcha" value="${LOCAL_CAPTCHA_TOKEN}" required>I am not a robot</label>` : "";
}

export function loginPage(state: FormState & { rs: string; email?: string; forgotPasswordUrl: string; captcha?: boolean }): PageContent {
  const signupHref = `${HOSTED_PAGES.signup}?${new URLSearchParams({ rs: state.rs })}`;
  return {
    title: "Log in",
    intro: "Welcome back. Log in to see members' outings and write trail reports.",
    content: `${formError(state.error)}
<form method="post" action="${HOSTED_PAGES.login}">
${hiddenFields({ rs: state.rs, csrf: state.csrf })}
${emailField("username", state.email, state.error)}
${input({ name: "password", label: "Password", type: "password", autocomplete: "current-password" }, state.error)}
${captchaBox(state.captcha)}
<button type="submit">Log in</button>
</form>
<p class="forgot"><a href="${escapeHtml(state.forgotPasswordUrl)}">Forgot password?</a></p>`,
    footer: `<p>New to the club? <a href="${escapeHtml(signupHref)}">Create an account</a></p>`,
    back: state.back,
    formActionOrigins: state.formActionOrigins,
  };
}

const CODE_LIMITS = `inputmode="numeric" pattern="[0-9]{6}" maxlength="6"`;

/** What the code page says of where the code is, by the factor the login challenged. */
function codeIntro(factorType: SecondFactorType, hint: string): string {
  if (factorType === "WEBAUTHN") return "Your account has two-step sign-in. Use your passkey to finish logging in.";
  if (factorType === "TOTP") return "Your account has two-step sign-in. Open your authenticator app and enter the 6-digit code it shows for this site.";
  const where = factorType === "SMS" ? "by text message to" : "by e-mail to";
  return `Your account has two-step sign-in. We sent a 6-digit code ${where} <strong>${escapeHtml(hint)}</strong>. It works for 15 minutes.`;
}

/**
 * A log-in's passkey step: the request options for the browser's passkey prompt and the script
 * that runs it; `site-only` when this page's origin may not use the site's passkeys (WebAuthn
 * binds them to the site's host), which the page then says instead.
 */
export type PasskeyOffer = { optionsJson: string; script: string } | "site-only";

/** The code page's one form (`loginCodePage`): every way's field and button belong to it, so its one "Remember this device" box goes with each. */
const SECOND_STEP_FORM = "second-step";

const REMEMBER = `<label class="check"><input type="checkbox" name="remember" value="1">Remember this device for 30 days</label>`;

/** Why the page leads with its way (first-way.ts), said when the member has others. */
const FIRST_BECAUSE: Record<"last-used" | "newest", string> = {
  "last-used": "We ask for this way first because you last logged in with it on this browser; your other ways are below.",
  newest: "We ask for this way first because you set it up most recently; your other ways are below.",
};

/**
 * The passkey's form, hidden until its script runs (passkey-step.ts): the script fills the
 * credential, and the page's "Remember this device" choice, and posts it. Without JavaScript a note says passkeys need it.
 */
function passkeySection(state: { rs: string; csrf: string }, offer: PasskeyOffer, leading: boolean): string {
  if (offer === "site-only") return `<p class="hint${leading ? "" : " other"}">Passkeys work on the site's own login form, not on this page.</p>`;
  return `<section id="passkey"${leading ? "" : ` class="other"`} hidden>
${leading ? "" : "<p>Use one of your passkeys instead of the code.</p>\n"}<form id="passkey-form" method="post" action="${HOSTED_PAGES.loginPasskey}">
${hiddenFields({ rs: state.rs, csrf: state.csrf, credential: "", remember: "" })}
<button type="submit">Use a passkey</button>
</form>
<p class="error" id="passkey-message" role="alert" hidden></p>
<script type="application/json" id="passkey-options">${scriptJson(JSON.parse(offer.optionsJson))}</script>
</section>
<noscript><p class="hint${leading ? "" : " other"}">Passkeys need JavaScript, which is off in this browser. Use another way on this page.</p></noscript>`;
}

/** A way under "Use another way": what it is, its field (of the page's one form) and its button, which names the way. */
function otherWay(way: "app" | "recovery", words: string, field: Field, button: string, error: FormError | undefined): string {
  return `<div class="other ${way}">
<p>${words}</p>
${input({ ...field, form: SECOND_STEP_FORM, optional: true }, error)}
<button type="submit" form="${SECOND_STEP_FORM}" name="way" value="${way}" formnovalidate>${button}</button>
</div>`;
}

/**
 * The second step of a log-in, as the site's own code page has it: one form with one "Remember
 * this device" box, led by the way the login asked for (first-way.ts chose it: the code it sent,
 * the app's code, or a passkey); a new code, or one by another way, below it; and under "Use
 * another way" the rest (a passkey, the app's code, a recovery code for a member who has some left),
 * whose fields and buttons belong to the one form from outside it (forms cannot nest), without JavaScript too.
 */
export function loginCodePage(
  state: FormState & {
    rs: string;
    factorType: SecondFactorType;
    firstBecause?: "last-used" | "newest" | "only";
    hint: string;
    app: boolean;
    recovery: boolean;
    others: SecondFactorType[];
    passkey?: PasskeyOffer;
    /** A new code went: where, said at the top. */
    status?: string;
  },
): PageContent {
  // A new code by the factor asked (one that sends codes), and a button for each of the member's other such factors.
  const sendButton = (type: SecondFactorType, label: string) => `<form method="post" action="${HOSTED_PAGES.loginCodeSendBy}">
${hiddenFields({ rs: state.rs, csrf: state.csrf, factorType: type })}
<button type="submit" class="quiet">${label}</button>
</form>`;
  const sends = state.factorType === "EMAIL" || state.factorType === "SMS";
  const newCode = sends
    ? `<section class="way">
<p>No code, or it expired? We can send a new one; the one before then stops working.</p>
${sendButton(state.factorType, "Send a new code")}
</section>`
    : "";
  const sendBy =
    state.others.length > 0
      ? `<section class="way">
<p>${sends ? "Or have the code sent another way:" : "Or have a code sent to you:"}</p>
<div class="buttons">
${state.others.map((type) => sendButton(type, type === "SMS" ? "Send the code by text message instead" : "Send the code by e-mail instead")).join("\n")}
</div>
</section>`
      : "";
  // A passkey sends no code: when it is the factor asked, the page leads with it, and the form holds only the box.
  const byPasskey = state.factorType === "WEBAUTHN";
  const codeField = { type: "text", autocomplete: "one-time-code", limits: CODE_LIMITS };
  const codeInput = input({ name: "code", label: "Login code", ...codeField }, state.error);
  const codeFields = `${codeInput}\n${REMEMBER}\n<button type="submit" name="way" value="code">Log in</button>`;
  const form = `<form id="${SECOND_STEP_FORM}" method="post" action="${HOSTED_PAGES.loginCode}">
${hiddenFields({ rs: state.rs, csrf: state.csrf })}
${byPasskey ? REMEMBER : codeFields}
</form>`;
  const passkeyHere = state.passkey !== undefined && state.passkey !== "site-only";
  const others = [
    state.passkey && !byPasskey ? passkeySection(state, state.passkey, false) : "",
    state.app
      ? otherWay(
          "app",
          "Use your authenticator app instead: enter the code it shows for this site.",
          { name: "appCode", label: "Code from your app", ...codeField },
          "Use the app's code",
          state.error,
        )
      : "",
    state.recovery
      ? otherWay(
          "recovery",
          "Lost your phone or passkey? If you saved recovery codes when you set up an authenticator app or a passkey, " +
            "log in with one of them. Each works once.",
          { name: "recoveryCode", label: "Recovery code", type: "text", autocomplete: "off", limits: `maxlength="20" spellcheck="false"` },
          "Use the recovery code",
          state.error,
        )
      : "",
  ].filter(Boolean);
  // Open when a field under it was refused, or when the passkey that leads cannot be used on this page.
  const open = state.error?.fields?.some((name) => name === "appCode" || name === "recoveryCode") || (byPasskey && state.passkey === "site-only");
  const otherWays =
    others.length > 0 ? `<details class="ways"${open ? " open" : ""}>\n<summary>Use another way</summary>\n${others.join("\n")}\n</details>` : "";
  const hasOtherWays = state.others.length > 0 || state.app || (!byPasskey && passkeyHere);
  const because = state.firstBecause && state.firstBecause !== "only" && hasOtherWays ? ` ${FIRST_BECAUSE[state.firstBecause]}` : "";
  return {
    title: byPasskey ? "Use your passkey" : "Enter your login code",
    intro:
      (byPasskey && state.passkey === "site-only"
        ? "Your account has two-step sign-in with a passkey, which works on the site's own login form. Here, use another way below."
        : codeIntro(state.factorType, state.hint)) + because,
    content: [
      state.status ? `<p class="status" role="status" id="code-sent" tabindex="-1">${escapeHtml(state.status)}</p>` : "",
      formError(state.error),
      byPasskey && state.passkey ? passkeySection(state, state.passkey, true) : "",
      form,
      newCode,
      sendBy,
      otherWays,
    ]
      .filter(Boolean)
      .join("\n"),
    back: state.back,
    formActionOrigins: state.formActionOrigins,
    scripts: state.passkey && state.passkey !== "site-only" ? [state.passkey.script] : [],
  };
}

/**
 * The code step of a sign-up or log-in whose e-mail address is still to be confirmed, worded as
 * the site's own: the code, and a second form for a new one. `status` says a new code went.
 */
export function verifyEmailPage(state: FormState & { rs: string; email: string; status?: string }): PageContent {
  const hidden = hiddenFields({ rs: state.rs, csrf: state.csrf });
  return {
    title: "Confirm your e-mail",
    intro: `We sent a code to <strong>${escapeHtml(state.email)}</strong>. Enter it to finish. It works for 15 minutes.`,
    content: `${state.status ? `<p class="status" role="status">${escapeHtml(state.status)}</p>\n` : ""}${formError(state.error)}
<form method="post" action="${HOSTED_PAGES.verify}">
${hidden}
${input({ name: "code", label: "Code from the e-mail", type: "text", autocomplete: "one-time-code", limits: CODE_LIMITS }, state.error)}
<button type="submit">Confirm</button>
</form>
<form class="resend" method="post" action="${HOSTED_PAGES.verifyResend}">
${hidden}
<p>No e-mail, or the code has expired?</p>
<button type="submit" class="quiet">Resend code</button>
</form>`,
    back: state.back,
    formActionOrigins: state.formActionOrigins,
  };
}

export function signupPage(state: FormState & { rs: string; email?: string; displayName?: string; captcha?: boolean }): PageContent {
  const loginHref = `${HOSTED_PAGES.login}?${new URLSearchParams({ rs: state.rs })}`;
  const nickname = {
    name: "displayName",
    label: "Nickname",
    type: "text",
    autocomplete: "nickname",
    limits: `maxlength="60"`,
    value: state.displayName ?? "",
    hint: "Shown on your profile and next to your trail reports.",
  };
  return {
    title: "Create an account",
    intro: "Join the club to see members' outings and share trail reports.",
    content: `${formError(state.error)}
<form method="post" action="${HOSTED_PAGES.signup}">
${hiddenFields({ rs: state.rs, csrf: state.csrf })}
${emailField("email", state.email, state.error)}
${input({ ...NEW_PASSWORD, label: "Password" }, state.error)}
${input(nickname, state.error)}
${captchaBox(state.captcha)}
<button type="submit">Create account</button>
</form>`,
    footer: `<p>Already a member? <a href="${escapeHtml(loginHref)}">Log in</a></p>`,
    back: state.back,
    formActionOrigins: state.formActionOrigins,
  };
}

/** The page the e-mailed reset link opens: the new password. */
export function resetPage(state: FormState & { token: string }): PageContent {
  return {
    title: "Set a new password",
    content: `${formError(state.error)}
<form method="post" action="${HOSTED_PAGES.reset}">
${hiddenFields({ token: state.token, csrf: state.csrf })}
${input({ ...NEW_PASSWORD, label: "New password" }, state.error)}
<button type="submit">Set password</button>
</form>`,
    formActionOrigins: state.formActionOrigins,
  };
}

/** What a page says instead of its form: an outcome (signed out, link expired, waiting for approval, ...). */
export type Notice = { title: string; message: string };

/** A page with a heading and a sentence, for outcomes. */
export function messagePage(notice: Notice, back?: string): PageContent {
  return { title: notice.title, content: `<p>${escapeHtml(notice.message)}</p>`, back };
}

/**
 * A page with no script and nothing to show, which only the given origins may frame: the answer
 * to a session pre-warm, which a site loads in a hidden frame.
 */
export function framedPage(title: string, ancestors: readonly string[]): HtmlPage {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title></head><body></body></html>
`;
  return { html, csp: `default-src 'none'; frame-ancestors ${ancestors.length > 0 ? ancestors.join(" ") : "'none'"}; base-uri 'none'` };
}

/**
 * The web_message response: posts `{code, state}` (or `{error, error_description, state}`) flat to
 * `window.parent`, as the SDK's listener expects (docs/platform/identity.md §1.3). The message is addressed
 * to the client's own origins rather than "*", so no other embedding page can read the code,
 * and only those origins may frame the page.
 */
export function webMessagePage(message: Record<string, string>, targetOrigins: readonly string[]): HtmlPage {
  const script = `(function(){var m=${scriptJson(message)};${scriptJson(targetOrigins)}.forEach(function(o){window.parent.postMessage(m,o);});})();`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${BRANDING.name}</title></head>
<body><script>${script}</script></body></html>
`;
  const ancestors = targetOrigins.length > 0 ? targetOrigins.join(" ") : "'none'";
  return { html, csp: `default-src 'none'; script-src ${cspHash(script)}; frame-ancestors ${ancestors}; base-uri 'none'` };
}
