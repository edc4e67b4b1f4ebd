import type { FastifyRequest } from "fastify";
import type { PlatformConfig } from "./config";
import type { Db } from "./db";
import { PlatformError } from "./http/errors";
import type { IdentityStore } from "./identity/store";
import type { ClientRegistry } from "./oauth/clients";
import type { AuthCodeStore } from "./oauth/codes";
import type { TokenStore } from "./oauth/store";
import type { RedirectSessionStore } from "./redirects/store";

/** Who is calling, from the raw `Authorization` header the SDK sends (no `Bearer`). */
export type Caller =
  | { kind: "anonymous" }
  | { kind: "visitor"; id: string }
  | { kind: "member"; id: string; loginSessionId: string | null }
  | { kind: "admin" };

export type PlatformContext = {
  config: PlatformConfig;
  db: Db;
  tokens: TokenStore;
  clients: ClientRegistry;
  codes: AuthCodeStore;
  identities: IdentityStore;
  redirects: RedirectSessionStore;
  callerOf(request: FastifyRequest): Caller;
};

export function createCallerResolver(config: PlatformConfig, tokens: TokenStore) {
  return (request: FastifyRequest): Caller => {
    const header = request.headers.authorization;
    if (!header) return { kind: "anonymous" };
    // External login sends "<accessToken>,<apiKey>"; ApiKeyStrategy sends the key alone.
    const parts = header.split(",").map((p) => p.trim());
    if (parts.includes(config.apiKey)) return { kind: "admin" };
    const subject = tokens.resolveAccess(parts[0]);
    if (!subject) throw new PlatformError(401, "UNAUTHENTICATED", "The access token is invalid or has expired.");
    return subject.role === "member"
      ? { kind: "member", id: subject.subjectId, loginSessionId: subject.loginSessionId ?? null }
      : { kind: "visitor", id: subject.subjectId };
  };
}
