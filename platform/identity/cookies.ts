/** Just enough cookie handling for the hosted pages' cookies and the Studio's session. */

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

export type CookieOptions = { path: string; maxAgeSeconds: number; secure: boolean; sameSite?: "Lax" | "Strict" };

/** HttpOnly always, SameSite=Lax unless stricter is asked: the values are bearer secrets that only the platform reads. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${options.maxAgeSeconds}`, "HttpOnly", `SameSite=${options.sameSite ?? "Lax"}`];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
