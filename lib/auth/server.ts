import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { sessionClient, type WixClient } from "@/lib/wix/client";
import { TokenRefusedError } from "@/lib/wix/errors";
import type { TokenPair } from "@/lib/wix/oauth";
import { SESSION_ENDED, noticeForPage, readSession, writeSession } from "./cookie-store";
import { loginHref, renewHref } from "./routes";
import { nowSeconds, sessionFromTokens, type Session, type SessionMember } from "./session";

/**
 * The session in server components and server actions, as middleware left it. Components
 * only read it: renewal happens in middleware, which also puts the renewed cookie into the
 * request they see.
 */
export async function getSession(): Promise<Session | null> {
  return readSession(await cookies());
}

export type MemberSession = Session & { role: "member" };

/**
 * For pages only members may see: the member's session, or a redirect to log in that comes
 * back to `returnTo`. The page checks this itself; middleware only keeps tokens fresh
 * (docs/auth-pitfalls.md P11).
 */
export async function requireMember(returnTo: string): Promise<MemberSession> {
  const session = await getSession();
  if (session?.role !== "member") redirect(loginHref(returnTo));
  return session as MemberSession;
}

/** True on the one page view after a member's session ended on its own. */
export async function sessionJustEnded(): Promise<boolean> {
  return noticeForPage(await headers()) === SESSION_ENDED;
}

/**
 * Runs a read whose answer depends on who asks, with the session's own client. When the
 * platform refuses the token, the browser is sent to renew the session once and come back to
 * `returnTo`; if the session has ended it goes to `ifEnded` as a visitor (by default the same
 * page), with a notice instead of an error page (docs/auth-pitfalls.md P14).
 */
export async function readAsMember<T>(session: Session, returnTo: string, read: (client: WixClient) => Promise<T>, ifEnded?: string): Promise<T> {
  try {
    return await read(sessionClient(session.accessToken));
  } catch (error) {
    if (error instanceof TokenRefusedError) redirect(renewHref(returnTo, ifEnded));
    throw error;
  }
}

/** In a server action: replaces whatever session there is with a member's, from their tokens. */
export async function startMemberSession(tokens: TokenPair, member?: SessionMember): Promise<void> {
  await writeSession(await cookies(), sessionFromTokens(tokens, nowSeconds(), member));
}

/** In a server action: the member's display data changed (a new nickname), so the header shows it at once. */
export async function updateSessionMember(member: SessionMember): Promise<void> {
  const jar = await cookies();
  const session = await readSession(jar);
  if (session?.role === "member") await writeSession(jar, { ...session, member });
}
