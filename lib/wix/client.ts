import "server-only";
import { createClient } from "@wix/sdk";
import { noteRenderPersonal } from "@/lib/cache/page-cache-signals";
import { SharedRuns } from "@/lib/shared-runs";
import { items } from "@wix/data";
import { authentication } from "@wix/identity";
import { members } from "@wix/members";
import { TokenRefusedError } from "./errors";
import { grantVisitorTokens, renewAccessToken, renewalTime, type TokenPair } from "./oauth";
import { platformFetch } from "./platform-fetch";

const modules = { items, members, authentication };

function clientWith(authorization: () => Promise<string> | string, signal?: AbortSignal) {
  return createClient({
    modules,
    auth: { getAuthHeaders: async () => ({ headers: { Authorization: await authorization() } }) },
    fetch: signal ? (input, init) => platformFetch(input, { ...init, signal }) : platformFetch,
    // What OAuthStrategy would choose for reads.
    useCDN: true,
  });
}

export type WixClient = ReturnType<typeof clientWith>;

/**
 * A client for reads whose answer depends on who asks: it uses the visitor's or member's
 * access token as it is and never renews it (renewal belongs to middleware). A refused token
 * surfaces as TokenRefusedError; `signal` bounds the calls in time.
 */
export function sessionClient(accessToken: string, signal?: AbortSignal): WixClient {
  noteRenderPersonal();
  return clientWith(() => accessToken, signal);
}

/**
 * The server's own visitor: one token pair per process, shared by every request, so that
 * reads anyone may make do not depend on the request and can be cached. It renews itself a
 * minute before expiry; concurrent callers share one grant.
 */
const publicVisitor = { pair: null as (TokenPair & { renewAt: number }) | null };
const visitorGrants = new SharedRuns<TokenPair & { renewAt: number }>();

async function nextPublicPair(previous: TokenPair | null): Promise<TokenPair & { renewAt: number }> {
  let pair: TokenPair;
  try {
    pair = previous ? await renewAccessToken(previous) : await grantVisitorTokens();
  } catch (error) {
    // A refused refresh starts over with a new visitor; an outage surfaces to the reader.
    if (!previous) throw error;
    pair = await grantVisitorTokens();
  }
  return { ...pair, renewAt: renewalTime(pair, Math.floor(Date.now() / 1000)) };
}

/** The server's visitor tokens, for platform calls made on nobody's behalf (starting a login, say). */
export async function publicVisitorPair(): Promise<TokenPair> {
  const { pair } = publicVisitor;
  if (pair && Date.now() / 1000 < pair.renewAt) return pair;
  publicVisitor.pair = await visitorGrants.run("visitor", () => nextPublicPair(pair));
  return publicVisitor.pair;
}

const publicClient = clientWith(async () => (await publicVisitorPair()).accessToken);

/**
 * Runs a read that anyone may make with the server's visitor (or a login's steps, which a
 * visitor takes); calls no SDK function sends get its access token. A token the platform
 * refused (revoked, or expired early) is replaced and the read tried once more.
 */
export async function publicRead<T>(read: (client: WixClient, accessToken: string) => Promise<T>): Promise<T> {
  try {
    return await read(publicClient, (await publicVisitorPair()).accessToken);
  } catch (error) {
    if (!(error instanceof TokenRefusedError)) throw error;
    // Marked due, so the next token request renews it (one shared renewal for all callers).
    if (publicVisitor.pair) publicVisitor.pair = { ...publicVisitor.pair, renewAt: 0 };
    return read(publicClient, (await publicVisitorPair()).accessToken);
  }
}
