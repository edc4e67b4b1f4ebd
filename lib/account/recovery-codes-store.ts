import { z } from "zod";
import { type CookieReader, type CookieWriter, cookieOptions, seal, unseal } from "@/lib/auth/cookie-sealing";
import { RECOVERY_CODES_PATH, recoveryCodesCookieName } from "@/lib/auth/cookie-names";

/**
 * Recovery codes just made, kept for their own page (`/account/recovery-codes`) until the member
 * says they are saved, or for 10 minutes. A sealed cookie scoped to that page's path: the codes
 * never go in an address or a log, no other page's request carries them, and the download reads
 * them from the same cookie on a POST. The member's id goes with them, so another member's
 * session in the same browser is never shown them.
 */

export const RECOVERY_CODES_TTL_SECONDS = 10 * 60;
/** The id of their page's heading, the fragment the page is opened at. */
export const RECOVERY_CODES_HEADING = "your-recovery-codes";

const keptSchema = z.object({
  memberId: z.string().min(1).max(100),
  codes: z.array(z.string().min(1).max(100)).min(1).max(50),
  /** What made them ("Two-step sign-in is on: …"), said again on their page. */
  done: z.string().max(300),
});
export type KeptRecoveryCodes = z.infer<typeof keptSchema>;

export async function keepRecoveryCodes(cookies: CookieWriter, kept: KeptRecoveryCodes): Promise<void> {
  cookies.set(recoveryCodesCookieName(), await seal(kept, RECOVERY_CODES_TTL_SECONDS), cookieOptions(RECOVERY_CODES_PATH, RECOVERY_CODES_TTL_SECONDS));
}

/** The codes kept for this member, or null (none, expired, another member's, tampered with). */
export async function keptRecoveryCodes(cookies: CookieReader, memberId: string | undefined): Promise<KeptRecoveryCodes | null> {
  const kept = await unseal(cookies.get(recoveryCodesCookieName())?.value, RECOVERY_CODES_TTL_SECONDS, keptSchema);
  return kept && memberId && kept.memberId === memberId ? kept : null;
}

export function forgetRecoveryCodes(cookies: CookieWriter): void {
  cookies.set(recoveryCodesCookieName(), "", cookieOptions(RECOVERY_CODES_PATH, 0));
}
