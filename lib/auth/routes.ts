/**
 * Every auth path of the site, in one table: pages, components and handlers build links from
 * here, never from literals.
 */
export const AUTH_ROUTES = {
  login: "/api/auth/login",
  callback: "/api/auth/callback",
  logout: "/api/auth/logout",
  /** Renews a session whose access token the platform refused, then returns. */
  renew: "/api/auth/renew",
  /** The session pre-warm URL for a signed-in member's browser (POST). */
  prewarm: "/api/auth/prewarm",
  /** The page that explains a failed sign-in. */
  problem: "/auth/error",
} as const;

/** Wix-hosted pages add this to the URL they return to: true after a login there, false after a logout. */
export const MEMBER_LOGGED_IN_PARAM = "wixMemberLoggedIn";

/** The site's own sign-in pages. */
export const SITE_PAGES = {
  login: "/login",
  register: "/register",
  verify: "/verify",
  /** A login's second step, for a member with a second factor. */
  loginCode: "/login/verify-code",
  forgotPassword: "/forgot-password",
} as const;

/** The forgot-password page's `reason` when a login found the account needs a new password (login answered resetPassword). */
export const NEW_PASSWORD_REASON = "new-password";

export function newPasswordNeededHref(): string {
  return withParams(SITE_PAGES.forgotPassword, { reason: NEW_PASSWORD_REASON });
}

/** The login page's parameter saying the member's session has just ended (sent there from a members' page). */
export const SESSION_ENDED_PARAM = "sessionEnded";

/** The site's login page, coming back to `returnTo` afterwards; `sessionEnded` says why the member is there. */
export function loginPageHref(returnTo = "/", { sessionEnded = false } = {}): string {
  return withParams(SITE_PAGES.login, { returnTo: returnTo === "/" ? undefined : returnTo, [SESSION_ENDED_PARAM]: sessionEnded ? "1" : undefined });
}

/** The site's sign-up page, coming back to `returnTo` afterwards. */
export function registerPageHref(returnTo = "/"): string {
  return withParams(SITE_PAGES.register, { returnTo: returnTo === "/" ? undefined : returnTo });
}

/** The path prefix of the route handlers: login-transaction cookies are sent only there. */
export const AUTH_HANDLERS_PATH = "/api/auth";

function withParams(path: string, params: Record<string, string | undefined>): string {
  const search = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Starts a hosted login that comes back to `returnTo` (a path on this site). */
export function loginHref(returnTo = "/", options: { prompt?: "none" } = {}): string {
  return withParams(AUTH_ROUTES.login, { returnTo, prompt: options.prompt });
}

/** Renews the session and goes back to `returnTo`; if the session has ended, goes to `ifEnded` instead. */
export function renewHref(returnTo: string, ifEnded?: string): string {
  return withParams(AUTH_ROUTES.renew, { returnTo, ifEnded });
}

export type SignInProblem = "missing" | "state" | "denied" | "direct" | "exchange" | "unavailable" | "too-many";

/** `retryAfter`: seconds to wait, for `too-many`. */
export function problemHref(reason: SignInProblem, returnTo = "/", retryAfter?: number): string {
  return withParams(AUTH_ROUTES.problem, { reason, returnTo, retryAfter: retryAfter?.toString() });
}
