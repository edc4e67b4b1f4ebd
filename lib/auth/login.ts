import type { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { describeFailure } from "@/lib/wix/errors";
import { grantVisitorTokens, startAuthorization, type TokenPair } from "@/lib/wix/oauth";
import { clearSession, readSession, saveTransaction, writeSession } from "./cookie-store";
import { isPrefetch } from "./prefetch";
import { renewSession } from "./refresh";
import { noStoreRedirect, prefetchAnswer, signInProblem, siteUrl } from "./responses";
import { safeReturnTo } from "./return-to";
import { AUTH_ROUTES } from "./routes";
import { nowSeconds } from "./session";

const loginParams = z.object({
  returnTo: z.string().optional().catch(undefined),
  prompt: z.enum(["login", "none"]).catch("login").default("login"),
});

/**
 * `GET /api/auth/login?returnTo=/path[&prompt=none]`: starts the hosted login with PKCE. A
 * member is sent straight back only while the platform still honours their session, so a
 * cookie holding dead tokens can always log in again.
 */
export async function handleLogin(request: NextRequest): Promise<NextResponse> {
  if (isPrefetch(request.headers)) return prefetchAnswer();
  const params = loginParams.parse(Object.fromEntries(request.nextUrl.searchParams));
  const returnTo = safeReturnTo(params.returnTo, siteUrl("/").origin);
  const current = await readSession(request.cookies);

  let visitor: TokenPair;
  let ended = false;
  try {
    if (current?.role === "member") {
      const renewal = await renewSession(current, nowSeconds(), "check");
      if (renewal.session) {
        const response = noStoreRedirect(siteUrl(returnTo));
        await writeSession(response.cookies, renewal.session);
        return response;
      }
      ended = true;
    }
    visitor = current?.role === "visitor" && !ended && nowSeconds() < current.renewAt ? current : await grantVisitorTokens();
  } catch (error) {
    console.error("Starting the hosted login failed:", describeFailure(error));
    return signInProblem("unavailable", returnTo);
  }

  let started: Awaited<ReturnType<typeof startAuthorization>>;
  try {
    started = await startAuthorization(visitor, siteUrl(AUTH_ROUTES.callback).href, params.prompt);
  } catch (error) {
    console.error("Starting the hosted login failed:", describeFailure(error));
    return signInProblem("unavailable", returnTo);
  }
  const response = noStoreRedirect(started.authUrl);
  if (ended) clearSession(response.cookies);
  await saveTransaction(request.cookies, response.cookies, { oauthData: started.oauthData, returnTo, prompt: params.prompt, createdAt: Date.now() });
  return response;
}

