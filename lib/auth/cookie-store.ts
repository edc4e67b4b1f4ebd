import { createHash } from "node:crypto";
import { sealData, unsealData } from "iron-session";
import { NextResponse, type NextRequest } from "next/server";
import type { ResponseCookies } from "next/dist/compiled/@edge-runtime/cookies";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { oauthDataSchema } from "@/lib/wix/oauth";
import { NOTICE_COOKIE, SESSION_COOKIE, TRANSACTION_PREFIX, VERIFICATION_COOKIE } from "./cookie-names";
import { AUTH_HANDLERS_PATH } from "./routes";
import { memberSessionLapsed, nowSeconds, sessionSchema, type Session } from "./session";

/**
 * The one owner of the site's auth cookies: their names, options and sealing, and reading and
 * writing them in every context (middleware, route handlers, server actions, server
 * components). Nothing else touches these cookies.
 */

/** Anything cookies can be read from: request cookies, or `cookies()` in a component or action. */
export type CookieReader = { get(name: string): { value: string } | undefined; getAll(): Array<{ name: string; value: string }> };
/** Anything cookies can be written to: a response, or `cookies()` in a server action or route handler. */
export type CookieWriter = Pick<ResponseCookies, "set">;


/** Visitor and member sessions both last as long as their refresh token is honoured. */
const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;
const TRANSACTION_TTL_SECONDS = 600;
const NOTICE_MAX_AGE_SECONDS = 300;

/**
 * Pending logins are bounded so the Cookie header sent to the auth handlers stays well under
 * 8 KB (Node refuses headers over 16 KB with 431): three transactions of at most about 1 KB
 * each, next to a session of at most about 3.5 KB.
 */
export const MAX_TRANSACTIONS = 3;
export const MAX_STORED_RETURN_TO = 512;

/** The options every auth cookie shares; only the path and lifetime differ. */
function baseOptions(path = "/") {
  return { httpOnly: true, sameSite: "lax" as const, secure: getConfig().siteUrl.protocol === "https:", path };
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

async function seal(data: object, ttl: number): Promise<string> {
  const [newest] = getConfig().sessionSecrets;
  return sealData(data, { password: { [secretId(newest)]: newest }, ttl });
}

/** The sealed value's data, or null when it is absent, tampered with, expired or malformed. */
async function unseal<T>(value: string | undefined, ttl: number, schema: z.ZodType<T>): Promise<T | null> {
  if (!value) return null;
  try {
    const parsed = schema.safeParse(await unsealData(value, { password: openingSecrets(), ttl }));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

// The session

/**
 * The session a cookie holds, and whether it was a member session that ran out (idle or too
 * old): that one is not returned, and middleware ends it with a notice.
 */
export async function loadSession(cookies: CookieReader): Promise<{ session: Session | null; lapsed: boolean }> {
  const session = await unseal(cookies.get(SESSION_COOKIE())?.value, SESSION_MAX_AGE_SECONDS, sessionSchema);
  if (session && memberSessionLapsed(session, nowSeconds(), getConfig().memberSession)) return { session: null, lapsed: true };
  return { session, lapsed: false };
}

export async function readSession(cookies: CookieReader): Promise<Session | null> {
  return (await loadSession(cookies)).session;
}

export function hasSessionCookie(cookies: CookieReader): boolean {
  return cookies.get(SESSION_COOKIE()) !== undefined;
}

export async function writeSession(cookies: CookieWriter, session: Session): Promise<void> {
  cookies.set(SESSION_COOKIE(), await seal(session, SESSION_MAX_AGE_SECONDS), { ...baseOptions(), maxAge: SESSION_MAX_AGE_SECONDS });
}

export function clearSession(cookies: CookieWriter): void {
  cookies.set(SESSION_COOKIE(), "", { ...baseOptions(), maxAge: 0 });
}

// The one-time notice: shown on the first page the browser loads after it was set. The page
// learns it from a request header that middleware sets, not from the cookie: Next.js merges the
// middleware's cookie deletions into what `cookies()` returns, which would hide a notice that
// is shown and forgotten in the same request.

export const SESSION_ENDED = "session-ended";
export const ACCOUNT_DELETED = "account-deleted";
const notices = [SESSION_ENDED, ACCOUNT_DELETED] as const;
export type Notice = (typeof notices)[number];
const NOTICE_HEADER = "x-wms-notice";

/** Only the site's own notices: the cookie's value is not trusted to name anything else. */
function asNotice(value: string | null | undefined): Notice | null {
  return notices.find((notice) => notice === value) ?? null;
}

function readNotice(cookies: CookieReader): Notice | null {
  return asNotice(cookies.get(NOTICE_COOKIE())?.value);
}

/** The notice this page shows, as middleware passed it on. */
export function noticeForPage(headers: Headers): Notice | null {
  return asNotice(headers.get(NOTICE_HEADER));
}

/** From a route handler or server action: the next page the browser loads shows it. */
export function writeNotice(cookies: CookieWriter, notice: Notice): void {
  cookies.set(NOTICE_COOKIE(), notice, { ...baseOptions(), maxAge: NOTICE_MAX_AGE_SECONDS });
}

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
  createdAt: z.number(),
});
export type LoginTransaction = z.infer<typeof transactionSchema>;

function transactionCookieName(state: string): string {
  return TRANSACTION_PREFIX() + createHash("sha256").update(state).digest("base64url").slice(0, 22);
}

function transactionCookies(cookies: CookieReader) {
  return cookies.getAll().filter((cookie) => cookie.name.startsWith(TRANSACTION_PREFIX()));
}

function expireTransactionCookie(cookies: CookieWriter, name: string): void {
  cookies.set(name, "", { ...baseOptions(AUTH_HANDLERS_PATH), maxAge: 0 });
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
      existing.map(async (cookie) => ({ name: cookie.name, createdAt: (await unseal(cookie.value, TRANSACTION_TTL_SECONDS, transactionSchema))?.createdAt ?? 0 })),
    );
    dated.sort((a, b) => a.createdAt - b.createdAt);
    for (const { name } of dated.slice(0, existing.length - MAX_TRANSACTIONS + 1)) expireTransactionCookie(writer, name);
  }
  const stored = transactionSchema.parse({ ...transaction, returnTo: storableReturnTo(transaction.returnTo) });
  writer.set(transactionCookieName(stored.oauthData.state), await seal(stored, TRANSACTION_TTL_SECONDS), {
    ...baseOptions(AUTH_HANDLERS_PATH),
    maxAge: TRANSACTION_TTL_SECONDS,
  });
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

