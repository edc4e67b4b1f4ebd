import { IncomingMessage, type IncomingHttpHeaders } from "node:http";

/**
 * Reads a request's body whole, up to `limit` bytes, whether or not it declared its length.
 * Null once it passes the limit: the caller answers 413 and closes the connection.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off("data", onData);
        request.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve(Buffer.concat(chunks)));
    request.once("error", reject);
  });
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
