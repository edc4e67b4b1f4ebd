import { WIX_IMAGE_ORIGIN, WIX_MEDIA_ORIGINS } from "../wix/media-origins";

/**
 * The browser-side security policy of every page: a Content-Security-Policy, and the headers
 * that keep pages out of frames and features out of reach. Pure: callers supply the nonce or
 * hashes and the origins.
 *
 * Which scripts may run is said one of two ways. A page rendered for one request carries a
 * fresh nonce (Next.js puts it on its own scripts when it finds it in the request's policy). A
 * page the page cache serves to every visitor cannot carry a nonce, since the same bytes go to
 * everyone; its policy lists the sha256 of each of its inline scripts instead, and the script
 * files come from the site's own origin (docs/performance.md, "Page cache").
 */

/** Google's robot check, which the forms load on a real Wix site. */
const CAPTCHA_SCRIPTS = ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"];
const CAPTCHA_FRAMES = ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"];

/** The page cache's own renders carry this request header: no nonce, their policy is made from their scripts. */
export const CACHE_RENDER_HEADER = "x-ridgeline-cache-render";

export type ScriptSources = { nonce: string } | { hashes: string[] };

export type PolicyContext = {
  scripts: ScriptSources;
  /** Origins a form may lead to and a frame may show: the platform's login, logout and pre-warm pages. */
  platformOrigins: string[];
  https: boolean;
  /** Next's development server evaluates code and talks over a websocket. */
  development: boolean;
};

/**
 * With a nonce, 'strict-dynamic' lets the nonced scripts load the chunks they need. With hashes
 * it cannot: the chunk files in the document carry no hash, so they are allowed by origin.
 */
function scriptSources(scripts: ScriptSources): string[] {
  if ("nonce" in scripts) return [`'nonce-${scripts.nonce}'`, "'strict-dynamic'"];
  return scripts.hashes.map((hash) => `'sha256-${hash}'`);
}

/** Where forms may lead besides the site: Wix's login and logout pages, or the local platform. */
export function platformPageOrigins(localPlatformUrl: string | null): string[] {
  return localPlatformUrl ? [new URL(localPlatformUrl).origin] : ["https://www.wixapis.com", "https://users.wix.com"];
}

export function contentSecurityPolicy({ scripts, platformOrigins, https, development }: PolicyContext): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptSources(scripts), ...CAPTCHA_SCRIPTS, ...(development ? ["'unsafe-eval'"] : [])],
    // React and Next set style attributes; no script can run from a style.
    "style-src": ["'self'", "'unsafe-inline'"],
    // Pictures go through the site's image optimiser; video posters come straight from Wix.
    "img-src": ["'self'", "data:", "blob:", WIX_IMAGE_ORIGIN, ...platformOrigins],
    "media-src": ["'self'", ...WIX_MEDIA_ORIGINS],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(development ? ["ws:", "wss:"] : [])],
    // The platform's pages load in a hidden frame for the session pre-warm.
    "frame-src": [...CAPTCHA_FRAMES, ...platformOrigins],
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
