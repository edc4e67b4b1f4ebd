import "server-only";
import { cookies } from "next/headers";
import { NOTICE_COOKIE, SESSION_ENDED } from "./notice";
import { SESSION_COOKIE, unsealSession, type Session } from "./session";

/**
 * The session as middleware left it. Server components only read it: renewal happens in
 * middleware, which also puts the renewed cookie into the request they see.
 */
export async function readSession(): Promise<Session | null> {
  return unsealSession((await cookies()).get(SESSION_COOKIE)?.value);
}

/** True on the one page view after a member's session ended on its own. */
export async function sessionJustEnded(): Promise<boolean> {
  return (await cookies()).get(NOTICE_COOKIE)?.value === SESSION_ENDED;
}
