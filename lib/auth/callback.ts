import type { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { announceMemberChange } from "@/lib/cache/page-cache-signals";
import { logger } from "@/lib/observability/log";
import { GrantRejectedError, describeFailure } from "@/lib/wix/errors";
import { exchangeCode, type TokenPair } from "@/lib/wix/oauth";
import { finishedLoginAgain } from "./finished-login";
import { LOGGED_IN, SIGNED_UP, writeNotice } from "./notice-store";
import { readSession, writeSession } from "./session-store";
import { deleteTransaction, finishTransactions, readTransaction } from "./transaction-store";
import { lookUpDisplay } from "./refresh";
import { noStoreRedirect, signInProblem, siteUrl } from "./responses";
import { nowSeconds, sessionFromTokens } from "./session";
import { noteSessionIssued } from "./session-check";

const callbackParams = z.object({
  code: z.string().min(1).max(2048).optional().catch(undefined),
  state: z.string().min(1).max(512).optional().catch(undefined),
  error: z.string().max(256).optional().catch(undefined),
});

/** OAuth's error for a request the person declined: the hosted page's way back to the site. */
const CANCELLED = "access_denied";

/**
 * `GET /api/auth/callback`: checks the state against this browser's transaction, exchanges
 * the code, and replaces whatever session there was with the member's. A refused code and an
 * unreachable platform are told apart; the members service only supplies the display name,
 * so its failure never fails the login.
 */
export async function handleCallback(request: NextRequest): Promise<NextResponse> {
  const { code, state, error } = callbackParams.parse(Object.fromEntries(request.nextUrl.searchParams));
  const transaction = state ? await readTransaction(request.cookies, state) : null;
  const finish = (response: NextResponse) => {
    if (transaction && state) deleteTransaction(response.cookies, state);
    return response;
  };

  // The browser's Back button from the page a login ended on: the platform's finished login page
  // sends it here again (declined, or with the spent code); Back goes on past it.
  if (transaction?.finished) return finishedLoginAgain(request, siteUrl(transaction.returnTo));
  if (error) {
    // A silent login that found no platform session simply leaves a visitor; so does a person who
    // chose "Back to the site" on the hosted page (access_denied): they return to where the login
    // started, or home once its transaction has expired. Neither is a failure to explain.
    if (transaction?.mode === "silent" || error === CANCELLED) return finish(noStoreRedirect(siteUrl(transaction?.returnTo ?? "/")));
    return finish(signInProblem(transaction?.mode === "direct" ? "direct" : "denied", transaction?.returnTo));
  }
  if (!code || !state) return finish(signInProblem("missing", transaction?.returnTo));
  if (!transaction) {
    // A back-button replay after a successful login: the member is already signed in.
    const session = await readSession(request.cookies);
    return session?.role === "member" ? noStoreRedirect(siteUrl("/")) : signInProblem("state");
  }

  let tokens: TokenPair;
  try {
    tokens = await exchangeCode(code, transaction.oauthData);
  } catch (failure) {
    logger().error({ failure: describeFailure(failure) }, "exchanging the sign-in code failed");
    return finish(signInProblem(failure instanceof GrantRejectedError ? "exchange" : "unavailable", transaction.returnTo));
  }
  const member = await lookUpDisplay(tokens.accessToken);
  const response = noStoreRedirect(siteUrl(transaction.returnTo));
  const session = sessionFromTokens(tokens, nowSeconds(), member);
  noteSessionIssued(session);
  // A login may have used a recovery code or remembered this device: what the member's other browsers keep of their account is old.
  if (session.member) announceMemberChange(session.member.id);
  await writeSession(response.cookies, session);
  writeNotice(response.cookies, transaction.signUp ? SIGNED_UP : LOGGED_IN);
  await finishTransactions(request.cookies, response.cookies, transaction);
  return response;
}
