import { createHash } from "node:crypto";
import { z } from "zod";
import { type CookieReader, type CookieWriter, cookieOptions, seal, unseal } from "./cookie-sealing";
import { deviceCookieName } from "./cookie-names";

// Remembered browsers: the platform's device token for each member who ticked "Remember this
// device" here, sealed, so the site can show it at their next logins (it skips the second step).
// The platform decides whether a token still counts: forgotten, expired or another member's, it does not.

/** As long as the platform remembers a device. */
const DEVICE_TTL_SECONDS = 30 * 24 * 60 * 60;
/** Members remembered on one browser at most; the oldest goes first. */
const MAX_MEMBERS = 5;

const devicesSchema = z.object({ devices: z.array(z.object({ member: z.string().max(64), token: z.string().min(1).max(200) })).max(MAX_MEMBERS) });

/** A member by a digest of their login e-mail: the cookie does not name them, even sealed (ask-first-store.ts too). */
export const memberKey = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("base64url").slice(0, 22);

const readDevices = async (cookies: CookieReader) => (await unseal(cookies.get(deviceCookieName())?.value, DEVICE_TTL_SECONDS, devicesSchema))?.devices ?? [];

/** The device token this browser holds for the member with this login e-mail, if any. */
export async function rememberedDeviceToken(cookies: CookieReader, email: string): Promise<string | undefined> {
  const key = memberKey(email);
  return (await readDevices(cookies)).find((device) => device.member === key)?.token;
}

/** Keeps the token the platform gave this browser for the member, in place of any earlier one. */
export async function rememberDevice(reader: CookieReader, writer: CookieWriter, email: string, token: string): Promise<void> {
  const key = memberKey(email);
  const devices = [...(await readDevices(reader)).filter((device) => device.member !== key), { member: key, token }].slice(-MAX_MEMBERS);
  writer.set(deviceCookieName(), await seal({ devices }, DEVICE_TTL_SECONDS), cookieOptions("/", DEVICE_TTL_SECONDS));
}
