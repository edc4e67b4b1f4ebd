import { getConfig } from "@/lib/config";
import { AUTH_HANDLERS_PATH } from "./routes";

/**
 * The names of the site's auth cookies, for the cookie stores (session-store.ts,
 * notice-store.ts, transaction-store.ts, verification-store.ts, device-store.ts, ask-first-store.ts, middleware-cookies.ts), which
 * alone read and write them. Apart from it so the production server can tell a visitor from a member without
 * loading the store's sealing and Next.js's request types (server/page-cache).
 */

/**
 * On https the names carry the browser's prefixes: `__Host-` (Secure, path /, no Domain, so no
 * subdomain can plant or shadow it) and `__Secure-` for the transactions, which live under the
 * auth handlers' path.
 */
function cookieName(name: string, path = "/"): string {
  if (getConfig().siteUrl.protocol !== "https:") return name;
  return `${path === "/" ? "__Host-" : "__Secure-"}${name}`;
}
/** The session cookie's name on http (the load scripts keep it alone, as a member's browser sends it). */
export const SESSION_COOKIE = "wms_session";
export const sessionCookieName = () => cookieName(SESSION_COOKIE);
export const noticeCookieName = () => cookieName("wms_notice");
export const transactionCookiePrefix = () => cookieName("wms_txn_", AUTH_HANDLERS_PATH);
export const verificationCookieName = () => cookieName("wms_verify");
/** Recovery codes just made, until the member has saved them: only their own page and its download read them. */
export const RECOVERY_CODES_PATH = "/account/recovery-codes";
export const recoveryCodesCookieName = () => cookieName("wms_recovery_codes", RECOVERY_CODES_PATH);
/** A remembered browser's device tokens: no page renders differently for it, so it is not site state below. */
export const deviceCookieName = () => cookieName("wms_device");
/** "Ask first for", each member's choice on this browser: read only by the login code page and the account page, not site state either. */
export const askFirstCookieName = () => cookieName("wms_ask_first");

/**
 * Whether a raw Cookie header carries any of the cookies a page renders differently for (a
 * session, a notice, a verification in progress). Without them a request is a visitor's, and
 * every visitor sees the same page (server/page-cache). Other sites' cookies change nothing.
 */
export function carriesSiteState(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  const names = new Set([sessionCookieName(), noticeCookieName(), verificationCookieName()]);
  return cookieHeader.split(";").some((pair) => names.has(pair.slice(0, pair.includes("=") ? pair.indexOf("=") : undefined).trim()));
}
