import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import { sessionClient, type WixClient } from "@/lib/wix/client";
import { PlatformUnavailableError, TokenRefusedError } from "@/lib/wix/errors";
import { currentMember } from "@/lib/wix/members";
import { ACCOUNT_DELETED, SESSION_ENDED, noticeForPage, writeNotice, type Notice } from "./notice-store";
import { clearSession, readSession, writeSession } from "./session-store";
import { renewSession } from "./refresh";
import { loginPageHref, renewHref } from "./routes";
import { nowSeconds, type Session, type SessionMember } from "./session";

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
 * (docs/auth-pitfalls.md P11). A session middleware ended for this very request (the platform
 * ended it) sends the browser on to a login page that says so, as this page's notice cannot.
 */
export async function requireMember(returnTo: string): Promise<MemberSession> {
  const [session, notice] = await Promise.all([getSession(), pageNotice()]);
  if (session?.role !== "member") redirect(loginPageHref(returnTo, { sessionEnded: notice === SESSION_ENDED }));
  return session as MemberSession;
}

/** The one-time notice this page view shows: a session that ended on its own, a deleted account. */
export async function pageNotice(): Promise<Notice | null> {
  return noticeForPage(await headers());
}

/** One client per token and page render (making one costs about 0.3 ms): /account reads through five. */
const renderClient = cache((accessToken: string) => sessionClient(accessToken));

/**
 * Runs a read whose answer depends on who asks, with the session's own client. When the
 * platform refuses the token, the browser is sent to renew the session once and come back to
 * `returnTo`; if the session has ended it goes to `ifEnded` as a visitor (by default the same
 * page), with a notice instead of an error page (docs/auth-pitfalls.md P14).
 */
export async function readAsMember<T>(session: Session, returnTo: string, read: (client: WixClient) => Promise<T>, ifEnded?: string): Promise<T> {
  try {
    return await read(renderClient(session.accessToken));
  } catch (error) {
    if (error instanceof TokenRefusedError) redirect(renewHref(returnTo, ifEnded));
    throw error;
  }
}

/**
 * For the pages a member is sent on from (log in, sign up): the member's session once the
 * platform confirms it still stands, else null for a visitor. A session the platform ended
 * elsewhere ("Sign out everywhere", a password reset) is ended here too, with the notice, and
 * the page comes back for a visitor, so the cookie alone never keeps someone from logging in.
 * An unreachable platform leaves the session as it is.
 */
export async function confirmedMemberSession(page: string): Promise<MemberSession | null> {
  const session = await getSession();
  if (session?.role !== "member") return null;
  try {
    await readAsMember(session, page, currentMember, page);
  } catch (error) {
    if (!(error instanceof PlatformUnavailableError)) throw error;
  }
  return session as MemberSession;
}

/** In a server action: the member's display data changed (a new nickname), so the header shows it at once. */
export async function updateSessionMember(member: SessionMember): Promise<void> {
  const jar = await cookies();
  const session = await readSession(jar);
  if (session?.role === "member") await writeSession(jar, { ...session, member });
}

/** Why a server action could not act for the member. */
export type NotMember = { ok: false; reason: "signed-out" | "session-ended" };

/**
 * In a server action: runs `act` with the member's own client. A token the platform refuses is
 * renewed once and the renewed cookie written; if the session has ended, it is cleared and the
 * caller tells the member to log in again (their form input is still on the page).
 */
export async function actAsMember<T>(act: (client: WixClient, session: MemberSession) => Promise<T>): Promise<{ ok: true; value: T } | NotMember> {
  const jar = await cookies();
  const session = await readSession(jar);
  if (session?.role !== "member") return { ok: false, reason: "signed-out" };
  try {
    return { ok: true, value: await act(sessionClient(session.accessToken), session as MemberSession) };
  } catch (error) {
    if (!(error instanceof TokenRefusedError)) throw error;
  }
  const renewal = await renewSession(session, nowSeconds(), "refused");
  if (renewal.session?.role !== "member") {
    clearSession(jar);
    return { ok: false, reason: "session-ended" };
  }
  await writeSession(jar, renewal.session);
  return { ok: true, value: await act(sessionClient(renewal.session.accessToken), renewal.session as MemberSession) };
}

/** In a server action, after the member deleted their account: the session ends and the next page says why. */
export async function endDeletedMemberSession(): Promise<void> {
  const jar = await cookies();
  clearSession(jar);
  writeNotice(jar, ACCOUNT_DELETED);
}
