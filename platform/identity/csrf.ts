import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Double-submit CSRF for the hosted forms (docs/platform/identity.md §1.1): a random cookie only
 * this origin can set, and in the form an HMAC of it under a key that lives as long as the process,
 * so neither half can be forged from the other.
 */
export const CSRF_COOKIE = "lp_csrf";
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

export function createCsrf() {
  const key = randomBytes(32);
  const tokenFor = (cookie: string) => createHmac("sha256", key).update(cookie).digest("base64url");
  return {
    /** The form token for this cookie, and a new cookie value when the browser has no usable one. */
    issue(cookie: string | undefined): { token: string; newCookie: string | null } {
      if (cookie && COOKIE_VALUE.test(cookie)) return { token: tokenFor(cookie), newCookie: null };
      const fresh = randomBytes(32).toString("base64url");
      return { token: tokenFor(fresh), newCookie: fresh };
    },
    valid(cookie: string | undefined, given: string): boolean {
      if (!cookie) return false;
      const expected = Buffer.from(tokenFor(cookie));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}
