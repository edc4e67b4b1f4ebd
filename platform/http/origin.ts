import type { FastifyRequest } from "fastify";
import type { PlatformConfig } from "../config";

/**
 * The platform's own address as the browser should open it: the Host the request came in on
 * (the site reaches the platform on the same machine as the browser), or the configured port
 * when Host is missing or malformed. X-Forwarded-* is never trusted (pitfall P12).
 */
export function platformOrigin(request: FastifyRequest, config: PlatformConfig): string {
  const host = request.headers.host;
  if (host && /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)) return `http://${host}`;
  return `http://localhost:${config.port}`;
}
