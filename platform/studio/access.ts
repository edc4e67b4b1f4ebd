import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { LOCAL_STUDIO_PATH } from "@ridgeline/platform-contract";
import { DEFAULT_API_KEY, type PlatformConfig } from "../config";
import { isAdminKey } from "../context";
import { fromLoopback } from "../http/admin-guard";
import { readCookie, serializeCookie } from "../identity/cookies";

/**
 * Who may use the Studio (docs/platform/studio.md §Access). With the well-known default key the
 * platform is for this machine only, and so is the Studio: a loopback request is let in as it is.
 * With a key of the owner's own, a person signs in with that key and gets a session cookie.
 * Either way every state-changing call carries a CSRF token that only the Studio's own page knows.
 */

export const STUDIO_SESSION_COOKIE = "lp_studio";
export const STUDIO_PATH = LOCAL_STUDIO_PATH;
/** The header the Studio's script sends its CSRF token in: a page of another origin cannot set it without CORS, and the platform grants none. */
export const CSRF_HEADER = "x-studio-csrf";

const SESSION_SECONDS = 8 * 60 * 60;
const MAX_SESSIONS = 100;

type Session = { csrf: string; expiresAt: number };
export type StudioVisit = { csrf: string };

const token = () => randomBytes(32).toString("base64url");
const digest = (value: string) => createHash("sha256").update(value).digest("hex");

function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class StudioAccess {
  /** Sessions by the digest of their cookie, so the map holds nothing a browser could replay. */
  private readonly sessions = new Map<string, Session>();
  private readonly loopbackCsrf = token();

  constructor(private readonly config: PlatformConfig) {}

  get needsSignIn(): boolean {
    return this.config.apiKey !== DEFAULT_API_KEY;
  }

  /** The visit a request belongs to, or null when it may not use the Studio. */
  visit(request: FastifyRequest): StudioVisit | null {
    if (!this.needsSignIn) return fromLoopback(request) ? { csrf: this.loopbackCsrf } : null;
    const cookie = readCookie(request.headers.cookie, STUDIO_SESSION_COOKIE);
    const session = cookie ? this.sessions.get(digest(cookie)) : undefined;
    if (!session || session.expiresAt < Date.now()) return null;
    return { csrf: session.csrf };
  }

  /** Whether a state-changing request carries its visit's CSRF token. */
  csrfValid(visit: StudioVisit, given: string | undefined): boolean {
    return sameToken(visit.csrf, given);
  }

  /** A new session for the right key: the Set-Cookie header to send, or null for a wrong key. */
  signIn(key: string, secure: boolean): string | null {
    if (!this.needsSignIn || !isAdminKey(this.config, key)) return null;
    this.prune();
    const cookie = token();
    this.sessions.set(digest(cookie), { csrf: token(), expiresAt: Date.now() + SESSION_SECONDS * 1000 });
    return this.cookie(cookie, SESSION_SECONDS, secure);
  }

  /** Ends the request's session: the Set-Cookie header that clears it. */
  signOut(request: FastifyRequest, secure: boolean): string {
    const cookie = readCookie(request.headers.cookie, STUDIO_SESSION_COOKIE);
    if (cookie) this.sessions.delete(digest(cookie));
    return this.cookie("", 0, secure);
  }

  private cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
    // Strict, not the hosted pages' Lax: nothing outside the Studio ever needs to send it.
    return serializeCookie(STUDIO_SESSION_COOKIE, value, { path: STUDIO_PATH, maxAgeSeconds, secure, sameSite: "Strict" });
  }

  private prune() {
    const now = Date.now();
    for (const [id, session] of this.sessions) if (session.expiresAt < now) this.sessions.delete(id);
    // The oldest go first when someone signs in over and over.
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
  }
}
