import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";

/**
 * An error the platform answers on purpose, in the envelope the `@wix/*` clients parse:
 * `{message, details: {applicationError: {code, description, data}}}`.
 */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, data: Record<string, unknown> = {}) {
  return { message, details: { applicationError: { code, description: message, data } } };
}

/** Maps every failure to a JSON envelope; only genuine bugs become a 500, and never with a stack. */
export function handleError(error: FastifyError | PlatformError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof PlatformError) {
    return reply.status(error.status).send(errorBody(error.code, error.message, error.data));
  }
  const status = error.statusCode ?? 500;
  if (status === 413) {
    return reply.status(413).send(errorBody("WDE0109", "Payload is too large."));
  }
  if (status >= 400 && status < 500) {
    const message = error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError
      ? "Request body is not valid JSON."
      : error.message;
    return reply.status(status).send(errorBody("INVALID_ARGUMENT", message));
  }
  request.log.error({ err: error }, "unhandled platform error");
  return reply.status(500).send(errorBody("INTERNAL_ERROR", "Internal platform error."));
}
