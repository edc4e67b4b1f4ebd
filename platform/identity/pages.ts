import { createHash } from "node:crypto";
import { LOCAL_CAPTCHA_TOKEN } from "@ridgeline/platform-contract";
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

const STYLE = `
:root { color-scheme: light; --green: #2f5d3a; --green-dark: #234a2d; --ink: #1f2a22; --muted: #5b6b5f; --line: #d5ddd6; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 24px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  background: linear-gradient(160deg, #e8efe6 0%, #f6f3ea 100%); color: var(--ink); line-height: 1.5; }
main { width: 100%; max-width: 400px; background: #fff; border-radius: 14px; padding: 32px 28px;
  box-shadow: 0 1px 2px rgba(0,0,0,.06), 0 12px 32px rgba(31,42,34,.12); }
.brand { margin: 0 0 20px; font-weight: 700; letter-spacing: .02em; color: var(--green); display: flex; align-items: center; gap: 8px; }
.brand svg { flex: none; }
h1 { margin: 0 0 20px; font-size: 1.5rem; }
p { margin: 0 0 16px; }
label { display: block; font-weight: 600; margin: 14px 0 6px; font-size: .95rem; }
input { width: 100%; padding: 10px 12px; font: inherit; border: 1px solid var(--line); border-radius: 8px; }
/* Focus rings in the brand green: 8:1 against white, well above the 3:1 that non-text contrast needs. */
input:focus-visible, button:focus-visible, a:focus-visible, [tabindex="-1"]:focus { outline: 3px solid var(--green); outline-offset: 2px; }
input:focus { border-color: var(--green); }
input[aria-invalid="true"] { border-color: #b3261e; border-width: 2px; }
.hint { color: var(--muted); font-size: .85rem; margin: 4px 0 0; }
button { width: 100%; margin-top: 22px; padding: 11px 14px; font: inherit; font-weight: 600; color: #fff;
  background: var(--green); border: 0; border-radius: 8px; cursor: pointer; }
button:hover { background: var(--green-dark); }
.error { background: #fdecea; color: #8c1d18; border: 1px solid #f5c2bd; border-radius: 8px; padding: 10px 12px; margin: 0 0 8px; }
.alt { margin: 22px 0 0; text-align: center; color: var(--muted); }
.forgot { margin: 8px 0 0; text-align: right; font-size: .9rem; }
.back { margin: 24px 0 0; padding-top: 16px; border-top: 1px solid var(--line); text-align: center; font-size: .95rem; }
a { color: var(--green); font-weight: 600; }
`;

const LOGO = `<svg width="28" height="20" viewBox="0 0 28 20" aria-hidden="true"><path d="M0 20 9 5l5 8 4-6 10 13z" fill="currentColor"/></svg>`;

export type HtmlPage = { html: string; csp: string };

/** What a hosted page shows; `render` wraps it in the site's frame with a way back to the site. */
export type PageContent = { title: string; content: string; formActionOrigins?: readonly string[] };

export const SITE_NAME = "Ridgeline Hiking Club";

export function render(page: PageContent, siteUrl: string): HtmlPage {
  const { title, formActionOrigins = [] } = page;
  const content = `${page.content}
<p class="back"><a href="${escapeHtml(siteUrl)}/">Back to ${SITE_NAME}</a></p>`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · ${SITE_NAME}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">${LOGO}${SITE_NAME}</p>
${content}
</main>
</body>
</html>
`;
  // A form's redirect to the site after sign-in counts as a form action, so the site's origins are allowed.
  const formAction = ["'self'", ...formActionOrigins].join(" ");
  return {
    html,
    csp: `default-src 'none'; style-src ${cspHash(STYLE)}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  };
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

export type FormState = { csrf: string; error?: FormError; formActionOrigins: readonly string[] };

type Field = { name: string; label: string; type: string; autocomplete: string; value?: string; limits?: string; hint?: string };

