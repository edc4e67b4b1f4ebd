import type { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { currentMember } from "@/lib/wix/members";
import { exchangeCode } from "@/lib/wix/oauth";
import { noStoreRedirect, signInProblem, siteUrl } from "./responses";
import { SESSION_COOKIE, sealSession, sessionCookieOptions, sessionFromTokens, unsealSession } from "./session";
import { deleteTransaction, readTransaction } from "./transactions";

const callbackParams = z.object({
  code: z.string().min(1).max(2048).optional().catch(undefined),
  state: z.string().min(1).max(512).optional().catch(undefined),
  error: z.string().max(256).optional().catch(undefined),
});

/**
 * `GET /api/auth/callback`: checks the state against this browser's transaction, exchanges
 * the code, and replaces the visitor's session with the member's.
 */
export async function handleCallback(request: NextRequest): Promise<NextResponse> {
  const { code, state, error } = callbackParams.parse(Object.fromEntries(request.nextUrl.searchParams));
  const transaction = state ? await readTransaction(request, state) : null;
  const finish = (response: NextResponse) => {
    if (transaction && state) deleteTransaction(response, state);
    return response;
  };

  if (error) {
    // A silent login (prompt=none) that found no platform session simply leaves a visitor.
    if (transaction?.prompt === "none") return finish(noStoreRedirect(siteUrl(transaction.returnTo)));
    return finish(signInProblem("denied", transaction?.returnTo));
  }
  if (!code || !state) return finish(signInProblem("missing", transaction?.returnTo));
  if (!transaction) {
    // A back-button replay after a successful login: the member is already signed in.
    const session = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
    return session?.role === "member" ? noStoreRedirect(siteUrl("/")) : signInProblem("state");
  }

  try {
    const tokens = await exchangeCode(code, state, transaction.oauthData);
    const member = await currentMember(tokens.accessToken);
    const sealed = await sealSession(sessionFromTokens(tokens, Math.floor(Date.now() / 1000), { id: member.id, name: member.name }));
    const response = finish(noStoreRedirect(siteUrl(transaction.returnTo)));
    response.cookies.set(SESSION_COOKIE, sealed, sessionCookieOptions());
    return response;
  } catch (failure) {
    console.error("Completing the login failed:", failure instanceof Error ? failure.message.split("\n")[0] : "unknown error");
    return finish(signInProblem("exchange", transaction.returnTo));
  }
}
