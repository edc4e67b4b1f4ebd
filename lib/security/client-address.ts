import { getConfig } from "@/lib/config";
import { currentRequestContext } from "@/lib/observability/request-context";

export type TrustedProxy = { header: string; hops: number };

/** Counted as one client when nothing better is known (`next dev`, which has no server entry). */
export const UNKNOWN_ADDRESS = "unknown";

/** `::ffff:203.0.113.7` and `203.0.113.7` are one client. */
function normalised(address: string): string {
  return address
    .trim()
    .replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "")
    .toLowerCase();
}

/**
 * The client's address for rate limits. Behind a configured proxy it is read from the header
 * the proxy writes: for a list such as X-Forwarded-For, the entry `hops` places from the right
 * (the rightmost is what the nearest proxy saw; whatever stands further left the client may have
 * written itself). With no proxy configured it is the socket's address, never a header: any
 * client can send X-Forwarded-For, and Next.js passes one it finds unchanged (docs/operations.md).
 * Pure: tested on its own.
 */
export function resolveClientAddress(headers: Headers, trustedProxy: TrustedProxy | null, socketAddress: string | null | undefined): string {
  if (trustedProxy) {
    const entries = (headers.get(trustedProxy.header) ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length > 0) return normalised(entries[Math.max(0, entries.length - trustedProxy.hops)]);
  }
  return socketAddress ? normalised(socketAddress) : UNKNOWN_ADDRESS;
}

/** The address of the client making this request, as configured. */
export function clientAddress(headers: Headers): string {
  return resolveClientAddress(headers, getConfig().trustedProxy, currentRequestContext()?.socketAddress);
}
