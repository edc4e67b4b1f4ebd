import { IncomingMessage, type IncomingHttpHeaders } from "node:http";

/** Why a body was not read: larger than allowed, not sent in time, or its client went away. */
export type Unread = "too-large" | "too-slow" | "gone";

/**
 * Reads a request's body whole, up to `limit` bytes and within `timeoutMs`, whether or not it
 * declared its length. Past either, reading stops: the caller answers 413 or 408 and closes the
 * connection. A client that leaves mid-body is "gone": there is no one to answer.
 */
export function readBody(request: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer | Unread> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (outcome: Buffer | Unread) => {
      clearTimeout(timer);
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onGone);
      request.off("close", onGone);
      if (!Buffer.isBuffer(outcome)) request.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) stop("too-large");
      else chunks.push(chunk);
    };
    const onEnd = () => stop(Buffer.concat(chunks));
    const onGone = () => stop("gone");
    const timer = setTimeout(() => stop("too-slow"), timeoutMs);
    request.on("data", onData);
    request.once("end", onEnd);
    request.once("error", onGone);
    request.once("close", onGone);
  });
}

/** Whether the request carries a body at all (HTTP/1.1: a length over 0, or chunks). */
export function hasBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** A request made anew on the same socket, for Next.js to read once the server has read the original. */
function replayed(request: IncomingMessage, method: string, url: string, headers: IncomingHttpHeaders, body: Buffer): IncomingMessage {
  const replay = new IncomingMessage(request.socket);
  const rawHeaders = Object.entries(headers).flatMap(([name, value]) =>
    Array.isArray(value) ? value.flatMap((one) => [name, one]) : value === undefined ? [] : [name, value],
  );
  Object.assign(replay, {
    method,
    url,
    headers,
    rawHeaders,
    httpVersion: request.httpVersion,
    httpVersionMajor: request.httpVersionMajor,
    httpVersionMinor: request.httpVersionMinor,
    // A message not marked complete destroys its socket when it ends, and the answer with it.
    complete: true,
  });
  replay.push(body);
  replay.push(null);
  return replay;
}

/** The same request with its body to be read again, for Next.js, once the server has read it. */
export function withBody(request: IncomingMessage, body: Buffer): IncomingMessage {
  // The body is whole now: it has a length, and no longer comes in chunks.
  const headers = { ...request.headers, "content-length": String(body.length) };
  delete headers["transfer-encoding"];
  return replayed(request, request.method ?? "POST", request.url ?? "/", headers, body);
}

/** A GET of another page of the site in the request's place, with its headers (cookies, Referer) and without its body. */
export function asPageRequest(request: IncomingMessage, path: string): IncomingMessage {
  const headers = { ...request.headers };
  for (const name of ["content-length", "content-type", "transfer-encoding"]) delete headers[name];
  return replayed(request, "GET", path, headers, Buffer.alloc(0));
}
