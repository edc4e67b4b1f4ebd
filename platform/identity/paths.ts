/** Where the hosted pages live on the platform's origin; redirect sessions point the browser here. */
export const HOSTED_PAGES = {
  login: "/hosted/login",
  /** The second step of a log-in with a second factor: the code it sent. */
  loginCode: "/hosted/login/code",
  /** The code sent again by another of the member's factors, which they chose. */
  loginCodeSendBy: "/hosted/login/code/send-by",
  /** The second step answered with a passkey: the browser's credential, posted by the page's script. */
  loginPasskey: "/hosted/login/passkey",
  signup: "/hosted/signup",
  /** The code step of a sign-up or log-in whose e-mail address is still to be confirmed, and its "Resend code". */
  verify: "/hosted/verify",
  verifyResend: "/hosted/verify/resend",
  logout: "/hosted/logout",
  /** Where the e-mailed reset link leads: set a new password, then back to the site. */
  reset: "/hosted/reset",
} as const;

/** The hosted pages' cookies are scoped to their path, so a site on the same host never receives them. */
export const HOSTED_COOKIE_PATH = "/hosted";
