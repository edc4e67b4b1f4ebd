import { WIX_IMAGE_ORIGIN, WIX_MEDIA_ORIGINS } from "../wix/media-origins";

/**
 * The browser-side security policy of every page: a Content-Security-Policy with a fresh nonce
 * per request (Next.js puts the nonce on its own scripts when it finds it in the request's
 * policy), and the headers that keep pages out of frames and features out of reach. Pure: the
 * middleware supplies the nonce and the origins.
 */

/** Google's robot check, which the forms load on a real Wix site. */
const CAPTCHA_SCRIPTS = ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"];
const CAPTCHA_FRAMES = ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"];

export type PolicyContext = {
  nonce: string;
  /** Origins a form may lead to: the platform's login and logout pages. */
  platformOrigins: string[];
  https: boolean;
  /** Next's development server evaluates code and talks over a websocket. */
  development: boolean;
};

export function contentSecurityPolicy({ nonce, platformOrigins, https, development }: PolicyContext): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...CAPTCHA_SCRIPTS, ...(development ? ["'unsafe-eval'"] : [])],
    // React and Next set style attributes; no script can run from a style.
    "style-src": ["'self'", "'unsafe-inline'"],
    // Pictures go through the site's image optimiser; video posters come straight from Wix.
    "img-src": ["'self'", "data:", "blob:", WIX_IMAGE_ORIGIN, ...platformOrigins],
    "media-src": ["'self'", ...WIX_MEDIA_ORIGINS],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(development ? ["ws:", "wss:"] : [])],
    "frame-src": CAPTCHA_FRAMES,
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'", ...platformOrigins],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
  };
  const policy = Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`);
  if (https) policy.push("upgrade-insecure-requests");
  return policy.join("; ");
}

/** Browsers keep to https for two years, subdomains included, once they have seen this over https. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/** The headers every response carries, whatever it is. */
export function securityHeaders({ https }: { https: boolean }): Record<string, string> {
  return {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "cross-origin-opener-policy": "same-origin",
    ...(https && { "strict-transport-security": STRICT_TRANSPORT_SECURITY }),
  };
}