/** A labelled input; only the fields the error names are marked invalid, and the first of them is focused. */
function input(field: Field, error: FormError | undefined): string {
  const invalid = error?.fields?.includes(field.name) ?? false;
  const described = [field.hint ? `${field.name}-hint` : "", invalid ? "form-error" : ""].filter(Boolean).join(" ");
  const attrs = [
    `id="${field.name}"`,
    `name="${field.name}"`,
    `type="${field.type}"`,
    `autocomplete="${field.autocomplete}"`,
    "required",
    field.limits ?? "",
    field.value !== undefined ? `value="${escapeHtml(field.value)}"` : "",
    described ? `aria-describedby="${described}"` : "",
    invalid ? `aria-invalid="true"` : "",
    invalid && error?.fields?.[0] === field.name ? "autofocus" : "",
  ].filter(Boolean);
  return `<label for="${field.name}">${field.label}</label>
<input ${attrs.join(" ")}>${field.hint ? `\n<p class="hint" id="${field.name}-hint">${field.hint}</p>` : ""}`;
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

export function loginPage(state: FormState & { rs: string; email?: string; forgotPasswordUrl: string; captcha?: boolean }): PageContent {
  const signupHref = `${HOSTED_PAGES.signup}?${new URLSearchParams({ rs: state.rs })}`;
  return {
    title: "Log in",
    content: `<h1>Log in</h1>
${formError(state.error)}
<form method="post" action="${HOSTED_PAGES.login}">
${hiddenFields({ rs: state.rs, csrf: state.csrf })}
${input({ name: "email", label: "Email", type: "email", autocomplete: "username", limits: `maxlength="254"`, value: state.email ?? "" }, state.error)}
${input({ name: "password", label: "Password", type: "password", autocomplete: "current-password" }, state.error)}
${state.captcha ? `<label><input type="checkbox" name="captcha" value="${LOCAL_CAPTCHA_TOKEN}" required style="width:auto"> I am not a robot</label>` : ""}
<p class="forgot"><a href="${escapeHtml(state.forgotPasswordUrl)}">Forgot password?</a></p>
<button type="submit">Log in</button>
</form>
<p class="alt">New to the club? <a href="${escapeHtml(signupHref)}">Create an account</a></p>`,
    formActionOrigins: state.formActionOrigins,
  };
}

const CODE_LIMITS = `inputmode="numeric" pattern="[0-9]{6}" maxlength="6"`;

/** The second step of a log-in: the code the member's second factor was sent. */
export function loginCodePage(state: FormState & { rs: string; stateToken: string; factorType: "EMAIL" | "SMS"; hint: string }): PageContent {
  const where = state.factorType === "SMS" ? "by text message to" : "by e-mail to";
  return {
    title: "Enter your login code",
    content: `<h1>Enter your login code</h1>
<p>We sent a 6-digit code ${where} <strong>${escapeHtml(state.hint)}</strong>. It works for 15 minutes.</p>
${formError(state.error)}
<form method="post" action="${HOSTED_PAGES.loginCode}">
${hiddenFields({ rs: state.rs, csrf: state.csrf, stateToken: state.stateToken, factorType: state.factorType, hint: state.hint })}
${input({ name: "code", label: "Login code", type: "text", autocomplete: "one-time-code", limits: CODE_LIMITS }, state.error)}
<button type="submit">Log in</button>
</form>`,
    formActionOrigins: state.formActionOrigins,
  };
}

/** After a login code that can no longer be used (expired, or tried too often): the way back, for a new code. */
export function loginRestartPage(title: string, loginUrl: string): PageContent {
  return {
    title,
    content: `<h1>${escapeHtml(title)}</h1>
<p>For your safety this code no longer works. Log in again and we will send a new one.</p>
<p><a href="${escapeHtml(loginUrl)}">Log in again</a></p>`,
  };
}

export function signupPage(state: FormState & { rs: string; email?: string; displayName?: string }): PageContent {
  const loginHref = `${HOSTED_PAGES.login}?${new URLSearchParams({ rs: state.rs })}`;
  return {
    title: "Create an account",
    content: `<h1>Create an account</h1>
${formError(state.error)}
<form method="post" action="${HOSTED_PAGES.signup}">
${hiddenFields({ rs: state.rs, csrf: state.csrf })}
${input(
  { name: "displayName", label: "Display name", type: "text", autocomplete: "nickname", limits: `maxlength="60"`, value: state.displayName ?? "" },
  state.error,
)}
${input({ name: "email", label: "Email", type: "email", autocomplete: "email", limits: `maxlength="254"`, value: state.email ?? "" }, state.error)}
${input({ ...NEW_PASSWORD, label: "Password" }, state.error)}
<button type="submit">Create account</button>
</form>
<p class="alt">Already a member? <a href="${escapeHtml(loginHref)}">Log in</a></p>`,
    formActionOrigins: state.formActionOrigins,
  };
}

/** The page the e-mailed reset link opens: the new password. */
export function resetPage(state: FormState & { token: string }): PageContent {
  return {
    title: "Set a new password",
    content: `<h1>Set a new password</h1>
${formError(state.error)}
<form method="post" action="${HOSTED_PAGES.reset}">
${hiddenFields({ token: state.token, csrf: state.csrf })}
${input({ ...NEW_PASSWORD, label: "New password" }, state.error)}
<button type="submit">Set password</button>
</form>`,
    formActionOrigins: state.formActionOrigins,
  };
}

/** A page with a heading and a sentence, for outcomes (signed out, link expired, ...). */
export function messagePage(title: string, message: string): PageContent {
  return { title, content: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>` };
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
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${SITE_NAME}</title></head>
<body><script>${script}</script></body></html>
`;
  const ancestors = targetOrigins.length > 0 ? targetOrigins.join(" ") : "'none'";
  return { html, csp: `default-src 'none'; script-src ${cspHash(script)}; frame-ancestors ${ancestors}; base-uri 'none'` };
}
