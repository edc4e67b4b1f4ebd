import { createHash } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { LRUCache } from "lru-cache";
import type { ResponseCookies } from "next/dist/compiled/@edge-runtime/cookies";
import type { z } from "zod";
import { getConfig } from "@/lib/config";

/**
 * What every store of the site's auth cookies shares (session-store.ts, notice-store.ts,
 * transaction-store.ts, verification-store.ts, device-store.ts, ask-first-store.ts, middleware-cookies.ts; names in cookie-names.ts):
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
export async function unseal<T>(value: string | undefined, ttl: number, schema: z.ZodType<T>, options: { remember?: boolean } = {}): Promise<T | null> {
  if (!value) return null;
  const key = options.remember ? openedKey(value) : undefined;
  const remembered = key === undefined ? undefined : openedSeals().get(key);
  if (remembered && Date.now() < remembered.expiresAtMs) return schema.safeParse(remembered.data).data ?? null;
  try {
    const data: unknown = await unsealData(value, { password: openingSecrets(), ttl });
    const parsed = schema.safeParse(data);
    if (!parsed.success) return null;
    if (key !== undefined) openedSeals().set(key, { data, expiresAtMs: sealExpiry(value) });
    return parsed.data;
  } catch {
    return null;
  }
}

/**
 * Seals already opened and verified: a cookie sent with every request (the session) costs its
 * PBKDF2, HMAC and AES once per process, not at each read (middleware, the header, each component).
 * Keyed by a digest of the secrets and the sealed value, so a rotated list opens each seal afresh,
 * and holding no sealed value. An entry is used only before the seal's own expiry; from then on
 * the seal is opened again, and iron refuses it as it always has. One per process (middleware's
 * bundle and the pages' share it), bounded.
 */
type OpenedSeal = { data: unknown; expiresAtMs: number };
const OPENED_SEALS = Symbol.for("ridgeline.opened-seals");
const MAX_OPENED_SEALS = 10_000;

function openedSeals(): LRUCache<string, OpenedSeal> {
  const global = globalThis as typeof globalThis & { [OPENED_SEALS]?: LRUCache<string, OpenedSeal> };
  global[OPENED_SEALS] ??= new LRUCache({ max: MAX_OPENED_SEALS });
  return global[OPENED_SEALS];
}

function openedKey(value: string): string {
  const hash = createHash("sha256");
  for (const secret of getConfig().sessionSecrets) hash.update(secret).update("\0");
  return hash.update(value).digest("base64");
}

/** The expiry an opened seal carries (`Fe26.2*id*salt*iv*data*expiry*salt*hmac~version`), in ms; none means it never expires. */
function sealExpiry(value: string): number {
  const expiry = value.split("~")[0].split("*")[5];
  return expiry ? Number(expiry) : Infinity;
}