// An e-mail verification in progress: the platform's state token stays on the server side of the form.

const VERIFICATION_TTL_SECONDS = 15 * 60;

const pendingVerificationSchema = z.object({
  stateToken: z.string().min(1).max(4096),
  email: z.string().max(320),
  returnTo: z.string().startsWith("/").max(MAX_STORED_RETURN_TO),
});
export type PendingVerification = z.infer<typeof pendingVerificationSchema>;

export async function writePendingVerification(cookies: CookieWriter, pending: PendingVerification): Promise<void> {
  const stored = { ...pending, returnTo: storableReturnTo(pending.returnTo) };
  cookies.set(VERIFICATION_COOKIE(), await seal(stored, VERIFICATION_TTL_SECONDS), { ...baseOptions(), maxAge: VERIFICATION_TTL_SECONDS });
}

export function readPendingVerification(cookies: CookieReader): Promise<PendingVerification | null> {
  return unseal(cookies.get(VERIFICATION_COOKIE())?.value, VERIFICATION_TTL_SECONDS, pendingVerificationSchema);
}

export function clearPendingVerification(cookies: CookieWriter): void {
  cookies.set(VERIFICATION_COOKIE(), "", { ...baseOptions(), maxAge: 0 });
}

// Middleware: changes that the server components of this same request must see, and the browser too.

export class MiddlewareCookies {
  private session: { value: Session | null } | undefined;
  private notice: { show: Notice } | undefined;

  private readonly broughtNotice: Notice | null;

  /** `forward`: request headers the page must see whatever happens to the cookies (the security policy's nonce). */
  constructor(
    private readonly request: NextRequest,
    private readonly forward: Record<string, string> = {},
  ) {
    this.broughtNotice = readNotice(request.cookies);
  }

  /** A renewed session, or null to end it. */
  setSession(session: Session | null): void {
    this.session = { value: session };
  }

  /** Shown on the page this request renders, and only there. */
  showNotice(notice: Notice): void {
    this.notice = { show: notice };
  }

  /** A notice the browser brought is shown now, then forgotten. */
  consumeNotice(): void {
    if (!this.notice && this.broughtNotice) this.notice = { show: this.broughtNotice };
  }

  get changed(): boolean {
    // A notice header the client sent itself is always replaced.
    return this.session !== undefined || this.notice !== undefined || this.request.headers.has(NOTICE_HEADER);
  }

  /** The headers the page renders with: the forwarded ones, and the notice only if middleware set it. */
  private pageHeaders(): Headers {
    const headers = new Headers(this.request.headers);
    for (const [name, value] of Object.entries(this.forward)) headers.set(name, value);
    headers.delete(NOTICE_HEADER);
    if (this.notice?.show) headers.set(NOTICE_HEADER, this.notice.show);
    return headers;
  }

  /** Nothing changed for the browser: the page renders with the forwarded headers. */
  pass(): NextResponse {
    if (Object.keys(this.forward).length === 0) return NextResponse.next();
    return NextResponse.next({ request: { headers: this.pageHeaders() } });
  }

  /**
   * Applies the changes: to the request the page renders from, then to the response, which is
   * the page itself unless another one (a redirect) is given.
   */
  async respond(redirect?: NextResponse): Promise<NextResponse> {
    const sealed = this.session?.value ? await seal(this.session.value, SESSION_MAX_AGE_SECONDS) : null;
    if (this.session) {
      if (sealed) this.request.cookies.set(SESSION_COOKIE(), sealed);
      else this.request.cookies.delete(SESSION_COOKIE());
    }
    const response = redirect ?? NextResponse.next({ request: { headers: this.pageHeaders() } });
    if (this.session) {
      response.cookies.set(SESSION_COOKIE(), sealed ?? "", { ...baseOptions(), maxAge: sealed ? SESSION_MAX_AGE_SECONDS : 0 });
    }
    // Shown now, so the browser does not keep it for another page.
    if (this.notice && this.broughtNotice) response.cookies.set(NOTICE_COOKIE(), "", { ...baseOptions(), maxAge: 0 });
    response.headers.set("cache-control", "private, no-store");
    return response;
  }
}
