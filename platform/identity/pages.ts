import { createHash } from "node:crypto";
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
input:focus { outline: 3px solid rgba(47,93,58,.3); border-color: var(--green); }
input[aria-invalid="true"] { border-color: #b3261e; }
.hint { color: var(--muted); font-size: .85rem; margin: 4px 0 0; }
button { width: 100%; margin-top: 22px; padding: 11px 14px; font: inherit; font-weight: 600; color: #fff;
  background: var(--green); border: 0; border-radius: 8px; cursor: pointer; }
button:hover { background: var(--green-dark); }
button:focus-visible { outline: 3px solid rgba(47,93,58,.4); outline-offset: 2px; }
.error { background: #fdecea; color: #8c1d18; border: 1px solid #f5c2bd; border-radius: 8px; padding: 10px 12px; margin: 0 0 8px; }
.alt { margin: 22px 0 0; text-align: center; color: var(--muted); }
a { color: var(--green); font-weight: 600; }
`;

const LOGO = `<svg width="28" height="20" viewBox="0 0 28 20" aria-hidden="true"><path d="M0 20 9 5l5 8 4-6 10 13z" fill="currentColor"/></svg>`;

export type HtmlPage = { html: string; csp: string };

function layout(title: string, content: string, formActionOrigins: readonly string[] = []): HtmlPage {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Ridgeline Hiking Club</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">${LOGO}Ridgeline Hiking Club</p>
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

function errorBlock(error: string | undefined): string {
  return error ? `<div class="error" role="alert" id="form-error">${escapeHtml(error)}</div>` : "";
}

function hiddenFields(rs: string, csrf: string): string {
  return `<input type="hidden" name="rs" value="${escapeHtml(rs)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
}

/** `aria-invalid`/`aria-describedby` tie the error message to the fields when there is one. */
function invalidAttrs(error: string | undefined): string {
  return error ? ` aria-invalid="true" aria-describedby="form-error"` : "";
}

export type FormState = { rs: string; csrf: string; error?: string; formActionOrigins: readonly string[] };

export function loginPage(state: FormState & { email?: string }): HtmlPage {
  const signupHref = `${HOSTED_PAGES.signup}?${new URLSearchParams({ rs: state.rs })}`;
  return layout(
    "Sign in",
    `<h1>Sign in</h1>
${errorBlock(state.error)}
<form method="post" action="${HOSTED_PAGES.login}">
${hiddenFields(state.rs, state.csrf)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(state.email ?? "")}"${invalidAttrs(state.error)}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalidAttrs(state.error)}>
<button type="submit">Sign in</button>
</form>
<p class="alt">New to the club? <a href="${escapeHtml(signupHref)}">Create an account</a></p>`,
    state.formActionOrigins,
  );
}

export function signupPage(state: FormState & { email?: string; displayName?: string }): HtmlPage {
  const loginHref = `${HOSTED_PAGES.login}?${new URLSearchParams({ rs: state.rs })}`;
  return layout(
    "Create an account",
    `<h1>Create an account</h1>
${errorBlock(state.error)}
<form method="post" action="${HOSTED_PAGES.signup}">
${hiddenFields(state.rs, state.csrf)}
<label for="displayName">Display name</label>
<input id="displayName" name="displayName" type="text" autocomplete="nickname" required maxlength="60" value="${escapeHtml(state.displayName ?? "")}"${invalidAttrs(state.error)}>
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(state.email ?? "")}"${invalidAttrs(state.error)}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" maxlength="256" aria-describedby="password-hint${state.error ? " form-error" : ""}"${state.error ? ` aria-invalid="true"` : ""}>
<p class="hint" id="password-hint">At least 8 characters.</p>
<button type="submit">Create account</button>
</form>
<p class="alt">Already a member? <a href="${escapeHtml(loginHref)}">Sign in</a></p>`,
    state.formActionOrigins,
  );
}

/** A page with a heading and a sentence, for outcomes (signed out, link expired, ...). */
export function messagePage(title: string, message: string): HtmlPage {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}

/**
 * The web_message response: posts `{code, state}` (or `{error, error_description, state}`) flat to
 * `window.parent`, as the SDK's listener expects (wire contract §3.4). The message is addressed
 * to the client's own origins rather than "*", so no other embedding page can read the code,
 * and only those origins may frame the page.
 */
export function webMessagePage(message: Record<string, string>, targetOrigins: readonly string[]): HtmlPage {
  const script = `(function(){var m=${scriptJson(message)};${scriptJson(targetOrigins)}.forEach(function(o){window.parent.postMessage(m,o);});})();`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Ridgeline Hiking Club</title></head>
<body><script>${script}</script></body></html>
`;
  const ancestors = targetOrigins.length > 0 ? targetOrigins.join(" ") : "'none'";
  return { html, csp: `default-src 'none'; script-src ${cspHash(script)}; frame-ancestors ${ancestors}; base-uri 'none'` };
}
