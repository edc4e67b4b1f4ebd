import { createHash } from "node:crypto";
import { grantVisitorTokens, isRefreshRejected, renewAccessToken } from "@/lib/wix/oauth";
import { sessionFromTokens, type Session } from "./session";

export type TokenAction = "keep" | "refresh" | "anonymous";

/** What middleware must do with the session it found: pure, so it is tested on its own. */
export function decideTokenAction(session: Session | null, nowSeconds: number): TokenAction {
  if (!session) return "anonymous";
  if (nowSeconds < session.renewAt) return "keep";
  return session.refreshToken ? "refresh" : "anonymous";
}

export type Renewal = {
  session: Session;
  /** A member whose refresh token was refused: they are a visitor now and must be told. */
  memberSessionEnded: boolean;
};

/**
 * Parallel requests carrying the same expired cookie share one refresh, and its result is
 * kept briefly so requests that arrive just after it settled reuse it (pitfall P1).
 */
const inFlight = new Map<string, { promise: Promise<Renewal>; settledAt?: number }>();
const REUSE_WINDOW_MS = 60_000;

export function renewSession(current: Session | null, nowSeconds: number): Promise<Renewal> {
  if (decideTokenAction(current, nowSeconds) === "anonymous" || !current) return newVisitor(false, nowSeconds);
  const key = createHash("sha256").update(current.refreshToken).digest("base64url");
  const now = Date.now();
  for (const [k, entry] of inFlight) if (entry.settledAt && now - entry.settledAt > REUSE_WINDOW_MS) inFlight.delete(k);
  const existing = inFlight.get(key);
  if (existing) return existing.promise;
  const entry: { promise: Promise<Renewal>; settledAt?: number } = {
    promise: refresh(current, nowSeconds).finally(() => {
      entry.settledAt = Date.now();
    }),
  };
  entry.promise.catch(() => inFlight.delete(key));
  inFlight.set(key, entry);
  return entry.promise;
}

async function refresh(current: Session, nowSeconds: number): Promise<Renewal> {
  try {
    return { session: sessionFromTokens(await renewAccessToken(current), nowSeconds, current.member), memberSessionEnded: false };
  } catch (error) {
    if (!isRefreshRejected(error)) throw error;
    return newVisitor(current.role === "member", nowSeconds);
  }
}

async function newVisitor(memberSessionEnded: boolean, nowSeconds: number): Promise<Renewal> {
  return { session: sessionFromTokens(await grantVisitorTokens(), nowSeconds), memberSessionEnded };
}
