import { NextResponse, type NextRequest } from "next/server";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Steps over the history entry it is loaded in, in the direction the browser was going (the
 * Navigation API knows it; without it, back), when it was reached through history; otherwise on
 * to the return page.
 */
const stepScript = (returnTo: string) =>
  `(function(){var n=window.navigation,a=n&&n.activation,p=performance.getEntriesByType("navigation")[0];` +
  `if(!(a?a.navigationType==="traverse":p&&p.type==="back_forward")){location.replace(${JSON.stringify(returnTo).replace(/</g, "\\u003c")});return}` +
  `if(a&&a.from&&a.from.index<n.currentEntry.index)history.forward();else history.back()})()`;

/**
 * The answer to a finished login opened again. Its hosted page stays in the browser's history
 * after the login, and opening it again (Back from the page the login returned to) sends the
 * browser to the callback once more. A redirect to the return page there made Back land on the
 * page it was leaving, so Back never left it. This page steps over that entry instead, so Back
 * reaches the page before the login (docs/auth-pitfalls.md). Without script it goes on to the
 * return page, as the redirect did.
 */
export function finishedLoginAgain(request: NextRequest, returnTo: URL): NextResponse {
  const nonce = request.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
  const href = escapeHtml(returnTo.href);
  const body =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Logged in</title>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<noscript><meta http-equiv="refresh" content="0;url=${href}"></noscript>` +
    `<script${nonce ? ` nonce="${escapeHtml(nonce)}"` : ""}>${stepScript(returnTo.href)}</script>` +
    `</head><body><main><h1>You are logged in</h1><p><a href="${href}">Go on to the page</a></p></main></body></html>`;
  return new NextResponse(body, {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "private, no-store", "referrer-policy": "no-referrer" },
  });
}
