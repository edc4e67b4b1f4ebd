import { createHash } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import type { ResponseCookies } from "next/dist/compiled/@edge-runtime/cookies";
import type { z } from "zod";
import { getConfig } from "@/lib/config";

/**
 * What every store of the site's auth cookies shares (session-store.ts, notice-store.ts,
 * transaction-store.ts, verification-store.ts, device-store.ts, middleware-cookies.ts; names in cookie-names.ts):
 * the readers and writers they work with, the one options function, and sealing. Only those
 * modules touch the cookies.
 */

/** Anything cookies can be read from: request cookies, or `cookies()` in a component or action. */
export type CookieReader = { get(name: string): { value: string } | undefined; getAll(): Array<{ name: string; value: string }> };
/** Anything cookies can be written to: a response, or `cookies()` in a server action or route handler. */
export type CookieWriter = Pick<ResponseCookies, "set">;

/** The options every auth cookie shares; only the path and lifetime differ. */
export function cookieOptions(path = "/", maxAge?: number) {
  return { httpOnly: true, sameSite: "lax" as const, secure: getConfig().siteUrl.protocol === "https:", path, ...(maxAge !== undefined && { maxAge }) };
}

/**
 * Every secret gets an id derived from the secret itself, so a cookie names the secret that
 * sealed it whatever the order of the list: rotating is putting a new secret first.
 */
function secretId(secret: string): number {
  return createHash("sha256").update(secret).digest().readUInt32BE(0);
}

function openingSecrets(): Record<number, string> {
  return Object.fromEntries(getConfig().sessionSecrets.map((secret) => [secretId(secret), secret]));
}

export async function seal(data: object, ttl: number): Promise<string> {
  const [newest] = getConfig().sessionSecrets;
  return sealData(data, { password: { [secretId(newest)]: newest }, ttl });
}

/** The sealed value's data, or null when it is absent, tampered with, expired or malformed. */
export async function unseal<T>(value: string | undefined, ttl: number, schema: z.ZodType<T>): Promise<T | null> {
  if (!value) return null;
  try {
    const parsed = schema.safeParse(await unsealData(value, { password: openingSecrets(), ttl }));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
