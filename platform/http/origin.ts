import type { FastifyRequest } from "fastify";
import { reachableUrl } from "@ridgeline/platform-contract";
import type { PlatformConfig } from "../config";

/**
 * The platform's own address as a browser or a mail reader should open it: the configured
 * public URL, else the bind address on the port this server listens on. Never the request's
 * Host or X-Forwarded-*: a reset link built from them mails the token to whoever sent the
 * request (pitfall P12).
 */
export function platformOrigin(request: FastifyRequest, config: PlatformConfig): string {
  if (config.publicUrl) return config.publicUrl;
  const address = request.server.server.address();
  return reachableUrl(config.host, typeof address === "object" && address ? address.port : config.port);
}
