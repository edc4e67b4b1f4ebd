import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { startAuthorization } from "@/lib/wix/oauth";
import { isPrefetch } from "./prefetch";
import { noStoreRedirect, signInProblem, siteUrl } from "./responses";
import { safeReturnTo } from "./return-to";
import { SESSION_COOKIE, unsealSession } from "./session";
import { saveTransaction } from "./transactions";

export const CALLBACK_PATH = "/api/auth/callback";

const loginParams = z.object({
  returnTo: z.string().optional(),
  prompt: z.enum(["login", "none"]).catch("login").default("login"),
});

/** `GET /api/auth/login?returnTo=/path[&prompt=none]`: starts the hosted login with PKCE. */
export async function handleLogin(request: NextRequest): Promise<NextResponse> {
  if (isPrefetch(request.headers)) return new NextResponse(null, { status: 204, headers: { "cache-control": "private, no-store" } });
  const params = loginParams.parse(Object.fromEntries(request.nextUrl.searchParams));
  const returnTo = safeReturnTo(params.returnTo, siteUrl("/").origin);
  const session = await unsealSession(request.cookies.get(SESSION_COOKIE)?.value);
  if (session?.role === "member") return noStoreRedirect(siteUrl(returnTo));
  if (!session) return signInProblem("unavailable", returnTo);

  let started: Awaited<ReturnType<typeof startAuthorization>>;
  try {
    started = await startAuthorization(session, siteUrl(CALLBACK_PATH).href, params.prompt);
  } catch (error) {
    console.error("Starting the hosted login failed:", error instanceof Error ? error.message.split("\n")[0] : "unknown error");
    return signInProblem("unavailable", returnTo);
  }
  const response = noStoreRedirect(started.authUrl);
  await saveTransaction(request, response, { oauthData: started.oauthData, returnTo, prompt: params.prompt, createdAt: Date.now() });
  return response;
}
