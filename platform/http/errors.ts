import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
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

/**
 * A client error raised by the HTTP layer itself (unparseable body, unsupported content type,
 * body over the limit), with a clear message; undefined for anything else.
 */
export function transportClientError(error: FastifyError | PlatformError): { status: number; message: string } | undefined {
  if (error instanceof PlatformError) return undefined;
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) return undefined;
  if (status === 413) return { status, message: "Payload is too large." };
  const malformed = error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error instanceof SyntaxError;
  return { status, message: malformed ? "Request body is not valid JSON." : error.message };
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or URL over 16 KB,
 * malformed HTTP, a client too slow to send): answered in the same envelope as everything else.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "INVALID_ARGUMENT", "The request's URL or headers are too large; send the request in a POST body."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "REQUEST_TIMEOUT", "The request took too long to arrive."]
        : [400, "INVALID_ARGUMENT", "Malformed HTTP request."];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

/** Maps every failure to a JSON envelope (docs/platform/transport.md §5); only genuine bugs become a 500, and never with a stack. */
export function handleError(error: FastifyError | PlatformError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof PlatformError) {
    return reply.status(error.status).send(errorBody(error.code, error.message, error.data));
  }
  const clientError = transportClientError(error);
  if (clientError) {
    // The `@wix/data` client reports any 413 as WDE0109, so the code is the same for every module.
    const code = clientError.status === 413 ? "WDE0109" : "INVALID_ARGUMENT";
    return reply.status(clientError.status).send(errorBody(code, clientError.message));
  }
  request.log.error({ err: error }, "unhandled platform error");
  return reply.status(500).send(errorBody("INTERNAL_ERROR", "Internal platform error."));
}
