import { createHash } from "node:crypto";
import { z } from "zod";
import { oauthDataSchema } from "@/lib/wix/oauth";
import { type CookieReader, type CookieWriter, cookieOptions, seal, unseal } from "./cookie-sealing";
import { transactionCookiePrefix } from "./cookie-names";
import { AUTH_HANDLERS_PATH } from "./routes";

const TRANSACTION_TTL_SECONDS = 600;

/**
 * Pending logins are bounded so the Cookie header sent to the auth handlers stays well under
 * 8 KB (Node refuses headers over 16 KB with 431): three transactions of at most about 1 KB
 * each, next to a session of at most about 3.5 KB.
 */
export const MAX_TRANSACTIONS = 3;
export const MAX_STORED_RETURN_TO = 512;

// Login transactions: one cookie per pending login, named after its state, so several tabs can log in at once.

/**
 * How the login was started: `hosted` on the platform's login page, `silent` to pick up a
 * platform session the browser may already have (a visitor simply stays one if there is
 * none), `direct` from the site's own forms with a session token.
 */
export const loginModes = ["hosted", "silent", "direct"] as const;
export type LoginMode = (typeof loginModes)[number];

const transactionSchema = z.object({
  oauthData: oauthDataSchema,
  returnTo: z.string().startsWith("/").max(MAX_STORED_RETURN_TO),
  mode: z.enum(loginModes),
  /** Started by a sign-up, so the page after the callback welcomes a new member rather than confirming a login. */
  signUp: z.boolean().optional(),
  createdAt: z.number(),
  /**
   * The login is over, and its code spent: kept for its time only so the browser's Back button,
   * which opens the platform's finished login page again and comes back here, returns to `returnTo`.
   */
  finished: z.literal(true).optional(),
});
export type LoginTransaction = z.infer<typeof transactionSchema>;

function transactionCookieName(state: string): string {
  return transactionCookiePrefix() + createHash("sha256").update(state).digest("base64url").slice(0, 22);
}

function transactionCookies(cookies: CookieReader) {
  return cookies.getAll().filter((cookie) => cookie.name.startsWith(transactionCookiePrefix()));
}

function expireTransactionCookie(cookies: CookieWriter, name: string): void {
  cookies.set(name, "", cookieOptions(AUTH_HANDLERS_PATH, 0));
}

/** A return path short enough to keep: long queries are dropped, an absurd path becomes `/`. */
export function storableReturnTo(returnTo: string): string {
  if (returnTo.length <= MAX_STORED_RETURN_TO) return returnTo;
  const path = returnTo.split(/[?#]/)[0];
  return path.length <= MAX_STORED_RETURN_TO ? path : "/";
}

/** Saves a pending login, evicting the oldest ones beyond MAX_TRANSACTIONS. */
export async function saveTransaction(reader: CookieReader, writer: CookieWriter, transaction: LoginTransaction): Promise<void> {
  const existing = transactionCookies(reader);
  if (existing.length >= MAX_TRANSACTIONS) {
    const dated = await Promise.all(
      existing.map(async (cookie) => ({
        name: cookie.name,
        createdAt: (await unseal(cookie.value, TRANSACTION_TTL_SECONDS, transactionSchema))?.createdAt ?? 0,
      })),
    );
    dated.sort((a, b) => a.createdAt - b.createdAt);
    for (const { name } of dated.slice(0, existing.length - MAX_TRANSACTIONS + 1)) expireTransactionCookie(writer, name);
  }
  const stored = transactionSchema.parse({ ...transaction, returnTo: storableReturnTo(transaction.returnTo) });
  writer.set(
    transactionCookieName(stored.oauthData.state),
    await seal(stored, TRANSACTION_TTL_SECONDS),
    cookieOptions(AUTH_HANDLERS_PATH, TRANSACTION_TTL_SECONDS),
  );
}

/** The transaction for a state, or null when it is unknown, used, expired or tampered with. */
export async function readTransaction(cookies: CookieReader, state: string): Promise<LoginTransaction | null> {
  const transaction = await unseal(cookies.get(transactionCookieName(state))?.value, TRANSACTION_TTL_SECONDS, transactionSchema);
  return transaction?.oauthData.state === state ? transaction : null;
}

export function deleteTransaction(cookies: CookieWriter, state: string): void {
  expireTransactionCookie(cookies, transactionCookieName(state));
}

export function deleteAllTransactions(reader: CookieReader, writer: CookieWriter): void {
  for (const { name } of transactionCookies(reader)) expireTransactionCookie(writer, name);
}

/**
 * After a successful login: every pending one goes, and this one stays, finished, for a while
 * (it can never be exchanged again: the platform spent its code).
 */
export async function finishTransactions(reader: CookieReader, writer: CookieWriter, finished: LoginTransaction): Promise<void> {
  const kept = transactionCookieName(finished.oauthData.state);
  for (const { name } of transactionCookies(reader)) if (name !== kept) expireTransactionCookie(writer, name);
  writer.set(kept, await seal({ ...finished, finished: true }, TRANSACTION_TTL_SECONDS), cookieOptions(AUTH_HANDLERS_PATH, TRANSACTION_TTL_SECONDS));
}
