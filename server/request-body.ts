import { IncomingMessage } from "node:http";

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

/** The same request with its body to be read again, for Next.js, once the server has read it. */
export function withBody(request: IncomingMessage, body: Buffer): IncomingMessage {
  const replay = new IncomingMessage(request.socket);
  // The body is whole now: it has a length, and no longer comes in chunks.
  const headers = { ...request.headers, "content-length": String(body.length) };
  delete headers["transfer-encoding"];
  const rawHeaders = Object.entries(headers).flatMap(([name, value]) =>
    Array.isArray(value) ? value.flatMap((one) => [name, one]) : value === undefined ? [] : [name, value],
  );
  Object.assign(replay, {
    method: request.method,
    url: request.url,
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
