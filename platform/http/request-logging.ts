import type { FastifyInstance, FastifyRequest } from "fastify";
import type { PlatformConfig } from "../config";
import { externalLoginToken, isAdminKey } from "../context";
import type { TokenStore } from "../oauth/store";
import { accessSubjectOf } from "./access-subject";
import type { CallerRole } from "./request-entry";
import { bodyText, errorCodeOf, redactQuery, sentRequest, type RequestLog } from "./request-log";

/** The hooks that feed the request log (request-log.ts) from every call the platform answers. */

const NOT_LOGGED = "/_local/";

type Pending = { caller: CallerRole; responseBody?: unknown };
declare module "fastify" {
  interface FastifyRequest {
    requestLogEntry?: Pending;
  }
}

/** The caller's role by the Authorization header alone, without refusing anything: routes do that. */
function callerRole(config: PlatformConfig, tokens: TokenStore, request: FastifyRequest): CallerRole {
  const header = request.headers.authorization?.trim();
  if (!header) return "none";
  if (isAdminKey(config, header) || externalLoginToken(config, header) !== null) return "admin key";
  const subject = accessSubjectOf(request, tokens, header);
  return subject?.role ?? "unknown token";
}

/**
 * Feeds the log from every call except the `/_local/*` ones (the Studio's own among them). The
 * role is read before the route runs, so a logout's token still counts as the member's.
 */
export function registerRequestLog(app: FastifyInstance, log: RequestLog, config: PlatformConfig, tokens: TokenStore) {
  const logged = (request: FastifyRequest) => !request.url.startsWith(NOT_LOGGED);
  app.addHook("onRequest", async (request) => {
    if (logged(request)) request.requestLogEntry = { caller: callerRole(config, tokens, request) };
  });
  app.addHook("onSend", async (request, reply, payload) => {
    // Streams (file downloads) are not read twice; the platform's errors are strings.
    const readable = typeof payload === "string" || Buffer.isBuffer(payload);
    if (request.requestLogEntry && reply.statusCode >= 400 && readable) request.requestLogEntry.responseBody = payload;
    return payload;
  });
  app.addHook("onResponse", async (request, reply) => {
    const pending = request.requestLogEntry;
    if (!pending) return;
    const [path, query = ""] = request.url.split(/\?(.*)/s, 2);
    const failed = reply.statusCode >= 400;
    const contentType = reply.getHeader("content-type")?.toString();
    let parsedResponse: unknown;
    if (failed && contentType?.includes("json")) {
      try {
        parsedResponse = JSON.parse(String(pending.responseBody));
      } catch {
        parsedResponse = undefined;
      }
    }
    log.add({
      time: new Date().toISOString(),
      method: request.method,
      path,
      query: query && redactQuery(query),
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
      caller: pending.caller,
      requestId: request.id,
      ...(failed && {
        errorCode: errorCodeOf(parsedResponse),
        requestBody: bodyText(sentRequest(request, query), request.body === undefined ? "application/json" : request.headers["content-type"]),
        responseBody: bodyText(parsedResponse ?? pending.responseBody, contentType),
      }),
    });
  });
}
