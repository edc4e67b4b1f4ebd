import type { FastifyRequest } from "fastify";
import type { PlatformConfig } from "./config";
import type { Db } from "./db";
import { PlatformError } from "./http/errors";
import type { TokenStore } from "./oauth/store";

/** Who is calling, from the raw `Authorization` header the SDK sends (no `Bearer`). */
export type Caller =
  | { kind: "anonymous" }
  | { kind: "visitor"; id: string }
  | { kind: "member"; id: string }
  | { kind: "admin" };

export type PlatformContext = {
  config: PlatformConfig;
  db: Db;
  tokens: TokenStore;
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
    return subject.role === "member" ? { kind: "member", id: subject.subjectId } : { kind: "visitor", id: subject.subjectId };
  };
}
