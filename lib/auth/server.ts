import "server-only";
import { cookies } from "next/headers";
import { SESSION_COOKIE, unsealSession, type Session } from "./session";

/**
 * The session as middleware left it. Server components only read it: renewal happens in
 * middleware, which also puts the renewed cookie into the request they see.
 */
export async function readSession(): Promise<Session | null> {
  return unsealSession((await cookies()).get(SESSION_COOKIE)?.value);
}
