import { type CookieReader, type CookieWriter, cookieOptions } from "./cookie-sealing";
import { noticeCookieName } from "./cookie-names";

const NOTICE_MAX_AGE_SECONDS = 300;

// The one-time notice: shown on the first page the browser loads after it was set (server/page-cache
// never answers a request that carries it, so a visitor's cached page never shows one). The page
// learns it from a request header that middleware sets, not from the cookie: Next.js merges the
// middleware's cookie deletions into what `cookies()` returns, which would hide a notice that
// is shown and forgotten in the same request.

export const SESSION_ENDED = "session-ended";
export const ACCOUNT_DELETED = "account-deleted";
export const LOGGED_IN = "logged-in";
export const SIGNED_UP = "signed-up";
export const LOGGED_OUT = "logged-out";
const notices = [SESSION_ENDED, ACCOUNT_DELETED, LOGGED_IN, SIGNED_UP, LOGGED_OUT] as const;
export type Notice = (typeof notices)[number];
/** Middleware passes the notice to the page in this request header. */
export const NOTICE_HEADER = "x-wms-notice";

/** Only the site's own notices: the cookie's value is not trusted to name anything else. */
function asNotice(value: string | null | undefined): Notice | null {
  return notices.find((notice) => notice === value) ?? null;
}

export function readNotice(cookies: CookieReader): Notice | null {
  return asNotice(cookies.get(noticeCookieName())?.value);
}

/** The notice this page shows, as middleware passed it on. */
export function noticeForPage(headers: Headers): Notice | null {
  return asNotice(headers.get(NOTICE_HEADER));
}

/** From a route handler or server action: the next page the browser loads shows it. */
export function writeNotice(cookies: CookieWriter, notice: Notice): void {
  cookies.set(noticeCookieName(), notice, cookieOptions("/", NOTICE_MAX_AGE_SECONDS));
}
