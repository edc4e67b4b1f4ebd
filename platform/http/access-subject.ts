import type { FastifyRequest } from "fastify";
import type { TokenSubject } from "../oauth/access-token";
import type { TokenStore } from "../oauth/store";

const looked = new WeakMap<FastifyRequest, { accessToken: string; subject: TokenSubject | null }>();

/**
 * The subject of the access token a request carries, looked up once per request: the request log
 * names the caller's role before the route runs (request-logging.ts), and the route's caller
 * resolution (context.ts) then asks about the same token.
 */
export function accessSubjectOf(request: FastifyRequest, tokens: TokenStore, accessToken: string): TokenSubject | null {
  const known = looked.get(request);
  if (known?.accessToken === accessToken) return known.subject;
  const subject = tokens.resolveAccess(accessToken);
  looked.set(request, { accessToken, subject });
  return subject;
}
