import type { NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { publicVisitorPair } from "@/lib/wix/client";
import { logger } from "@/lib/observability/log";
import { clientAddress } from "@/lib/security/client-address";
import { attemptAuthAction } from "@/lib/security/rate-limits";
import { describeFailure } from "@/lib/wix/errors";
import { startAuthorization } from "@/lib/wix/oauth";
import type { CookieReader, CookieWriter } from "./cookie-sealing";
import { clearSession, readSession, writeSession } from "./session-store";
import { saveTransaction, type LoginMode } from "./transaction-store";
import { isPrefetch } from "./prefetch";
import { renewSession } from "./refresh";
import { noStoreRedirect, prefetchAnswer, signInProblem, siteUrl, tooManyAttempts } from "./responses";
import { safeReturnTo } from "./return-to";
import { AUTH_ROUTES } from "./routes";
import { nowSeconds } from "./session";

/**
 * Starts a login with PKCE: saves the transaction the callback will check and answers the
 * platform URL to send the browser to. Route handlers and server actions both start logins
 * here. The redirect session is asked for with the server's own visitor tokens, so starting a
 * login costs no token grant.
 */
export async function beginLogin(
  reader: CookieReader,
  writer: CookieWriter,
  options: { returnTo: string; mode: LoginMode; sessionToken?: string; signUp?: boolean },
): Promise<string> {
  const { authUrl, oauthData } = await startAuthorization(await publicVisitorPair(), siteUrl(AUTH_ROUTES.callback).href, {
    prompt: options.mode === "hosted" ? "login" : "none",
    sessionToken: options.sessionToken,
  });
  await saveTransaction(reader, writer, { oauthData, returnTo: options.returnTo, mode: options.mode, signUp: options.signUp, createdAt: Date.now() });
  return authUrl;
}

const loginParams = z.object({
  returnTo: z.string().optional().catch(undefined),
  prompt: z.enum(["login", "none"]).catch("login").default("login"),
});

/**
 * `GET /api/auth/login?returnTo=/path[&prompt=none]`: starts the hosted login (or, with
 * `prompt=none`, a silent one). A member is sent straight back only while the platform still
 * honours their session, so a cookie holding dead tokens can always log in again.
 */
export async function handleLogin(request: NextRequest): Promise<NextResponse> {
  if (isPrefetch(request.headers)) return prefetchAnswer();
  const params = loginParams.parse(Object.fromEntries(request.nextUrl.searchParams));
  const returnTo = safeReturnTo(params.returnTo, siteUrl("/").origin);
  const verdict = await attemptAuthAction("hostedLogin", { address: clientAddress(request.headers) });
  if (!verdict.allowed) return tooManyAttempts(verdict.retryAfterSeconds, returnTo);
  const current = await readSession(request.cookies);

  try {
    if (current?.role === "member") {
      const renewal = await renewSession(current, nowSeconds(), "check");
      if (renewal.session) {
        const response = noStoreRedirect(siteUrl(returnTo));
        await writeSession(response.cookies, renewal.session);
        return response;
      }
    }
    const response = noStoreRedirect(siteUrl("/"));
    const authUrl = await beginLogin(request.cookies, response.cookies, { returnTo, mode: params.prompt === "none" ? "silent" : "hosted" });
    response.headers.set("location", authUrl);
    // A member whose session the platform refused is not one any more.
    if (current?.role === "member") clearSession(response.cookies);
    return response;
  } catch (error) {
    logger().error({ failure: describeFailure(error) }, "starting the hosted login failed");
    return signInProblem("unavailable", returnTo);
  }
}
