import { z } from "zod";
import { type CookieReader, type CookieWriter, cookieOptions, seal, unseal } from "./cookie-sealing";
import { verificationCookieName } from "./cookie-names";
import { MAX_STORED_RETURN_TO, storableReturnTo } from "./transaction-store";
import { CHALLENGED_FACTOR_TYPES, SENDING_FACTOR_TYPES, type PasskeyRequest } from "@/lib/wix/identity";
import { passkeyLists } from "./passkey-list-store";

// A login's code step in progress (an e-mail verification, or a second factor's code): the
// platform's state token stays on the server side of the form.

const VERIFICATION_TTL_SECONDS = 15 * 60;

const pendingVerificationSchema = z.object({
  stateToken: z.string().min(1).max(4096),
  email: z.string().max(320),
  returnTo: z.string().startsWith("/").max(MAX_STORED_RETURN_TO),
  /** A sign-up with a taken address: its state token leads nowhere, and "Resend code" must answer as for a real one. */
  decoy: z.literal(true).optional(),
  /**
   * Present for a second factor's code: which factor it went by, the hint of where, whether the
   * member's app may answer instead, their other factors that could send it instead, whether they have recovery codes, and the
   * request for one of their passkeys: only its challenge, and the passkeys' ids while they are
   * few and short (absent: kept on the server, below).
   */
  secondFactor: z
    .object({
      type: z.enum(CHALLENGED_FACTOR_TYPES),
      hint: z.string().max(200),
      appToo: z.boolean().optional(),
      others: z.array(z.enum(SENDING_FACTOR_TYPES)).max(SENDING_FACTOR_TYPES.length).optional(),
      /** Whether the member has recovery codes left, so the page offers the form for one. */
      recoveryCodes: z.boolean().optional(),
      passkey: z
        .object({
          challengeId: z.string().min(1).max(100),
          challenge: z.string().min(1).max(200),
          credentialIds: z.array(z.string().min(1).max(1024)).max(50).optional(),
          userVerification: z.enum(["required", "preferred", "discouraged"]).optional(),
        })
        .optional(),
    })
    .optional(),
  /**
   * The step's key in the tries counted (lib/auth/code-steps.ts) when it is not its state token's:
   * a refused passkey's fresh challenge has a new state token, yet is the same step.
   */
  step: z.string().max(64).optional(),
  /** The code confirms a sign-up rather than a login. */
  signUp: z.boolean().optional(),
  /** The code was right and the new account now waits for an organiser's approval: nothing more to type. */
  awaitingApproval: z.literal(true).optional(),
});
type StoredVerification = z.infer<typeof pendingVerificationSchema>;
type StoredPasskeyRequest = NonNullable<NonNullable<StoredVerification["secondFactor"]>["passkey"]>;
/** As the pages and actions see it: the passkey request always with its list. */
export type PendingVerification = Omit<StoredVerification, "secondFactor"> & {
  secondFactor?: Omit<NonNullable<StoredVerification["secondFactor"]>, "passkey"> & { passkey?: PasskeyRequest };
};

/**
 * The most characters of passkey ids the cookie carries itself. Browsers drop a cookie past 4 KB,
 * and the pending login with it ("This verification has expired"): a longer list (a member with
 * many passkeys, or passkeys with long ids) is kept on the server instead.
 */
const PASSKEY_IDS_IN_COOKIE = 1024;

export async function writePendingVerification(cookies: CookieWriter, pending: PendingVerification): Promise<void> {
  const { secondFactor } = pending;
  const passkey = secondFactor?.passkey;
  let storedPasskey: StoredPasskeyRequest | undefined = passkey;
  if (passkey && passkey.credentialIds.join("").length > PASSKEY_IDS_IN_COOKIE) {
    await passkeyLists().put(passkey.challengeId, passkey.credentialIds, VERIFICATION_TTL_SECONDS);
    storedPasskey = { ...passkey, credentialIds: undefined };
  }
  const stored: StoredVerification = {
    ...pending,
    returnTo: storableReturnTo(pending.returnTo),
    ...(secondFactor && { secondFactor: { ...secondFactor, passkey: storedPasskey } }),
  };
  cookies.set(verificationCookieName(), await seal(stored, VERIFICATION_TTL_SECONDS), cookieOptions("/", VERIFICATION_TTL_SECONDS));
}

export async function readPendingVerification(cookies: CookieReader): Promise<PendingVerification | null> {
  const stored = await unseal(cookies.get(verificationCookieName())?.value, VERIFICATION_TTL_SECONDS, pendingVerificationSchema);
  const passkey = stored?.secondFactor?.passkey;
  if (!stored?.secondFactor || !passkey) return stored as PendingVerification | null;
  // Not found (expired, or kept by another instance without Redis): the browser offers whichever passkeys it holds for the site.
  const credentialIds = passkey.credentialIds ?? (await passkeyLists().get(passkey.challengeId)) ?? [];
  return { ...stored, secondFactor: { ...stored.secondFactor, passkey: { ...passkey, credentialIds } } };
}

export function clearPendingVerification(cookies: CookieWriter): void {
  cookies.set(verificationCookieName(), "", cookieOptions("/", 0));
}
